import Link from 'next/link';
import { Table, Td, Th } from '@/components/ui/table';
import { TableDisclosure } from '@/components/ui/table-disclosure';
import { TrendLine, type TrendLinePoint } from '@/components/ui/trend-line';
import type { CrawlTrendPoint } from '@/lib/dashboard/crawl';
import { formatDateTime, formatNumber } from '@/lib/format';

/** "12 on Nov 3, ..., 9 on Nov 24; lowest 7, highest 15": a series in words. */
function trendSummary(what: string, points: TrendLinePoint[], unit = ''): string {
  const known = points.filter((p): p is TrendLinePoint & { value: number } => p.value !== null);
  if (known.length === 0) return `${what}: no value in these crawls.`;
  const first = known[0]!;
  const last = known.at(-1)!;
  const values = known.map((p) => p.value);
  return `${what} over ${points.length} crawls: ${formatNumber(first.value)}${unit} on ${formatDateTime(first.at)}, ${formatNumber(last.value)}${unit} on ${formatDateTime(last.at)}; lowest ${formatNumber(Math.min(...values))}${unit}, highest ${formatNumber(Math.max(...values))}${unit}.`;
}

/**
 * Broken targets, pages crawled and SEO score over the site's recent completed crawls: three small
 * charts (their scales differ too much to share an axis) and the same figures as a table, each
 * crawl linking to its reports.
 */
export function CrawlTrend({
  points,
  runHref,
  showSeo,
}: {
  points: CrawlTrendPoint[];
  runHref: (runId: string) => string;
  showSeo: boolean;
}) {
  if (points.length === 0) {
    return <p className="text-sm text-zinc-600">The trend appears once a crawl has completed.</p>;
  }
  if (points.length === 1) {
    const only = points[0]!;
    return (
      <p className="text-sm text-zinc-600">
        One completed crawl so far ({formatNumber(only.brokenTargets)} broken targets,{' '}
        {formatNumber(only.pagesCrawled)} pages
        {showSeo && only.seoScore !== null ? `, SEO score ${only.seoScore}` : ''}); the trend appears after
        the next one.
      </p>
    );
  }
  const series = (value: (p: CrawlTrendPoint) => number | null): TrendLinePoint[] =>
    points.map((p) => ({ key: p.runId, at: p.startedAt, value: value(p) }));
  const broken = series((p) => p.brokenTargets);
  const pages = series((p) => p.pagesCrawled);
  const seo = series((p) => p.seoScore);
  return (
    <div className="space-y-4">
      <div className={showSeo ? 'grid gap-4 lg:grid-cols-3' : 'grid gap-4 lg:grid-cols-2'}>
        <TrendLine
          title="Broken targets"
          summary={trendSummary('Broken targets', broken)}
          points={broken}
          color="#dc2626"
        />
        <TrendLine title="Pages crawled" summary={trendSummary('Pages crawled', pages)} points={pages} />
        {showSeo ? (
          <TrendLine
            title="SEO score"
            summary={trendSummary('SEO score', seo, ' of 100')}
            points={seo}
            domain={[0, 100]}
            color="#16a34a"
          />
        ) : null}
      </div>
      <TableDisclosure summary="The trend as a table">
        <Table caption="Completed crawls, oldest first">
          <thead>
            <tr>
              <Th>Crawl started</Th>
              <Th className="text-right">Broken targets</Th>
              <Th className="text-right">Pages crawled</Th>
              {showSeo ? <Th className="text-right">SEO score</Th> : null}
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.runId}>
                <Td className="whitespace-nowrap">
                  <Link href={runHref(p.runId)} className="text-accent-700 hover:underline">
                    {formatDateTime(p.startedAt)}
                  </Link>
                </Td>
                <Td className="text-right tabular-nums">{formatNumber(p.brokenTargets)}</Td>
                <Td className="text-right tabular-nums">{formatNumber(p.pagesCrawled)}</Td>
                {showSeo ? <Td className="text-right tabular-nums">{p.seoScore ?? '—'}</Td> : null}
              </tr>
            ))}
          </tbody>
        </Table>
      </TableDisclosure>
    </div>
  );
}
