import type { CrawledPage, PageList } from '@/components/api/types';
import { SelectField, TextField } from '@/components/ui/field';
import { FilterForm } from '@/components/ui/filter-form';
import { Pager } from '@/components/ui/pager';
import type { QueryState } from '@/components/ui/query-href';
import { formatDateTime, formatNumber } from '@/lib/format';
import { CutShortNotice } from './report-parts';
import { CsvLink, KindSelect, ReportTable } from './report-table';
import { StatusBadge } from './status-badge';
import { UrlLink } from './url-link';

const FILTER_KEYS = ['q', 'status', 'kind', 'contentType', 'depth'] as const;

/** Media types offered as filters; a trailing slash takes every subtype. */
const CONTENT_TYPES = [
  ['text/html', 'HTML pages'],
  ['image/', 'Images'],
  ['text/css', 'Stylesheets'],
  ['text/javascript', 'Scripts (text/javascript)'],
  ['application/javascript', 'Scripts (application/javascript)'],
  ['application/pdf', 'PDF documents'],
  ['application/json', 'JSON'],
  ['font/', 'Fonts'],
  ['video/', 'Video'],
  ['audio/', 'Audio'],
] as const;

/**
 * Every URL a crawl discovered, as a server-rendered table: sortable by the columns the API sorts,
 * filtered and paged along the API's keyset cursor (so page 900 of a 100,000-URL crawl costs what
 * page 1 does), each URL opening its own view.
 */
export function PagesTable({
  siteId,
  data,
  path,
  query,
  pageSize,
  runId,
  csvHref,
}: {
  siteId: string;
  data: PageList;
  path: string;
  query: QueryState;
  pageSize: number;
  runId?: string;
  csvHref: string;
}) {
  const { run, pages } = data;
  const sort = query.sort ?? 'url';
  const order = query.order === 'desc' ? 'desc' : 'asc';
  const filtered = FILTER_KEYS.some((key) => query[key]);
  const contentTypes: readonly (readonly [string, string])[] =
    query.contentType && !CONTENT_TYPES.some(([value]) => value === query.contentType)
      ? [...CONTENT_TYPES, [query.contentType, query.contentType]]
      : CONTENT_TYPES;
  return (
    <div className="space-y-6">
      <p className="text-sm text-zinc-600">
        {formatNumber(run.pages_crawled)} {run.pages_crawled === 1 ? 'page' : 'pages'} crawled and{' '}
        {formatNumber(run.links_checked)} {run.links_checked === 1 ? 'URL' : 'URLs'} checked by the crawl
        started {formatDateTime(run.started_at)}
        {run.state === 'running' ? ' (still running: the list grows as it goes)' : ''}.
        {run.state === 'failed' ? ` The crawl failed${run.error ? `: ${run.error}` : ''}.` : ''}
      </p>
      <CutShortNotice run={run} />
      <FilterForm
        label="Filter crawled URLs"
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
          placeholder="Part of a URL or title"
          className="w-full sm:w-64"
        />
        <SelectField label="Status" name="status" defaultValue={query.status ?? ''} className="w-40">
          <option value="">Any</option>
          <option value="2xx">2xx success</option>
          <option value="3xx">3xx redirect</option>
          <option value="4xx">4xx client error</option>
          <option value="5xx">5xx server error</option>
          <option value="error">No response</option>
        </SelectField>
        <KindSelect value={query.kind} />
        <SelectField
          label="Content type"
          name="contentType"
          defaultValue={query.contentType ?? ''}
          className="w-56"
        >
          <option value="">Any</option>
          {contentTypes.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Depth (clicks from the root)"
          name="depth"
          type="number"
          min={0}
          inputMode="numeric"
          defaultValue={query.depth ?? ''}
          className="w-52"
        />
      </FilterForm>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p role="status" className="text-sm text-zinc-700">
          {pages.length === 0
            ? filtered
              ? 'No crawled URL matches the filters.'
              : 'No URLs yet.'
            : `Sorted by ${SORTS.find(([value]) => value === sort)?.[1] ?? sort}, ${order === 'asc' ? 'ascending' : 'descending'}${filtered ? ', filtered' : ''}.`}
        </p>
        {pages.length > 0 ? <CsvLink href={csvHref} what="every matching URL" /> : null}
      </div>
      <ReportTable
        filtered={filtered}
        empty={{
          title: 'No URLs yet',
          description: 'The crawl has not recorded any URL yet; they appear as it works.',
        }}
        filteredEmpty={{
          title: 'No crawled URL matches the filters',
          description: 'Clear the filters to see every URL of the crawl.',
        }}
        caption="Crawled URLs"
        rows={pages}
        rowKey={(page) => page.url}
        sorting={{ sort, order, path, query }}
        title={{
          key: 'url',
          header: 'URL',
          sort: 'url',
          className: 'min-w-64 max-w-md',
          cell: (page) => <UrlCell siteId={siteId} page={page} runId={runId} />,
        }}
        columns={[
          {
            key: 'status',
            header: 'Status',
            sort: 'status',
            className: 'whitespace-nowrap',
            cell: (page) => <StatusBadge code={page.status_code} verdict={page.verdict} />,
          },
          {
            key: 'type',
            header: 'Content type',
            className: 'text-xs text-zinc-700',
            cell: (page) => page.content_type ?? '—',
          },
          {
            key: 'depth',
            header: 'Depth',
            sort: 'depth',
            numeric: true,
            cell: (page) => formatNumber(page.depth),
          },
          {
            key: 'inlinks',
            header: 'Inlinks',
            sort: 'inlinks',
            firstOrder: 'desc',
            numeric: true,
            cell: (page) => (page.inlinks === null ? '—' : formatNumber(page.inlinks)),
          },
          {
            key: 'outlinks',
            header: 'Outlinks',
            sort: 'outlinks',
            firstOrder: 'desc',
            numeric: true,
            cell: (page) => (page.outlinks === null ? '—' : formatNumber(page.outlinks)),
          },
          {
            key: 'response',
            header: 'Response',
            sort: 'responseTime',
            firstOrder: 'desc',
            numeric: true,
            className: 'whitespace-nowrap',
            cell: (page) => (page.response_ms === null ? '—' : `${formatNumber(page.response_ms)} ms`),
          },
        ]}
      />
      <Pager
        label="Pages of crawled URLs"
        path={path}
        query={query}
        shown={pages.length}
        pageSize={pageSize}
        nextCursor={data.nextCursor}
      />
    </div>
  );
}

const SORTS = [
  ['url', 'URL'],
  ['status', 'Status'],
  ['depth', 'Depth'],
  ['inlinks', 'Inlinks'],
  ['outlinks', 'Outlinks'],
  ['responseTime', 'Response time'],
] as const;

/** The URL (to its own view), its title, and where it redirects to. */
function UrlCell({ siteId, page, runId }: { siteId: string; page: CrawledPage; runId?: string }) {
  return (
    <>
      <UrlLink siteId={siteId} url={page.url} runId={runId} />
      {page.title ? <p className="mt-0.5 text-xs text-zinc-600">{page.title}</p> : null}
      {page.kind === 'external' ? <p className="mt-0.5 text-xs text-zinc-600">External</p> : null}
      {page.redirect_target ? (
        <p className="mt-0.5 text-xs text-zinc-700">
          Redirects to <span className="font-mono break-all">{page.redirect_target}</span>
          {page.final_status_code !== null ? ` (${page.final_status_code})` : ''}
        </p>
      ) : null}
    </>
  );
}
