'use client';

import { useMemo, useState } from 'react';
import { useResource } from '@/components/api/client';
import type { BrokenLink, BrokenLinkReport } from '@/components/api/types';
import { Button } from '@/components/ui/button';
import { ExternalLink } from '@/components/ui/external-link';
import { formatDateTime, formatNumber } from '@/components/ui/format';
import { Badge, EmptyState, Stat } from '@/components/ui/surface';
import { Table, Td, Th } from '@/components/ui/table';
import { brokenLinksCsv, redirectHops } from './broken-links-csv';
import { CutShortNotice, FindingCard, ReportPlaceholder } from './report-parts';

type KindFilter = 'all' | 'internal' | 'external';
type TargetGroup = { target: string; first: BrokenLink; sources: BrokenLink[] };

function groupByTarget(rows: readonly BrokenLink[]): TargetGroup[] {
  const groups = new Map<string, TargetGroup>();
  for (const row of rows) {
    const group = groups.get(row.target_url);
    if (group) group.sources.push(row);
    else groups.set(row.target_url, { target: row.target_url, first: row, sources: [row] });
  }
  return [...groups.values()];
}

export function BrokenLinksReport({ siteId, hostname }: { siteId: string; hostname: string }) {
  const report = useResource<BrokenLinkReport>(`/v1/sites/${siteId}/report`);
  const [filter, setFilter] = useState<KindFilter>('all');

  const rows = useMemo(
    () => (report.data?.brokenLinks ?? []).filter((r) => filter === 'all' || r.kind === filter),
    [report.data, filter],
  );
  const groups = useMemo(() => groupByTarget(rows), [rows]);

  if (report.error || !report.data) {
    return (
      <ReportPlaceholder
        report={report}
        name="report"
        missing={(error) => ({
          title: 'No broken-link report yet',
          description: `${capitalize(error.message)}. Reports appear after the first crawl with the Broken links app on.`,
        })}
      />
    );
  }

  const { run } = report.data;
  const exportCsv = () => {
    const blob = new Blob([brokenLinksCsv(rows)], { type: 'text/csv;charset=utf-8' });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = `${hostname}-broken-links-${filter}.csv`;
    a.click();
    URL.revokeObjectURL(url);
  };

  return (
    <div className="space-y-6">
      <p className="text-sm text-zinc-600">
        From the crawl started {formatDateTime(run.started_at)}
        {run.state === 'running' ? ' (still running)' : ''}.
      </p>
      <CutShortNotice run={run} />
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Stat label="Broken targets" value={formatNumber(run.broken_count)} />
        <Stat label="Pages affected" value={formatNumber(run.pages_with_broken_count)} />
        <Stat label="Internal" value={formatNumber(run.internal_broken)} />
        <Stat label="External" value={formatNumber(run.external_broken)} />
      </dl>

      <div className="flex flex-wrap items-end justify-between gap-4">
        <fieldset>
          <legend className="text-sm font-medium text-zinc-800">Show links</legend>
          <div className="mt-2 inline-flex rounded-md border border-zinc-300 bg-white p-0.5 shadow-xs">
            {(['all', 'internal', 'external'] as const).map((value) => (
              <label
                key={value}
                className="cursor-pointer rounded px-3 py-1.5 text-sm text-zinc-700 has-checked:bg-zinc-900 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:outline-accent-600"
              >
                <input
                  type="radio"
                  name="kind"
                  value={value}
                  checked={filter === value}
                  onChange={() => setFilter(value)}
                  className="sr-only"
                />
                {value === 'all' ? 'All' : value === 'internal' ? 'Internal' : 'External'}
              </label>
            ))}
          </div>
        </fieldset>
        <Button onClick={exportCsv} disabled={rows.length === 0}>
          Export CSV
        </Button>
      </div>

      <p role="status" className="text-sm text-zinc-700">
        {formatNumber(groups.length)} broken {groups.length === 1 ? 'target' : 'targets'} linked from{' '}
        {formatNumber(rows.length)} {rows.length === 1 ? 'place' : 'places'}.
      </p>

      {groups.length === 0 ? (
        <EmptyState
          title={filter === 'all' ? 'No broken links' : `No broken ${filter} links`}
          description={filter === 'all' ? 'Every link this crawl checked answered.' : 'Try another filter.'}
        />
      ) : (
        <ul className="space-y-4">
          {groups.map((group) => (
            <TargetCard key={group.target} group={group} />
          ))}
        </ul>
      )}
    </div>
  );
}

function TargetCard({ group }: { group: TargetGroup }) {
  const { first } = group;
  const hops = redirectHops(first.redirect_chain);
  return (
    <FindingCard
      pageCount={group.sources.length}
      summary={`Linked from ${group.sources.length} ${group.sources.length === 1 ? 'page' : 'pages'}`}
      header={
        <>
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone="danger">
              {first.status_code ?? (first.status === 'error' ? 'No response' : 'Broken')}
            </Badge>
            <Badge>{first.kind === 'internal' ? 'Internal' : 'External'}</Badge>
          </div>
          <h3 className="mt-2 font-mono text-sm font-medium break-all text-zinc-900">{group.target}</h3>
          {first.detail ? <p className="mt-1 text-sm text-zinc-600">{first.detail}</p> : null}
          {hops.length > 0 ? (
            <div className="mt-2">
              <p className="text-xs font-medium text-zinc-700">Redirect chain</p>
              <ol className="mt-1 list-decimal space-y-0.5 pl-5 font-mono text-xs break-all text-zinc-700">
                {hops.map((hop, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: hops are positional and may repeat
                  <li key={i}>{hop}</li>
                ))}
              </ol>
            </div>
          ) : null}
        </>
      }
    >
      <Table caption={`Pages linking to ${group.target}`}>
        <thead>
          <tr>
            <Th>Source page</Th>
            <Th>Link text</Th>
            <Th>Selector</Th>
          </tr>
        </thead>
        <tbody>
          {group.sources.map((row) => (
            <tr key={row.id}>
              <Td className="break-all">
                <ExternalLink href={row.source_url} className="text-accent-700 hover:underline">
                  {row.source_url}
                </ExternalLink>
              </Td>
              <Td>{row.link_text || <span className="text-zinc-600">(no text)</span>}</Td>
              <Td className="font-mono text-xs break-all">{row.link_selector ?? '—'}</Td>
            </tr>
          ))}
        </tbody>
      </Table>
    </FindingCard>
  );
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
