import type { Run } from '@/components/api/types';
import { formatDateTime, formatDuration, formatNumber } from '@/components/ui/format';
import { Badge, EmptyState } from '@/components/ui/surface';
import { Table, Td, Th } from '@/components/ui/table';

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

export function RunHistory({ runs }: { runs: Run[] }) {
  if (runs.length === 0) {
    return <EmptyState title="No runs yet" description="Runs appear here as crawls and scans finish." />;
  }
  return (
    <Table caption="Run history, newest first">
      <thead>
        <tr>
          <Th>Started</Th>
          <Th>Kind</Th>
          <Th>State</Th>
          <Th>Duration</Th>
          <Th className="text-right">Pages</Th>
          <Th className="text-right">Links</Th>
          <Th className="text-right">Broken</Th>
          <Th className="text-right">SEO</Th>
          <Th className="text-right">Accessibility</Th>
        </tr>
      </thead>
      <tbody>
        {runs.map((run) => (
          <tr key={run.id}>
            <Td className="whitespace-nowrap">{formatDateTime(run.started_at)}</Td>
            <Td>{run.kind === 'crawl' ? 'Crawl' : 'Accessibility'}</Td>
            <Td>
              <Badge tone={stateTone[run.state]}>{run.state}</Badge>
              {run.error ? <div className="mt-1 max-w-xs text-xs text-red-700">{run.error}</div> : null}
              {run.cut_short === 1 ? (
                <div className="mt-1 max-w-xs text-xs text-amber-800">
                  Partial: {run.limits_hit.map((hit) => limitLabel[hit.limit]).join(', ')}
                </div>
              ) : null}
            </Td>
            <Td className="whitespace-nowrap">
              {run.finished_at ? formatDuration(run.finished_at - run.started_at) : 'In progress'}
            </Td>
            <Td className="text-right tabular-nums">{formatNumber(run.pages_crawled)}</Td>
            <Td className="text-right tabular-nums">{formatNumber(run.links_checked)}</Td>
            <Td className="text-right tabular-nums">{formatNumber(run.broken_count)}</Td>
            <Td className="text-right tabular-nums">{run.seo_score ?? '—'}</Td>
            <Td className="text-right tabular-nums">{run.a11y_score ?? '—'}</Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
