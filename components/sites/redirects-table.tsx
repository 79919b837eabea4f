import type { Redirect, RedirectList } from '@/components/api/types';
import { TextField } from '@/components/ui/field';
import { FilterForm } from '@/components/ui/filter-form';
import { Pager } from '@/components/ui/pager';
import type { QueryState } from '@/components/ui/query-href';
import { Badge } from '@/components/ui/surface';
import { formatDateTime, formatNumber } from '@/lib/format';
import { RedirectHops } from './redirect-hops';
import { KindSelect, ReportTable } from './report-table';
import { StatusBadge } from './status-badge';
import { UrlLink } from './url-link';

const SORTS = [
  ['inlinks', 'Linking pages'],
  ['url', 'URL'],
] as const;

/**
 * Every URL of the latest crawl that answered with a redirect: its whole chain, how it ended, and
 * the pages linking to it (the first few, and all of them in the URL's own view).
 */
export function RedirectsTable({
  siteId,
  data,
  path,
  query,
  pageSize,
}: {
  siteId: string;
  data: RedirectList;
  path: string;
  query: QueryState;
  pageSize: number;
}) {
  const { run, redirects } = data;
  const sort = query.sort ?? 'inlinks';
  const order = query.order === 'asc' || query.order === 'desc' ? query.order : query.sort ? 'asc' : 'desc';
  const filtered = Boolean(query.q || query.kind);
  return (
    <div className="space-y-6">
      <p className="text-sm text-zinc-600">
        Redirects the crawl started {formatDateTime(run.started_at)} met, the most linked first. Each costs
        visitors and crawlers an extra request; a link updated to the final URL saves it.
      </p>
      <FilterForm
        label="Filter redirects"
        path={path}
        keep={{}}
        sorting={{ options: SORTS, sort, order }}
        active={filtered}
      >
        <TextField
          label="Search"
          name="q"
          type="search"
          defaultValue={query.q ?? ''}
          placeholder="Part of the redirecting URL"
          className="w-full sm:w-72"
        />
        <KindSelect value={query.kind} />
      </FilterForm>
      <ReportTable
        filtered={filtered}
        empty={{
          title: 'No redirects',
          description: 'Every URL this crawl followed answered directly, without a redirect.',
        }}
        filteredEmpty={{
          title: 'No redirect matches the filters',
          description: 'Clear the filters to see every redirect.',
        }}
        caption="Redirecting URLs with their chains and linking pages"
        rows={redirects}
        rowKey={(redirect) => redirect.url}
        sorting={{ sort, order, path, query }}
        title={{
          key: 'url',
          header: 'Redirecting URL and chain',
          sort: 'url',
          className: 'min-w-72 max-w-xl',
          cell: (redirect) => <RedirectCell siteId={siteId} redirect={redirect} />,
        }}
        columns={[
          {
            key: 'final',
            header: 'Final status',
            className: 'whitespace-nowrap',
            cell: (redirect) => <StatusBadge code={redirect.final_status_code} verdict={redirect.verdict} />,
          },
          {
            key: 'inlinks',
            header: 'Linked from',
            sort: 'inlinks',
            firstOrder: 'desc',
            className: 'min-w-64 max-w-md',
            cell: (redirect) => <LinkedFrom siteId={siteId} redirect={redirect} />,
          },
        ]}
      />
      <Pager
        label="Pages of redirects"
        path={path}
        query={query}
        shown={redirects.length}
        pageSize={pageSize}
        nextCursor={data.nextCursor}
      />
    </div>
  );
}

function RedirectCell({ siteId, redirect }: { siteId: string; redirect: Redirect }) {
  return (
    <>
      <div className="flex flex-wrap items-center gap-2">
        <UrlLink siteId={siteId} url={redirect.url} className="font-mono text-sm" />
        {redirect.kind === 'external' ? <Badge>External</Badge> : null}
      </div>
      <RedirectHops hops={redirect.hops} label={`${redirect.hops.length - 1}-hop chain`} />
      {redirect.detail ? <p className="mt-1 text-xs text-red-800">{redirect.detail}</p> : null}
    </>
  );
}

function LinkedFrom({ siteId, redirect }: { siteId: string; redirect: Redirect }) {
  const inlinks = redirect.inlinks ?? redirect.linking_pages.length;
  const more = inlinks - redirect.linking_pages.length;
  if (inlinks === 0) {
    return (
      <span className="text-sm text-zinc-600">
        No crawled page{redirect.found_on ? `; found via ${redirect.found_on}` : ''}
      </span>
    );
  }
  return (
    <>
      <p className="text-sm font-medium text-zinc-800">
        {formatNumber(inlinks)} {inlinks === 1 ? 'page' : 'pages'}
      </p>
      <ul className="mt-1 space-y-1.5">
        {redirect.linking_pages.map((source) => (
          <li key={source.source_url} className="text-sm">
            <UrlLink siteId={siteId} url={source.source_url} />
            {source.link_text ? (
              <span className="block text-xs text-zinc-600">Link text “{source.link_text}”</span>
            ) : null}
          </li>
        ))}
      </ul>
      {more > 0 ? (
        <UrlLink siteId={siteId} url={redirect.url} className="mt-1 inline-block text-sm">
          and {formatNumber(more)} more
          <span className="sr-only"> pages linking to {redirect.url}</span>
        </UrlLink>
      ) : null}
    </>
  );
}
