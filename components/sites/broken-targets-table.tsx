import type { BrokenTarget, BrokenTargetList } from '@/components/api/types';
import { CheckboxField, SelectField, TextField } from '@/components/ui/field';
import { FilterForm } from '@/components/ui/filter-form';
import { Pager } from '@/components/ui/pager';
import type { QueryState } from '@/components/ui/query-href';
import { Badge, Stat } from '@/components/ui/surface';
import { formatDateTime, formatNumber } from '@/lib/format';
import { statusLabel } from './crawl-hrefs';
import { RedirectHops } from './redirect-hops';
import { CutShortNotice } from './report-parts';
import { CsvLink, KindSelect, ReportTable } from './report-table';
import { RunChanges } from './run-changes';
import { UrlLink } from './url-link';

const FILTER_KEYS = ['q', 'kind', 'status', 'change'] as const;
const SORTS = [
  ['pages', 'Linking pages'],
  ['status', 'Status'],
  ['kind', 'Kind'],
  ['firstSeen', 'First seen'],
  ['target', 'Target URL'],
] as const;

/**
 * The dead-link report as a table of broken targets: sitewide problems first unless another sort is
 * chosen, each target opening to the pages that link to it; filters, paging and the CSV of the whole
 * filtered set. Rendered on the server from the page's URL.
 */
export function BrokenTargetsReport({
  siteId,
  data,
  path,
  query,
  pageSize,
  runId,
  csvHref,
  previousHref,
  previousStartedAt,
}: {
  siteId: string;
  data: BrokenTargetList;
  /** The page's own path: sorting, filtering and paging links point there. */
  path: string;
  query: QueryState;
  pageSize: number;
  /** The run shown, when it is not the latest crawl. */
  runId?: string;
  csvHref: string;
  previousHref?: string;
  previousStartedAt?: number | null;
}) {
  const { run, targets, matching, sincePreviousRun } = data;
  const sort = query.sort ?? 'pages';
  const order = query.order === 'asc' || query.order === 'desc' ? query.order : query.sort ? 'asc' : 'desc';
  const filtered = FILTER_KEYS.some((key) => query[key]);
  return (
    <div className="space-y-6">
      <p className="text-sm text-zinc-600">
        From the crawl started {formatDateTime(run.started_at)}
        {run.state === 'running' ? ' (still running)' : ''}.
        {run.state === 'failed' ? ` The crawl failed${run.error ? `: ${run.error}` : ''}.` : ''}
      </p>
      <CutShortNotice run={run} />
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Stat label="Broken targets" value={formatNumber(run.broken_count)} />
        <Stat label="Pages affected" value={formatNumber(run.pages_with_broken_count)} />
        <Stat label="Internal" value={formatNumber(run.internal_broken)} />
        <Stat label="External" value={formatNumber(run.external_broken)} />
      </dl>
      <RunChanges
        what="broken targets"
        previousRunId={sincePreviousRun.previousRunId}
        previousHref={previousHref}
        previousStartedAt={previousStartedAt}
        added={sincePreviousRun.newTargets}
        fixed={sincePreviousRun.fixedTargets}
        addedCount={sincePreviousRun.newTargetCount}
        fixedCount={sincePreviousRun.fixedTargetCount}
        item={(url) => ({ key: url, node: <span className="font-mono text-xs">{url}</span> })}
      />
      <FilterForm
        label="Filter broken links"
        path={path}
        keep={{ run: query.run }}
        sorting={{ options: SORTS, sort, order }}
        active={filtered}
      >
        <TextField
          label="Search"
          name="q"
          type="search"
          defaultValue={query.q ?? ''}
          placeholder="Part of a target or linking page URL"
          className="w-full sm:w-72"
        />
        <KindSelect value={query.kind} />
        <SelectField label="Status" name="status" defaultValue={query.status ?? ''} className="w-44">
          <option value="">Any</option>
          <option value="4xx">4xx client error</option>
          <option value="5xx">5xx server error</option>
          <option value="3xx">304 not modified</option>
          <option value="error">No response</option>
        </SelectField>
        <CheckboxField
          label="New since the previous crawl"
          name="change"
          value="new"
          defaultChecked={query.change === 'new'}
          className="pb-2"
        />
      </FilterForm>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p role="status" className="text-sm text-zinc-700">
          {formatNumber(matching.targets)} broken {matching.targets === 1 ? 'target' : 'targets'} linked from{' '}
          {formatNumber(matching.rows)} {matching.rows === 1 ? 'place' : 'places'}
          {filtered ? ' match the filters' : ''}.
        </p>
        {matching.rows > 0 ? (
          <CsvLink href={csvHref} what={`the ${formatNumber(matching.rows)} rows`} />
        ) : null}
      </div>
      <ReportTable
        filtered={filtered}
        empty={{ title: 'No broken links', description: 'Every link this crawl checked answered.' }}
        filteredEmpty={{
          title: 'No broken link matches the filters',
          description: 'Clear the filters to see every broken target.',
        }}
        caption="Broken targets with the pages linking to them"
        rows={targets}
        rowKey={(target) => target.target_url}
        sorting={{ sort, order, path, query }}
        title={{
          key: 'target',
          header: 'Target',
          sort: 'target',
          className: 'min-w-72 max-w-xl',
          cell: (target) => <TargetCell siteId={siteId} target={target} runId={runId} />,
        }}
        columns={[
          {
            key: 'status',
            header: 'Status',
            sort: 'status',
            cell: (target) => <Badge tone="danger">{statusLabel(target.status_code, target.status)}</Badge>,
          },
          {
            key: 'kind',
            header: 'Kind',
            sort: 'kind',
            cell: (target) => (target.kind === 'internal' ? 'Internal' : 'External'),
          },
          {
            key: 'pages',
            header: 'Linking pages',
            sort: 'pages',
            firstOrder: 'desc',
            numeric: true,
            cell: (target) => formatNumber(target.linking_pages),
          },
          {
            key: 'firstSeen',
            header: 'First seen',
            sort: 'firstSeen',
            firstOrder: 'desc',
            className: 'whitespace-nowrap',
            cell: (target) => formatDateTime(target.first_seen),
          },
        ]}
      />
      <Pager
        label="Pages of broken targets"
        path={path}
        query={query}
        shown={targets.length}
        pageSize={pageSize}
        nextCursor={data.nextCursor}
        total={matching.targets}
        noun={['broken target', 'broken targets']}
        countedAbove
      />
    </div>
  );
}

function TargetCell({ siteId, target, runId }: { siteId: string; target: BrokenTarget; runId?: string }) {
  const more = target.linking_pages - target.sources.length;
  return (
    <>
      <div className="flex flex-wrap items-center gap-2">
        <UrlLink
          siteId={siteId}
          url={target.target_url}
          runId={runId}
          className="font-mono text-sm font-medium"
        />
        {target.is_new ? <Badge tone="warning">New</Badge> : null}
      </div>
      {target.detail ? <p className="mt-1 text-sm text-zinc-600">{target.detail}</p> : null}
      <RedirectHops hops={target.hops} />
      <details className="mt-2">
        <summary className="cursor-pointer text-sm font-medium text-zinc-800">
          Linked from {formatNumber(target.linking_pages)} {target.linking_pages === 1 ? 'page' : 'pages'}
        </summary>
        <ul className="mt-2 space-y-2 border-l-2 border-zinc-200 pl-3">
          {target.sources.map((source) => (
            <li key={source.source_url} className="text-sm">
              <UrlLink siteId={siteId} url={source.source_url} runId={runId} />
              <p className="text-xs text-zinc-600">
                {source.link_text ? <>Link text “{source.link_text}”</> : 'No link text'}
                {source.link_selector ? (
                  <>
                    {' · '}
                    <code className="break-all">{source.link_selector}</code>
                  </>
                ) : null}
              </p>
            </li>
          ))}
        </ul>
        {more > 0 ? (
          <p className="mt-2 text-sm text-zinc-600">
            and {formatNumber(more)} more:{' '}
            <UrlLink siteId={siteId} url={target.target_url} runId={runId}>
              every linking page
              <span className="sr-only"> of {target.target_url}</span>
            </UrlLink>
            .
          </p>
        ) : null}
      </details>
    </>
  );
}
