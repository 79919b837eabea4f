import Link from 'next/link';
import type { Run, Site } from '@/components/api/types';
import { type Column, ResponsiveTable } from '@/components/ui/responsive-table';
import { Badge, EmptyState } from '@/components/ui/surface';
import { formatDateTime, formatDuration, formatNumber } from '@/lib/format';

const stateTone = { running: 'info', completed: 'success', failed: 'danger' } as const;

/** A table cell's word for each limit; the site overview's notice gives each one in full. */
const limitLabel: Record<Run['limits_hit'][number]['limit'], string> = {
  allowance: 'monthly allowance reached',
  'max-pages': 'maxPages reached',
  'links-per-page': 'a page over the link cap',
  'html-bytes': 'a page over the size cap',
  'external-checks': 'external-check cap reached',
  'unprocessable-urls': 'URLs that could not be processed',
};

/**
 * The site's recent runs, newest first: a table, or a card per run on a phone. Each app's column
 * shows while the app is on: an Accessibility-only site has no broken-link or SEO figures to read.
 */
export function RunHistory({
  runs,
  site,
  runHref,
}: {
  runs: Run[];
  site: Pick<Site, 'scanner_enabled' | 'seo_enabled' | 'a11y_enabled'>;
  /** Where a run's start time links to (its reports); null or absent: no link. */
  runHref?: (run: Run) => string | null;
}) {
  if (runs.length === 0) {
    return <EmptyState title="No runs yet" description="Runs appear here as crawls and scans finish." />;
  }
  const columns: Column<Run>[] = [
    { key: 'kind', header: 'Kind', cell: (run) => (run.kind === 'crawl' ? 'Crawl' : 'Accessibility') },
    {
      key: 'state',
      header: 'State',
      cell: (run) => (
        <>
          <Badge tone={stateTone[run.state]}>{run.state}</Badge>
          {run.error ? <div className="mt-1 max-w-xs text-xs text-red-700">{run.error}</div> : null}
          {run.cut_short === 1 ? (
            <div className="mt-1 max-w-xs text-xs text-amber-800">
              Partial: {run.limits_hit.map((hit) => limitLabel[hit.limit]).join(', ')}
            </div>
          ) : null}
        </>
      ),
    },
    {
      key: 'duration',
      header: 'Duration',
      className: 'whitespace-nowrap',
      cell: (run) => (run.finished_at ? formatDuration(run.finished_at - run.started_at) : 'In progress'),
    },
    { key: 'pages', header: 'Pages', numeric: true, cell: (run) => formatNumber(run.pages_crawled) },
    { key: 'links', header: 'Links', numeric: true, cell: (run) => formatNumber(run.links_checked) },
  ];
  if (site.scanner_enabled === 1) {
    columns.push({
      key: 'broken',
      header: 'Broken',
      numeric: true,
      cell: (run) => formatNumber(run.broken_count),
    });
  }
  if (site.seo_enabled === 1) {
    columns.push({ key: 'seo', header: 'SEO', numeric: true, cell: (run) => run.seo_score ?? '—' });
  }
  if (site.a11y_enabled === 1) {
    columns.push({
      key: 'a11y',
      header: 'Accessibility',
      numeric: true,
      cell: (run) => <HistoryScore run={run} />,
    });
  }
  return (
    <ResponsiveTable
      caption="Run history, newest first"
      rows={runs}
      rowKey={(run) => run.id}
      title={{
        key: 'started',
        header: 'Started',
        className: 'whitespace-nowrap',
        cell: (run) => {
          const href = runHref?.(run);
          return href ? (
            <Link href={href} className="font-medium text-accent-700 hover:underline">
              {formatDateTime(run.started_at)}
            </Link>
          ) : (
            formatDateTime(run.started_at)
          );
        },
      }}
      columns={columns}
    />
  );
}

/**
 * A run's accessibility score as it finished (History shows runs as they were). The latest run's
 * `a11y_score` follows later suppressions and excludePaths; when it now differs, both are said.
 */
function HistoryScore({ run }: { run: Pick<Run, 'a11y_scan_score' | 'a11y_score'> }) {
  const asScanned = run.a11y_scan_score ?? run.a11y_score;
  if (asScanned === null) return '—';
  if (run.a11y_score === null || run.a11y_score === asScanned) return asScanned;
  return (
    <>
      {asScanned}
      <span className="block text-xs font-normal text-zinc-600">
        {run.a11y_score} with today&apos;s suppressions
      </span>
    </>
  );
}
