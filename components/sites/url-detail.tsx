import type { UrlDetails } from '@/components/api/types';
import { ExternalLink } from '@/components/ui/external-link';
import { Pager } from '@/components/ui/pager';
import type { QueryState } from '@/components/ui/query-href';
import { type Column, ResponsiveTable } from '@/components/ui/responsive-table';
import { Badge, EmptyState, Stat } from '@/components/ui/surface';
import { formatDateTime, formatNumber } from '@/lib/format';
import { RedirectHops } from './redirect-hops';
import { StatusBadge } from './status-badge';
import { UrlLink } from './url-link';

const impactTone = { critical: 'danger', serious: 'danger', moderate: 'warning', minor: 'neutral' } as const;

/**
 * One crawled URL: what it answered, its SEO issues, the pages linking to it (anchor text and
 * selector, paged) and the links on it with what became of each. Every URL named links to its own
 * view, so the crawl can be walked from page to page.
 */
export function UrlDetailView({
  siteId,
  data,
  path,
  query,
  pageSize,
  runId,
}: {
  siteId: string;
  data: UrlDetails;
  path: string;
  query: QueryState;
  pageSize: number;
  runId?: string;
}) {
  const { page, run, hops, inlinks, outlinks, seoIssues } = data;
  const parsed = page.outlinks !== null;
  const brokenOut = outlinks.filter((o) => o.verdict === 'broken' || o.verdict === 'error').length;
  return (
    <div className="space-y-8">
      <div>
        <p className="font-mono text-sm break-all text-zinc-900">{page.url}</p>
        {page.title ? <p className="mt-1 text-sm text-zinc-700">Title: {page.title}</p> : null}
        <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
          <ExternalLink href={page.url} className="text-accent-700 hover:underline">
            Open the URL
          </ExternalLink>
          {page.found_on ? (
            <span className="text-zinc-600">
              First found on <UrlLink siteId={siteId} url={page.found_on} runId={runId} />
            </span>
          ) : null}
        </p>
        <p className="mt-1 text-xs text-zinc-600">From the crawl started {formatDateTime(run.started_at)}.</p>
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
        <Stat
          label="Status"
          value={<StatusBadge code={page.status_code} verdict={page.verdict} />}
          hint={page.detail ?? undefined}
        />
        <Stat label="Content type" value={<span className="text-base">{page.content_type ?? '—'}</span>} />
        <Stat label="Depth" value={formatNumber(page.depth)} />
        <Stat label="Inlinks" value={page.inlinks === null ? '—' : formatNumber(page.inlinks)} />
        <Stat label="Outlinks" value={page.outlinks === null ? '—' : formatNumber(page.outlinks)} />
        <Stat
          label="Response"
          value={page.response_ms === null ? '—' : `${formatNumber(page.response_ms)} ms`}
        />
      </dl>
      {hops.length > 1 ? (
        <section aria-labelledby="url-redirect-title">
          <h3 id="url-redirect-title" className="mb-2 text-base font-semibold text-zinc-900">
            Redirect chain
          </h3>
          <RedirectHops hops={hops} label={`${hops.length - 1}-hop chain, the final answer last`} />
        </section>
      ) : null}

      <section aria-labelledby="url-seo-title">
        <h3 id="url-seo-title" className="mb-2 text-base font-semibold text-zinc-900">
          SEO issues
        </h3>
        {seoIssues.length === 0 ? (
          <p className="text-sm text-zinc-600">
            {page.is_page === 1
              ? 'None: the page passed every on-page check (or the SEO app was off for this crawl).'
              : 'None: SEO checks apply to crawled pages only.'}
          </p>
        ) : (
          <ResponsiveTable
            caption="SEO issues on this page, most severe first"
            rows={seoIssues}
            rowKey={(issue) => issue.check}
            title={{
              key: 'check',
              header: 'Check',
              cell: (issue) => <span className="font-medium text-zinc-900">{issue.title}</span>,
            }}
            columns={[
              {
                key: 'impact',
                header: 'Impact',
                cell: (issue) => <Badge tone={impactTone[issue.impact]}>{issue.impact}</Badge>,
              },
              { key: 'detail', header: 'Detail', cell: (issue) => issue.detail },
            ]}
          />
        )}
      </section>

      <section aria-labelledby="url-inlinks-title" className="space-y-3">
        <h3 id="url-inlinks-title" className="text-base font-semibold text-zinc-900">
          Inlinks: pages linking here ({formatNumber(page.inlinks ?? inlinks.length)})
        </h3>
        {inlinks.length === 0 ? (
          <p className="text-sm text-zinc-600">
            No crawled page links here
            {page.found_on ? ' (it was reached through a redirect, a sitemap or robots.txt)' : ''}.
          </p>
        ) : (
          <>
            <ResponsiveTable
              caption="Pages linking to this URL, with the link's text and element"
              rows={inlinks}
              rowKey={(link) => link.source_url}
              title={{
                key: 'page',
                header: 'Linking page',
                className: 'min-w-56 max-w-md',
                cell: (link) => <UrlLink siteId={siteId} url={link.source_url} runId={runId} />,
              }}
              columns={linkColumns()}
            />
            <Pager
              label="Pages of inlinks"
              path={path}
              query={query}
              shown={inlinks.length}
              pageSize={pageSize}
              nextCursor={data.inlinksNextCursor}
              total={page.inlinks ?? undefined}
              param="inlinksCursor"
              noun={['linking page', 'linking pages']}
            />
          </>
        )}
      </section>

      <section aria-labelledby="url-outlinks-title" className="space-y-3">
        <h3 id="url-outlinks-title" className="text-base font-semibold text-zinc-900">
          Outlinks: links on this page ({formatNumber(outlinks.length)}
          {brokenOut > 0 ? `, ${formatNumber(brokenOut)} broken` : ''})
        </h3>
        {!parsed ? (
          <EmptyState
            title="Not parsed as a page"
            description="Only internal HTML pages that answered are parsed for links; this URL was checked, not read."
          />
        ) : outlinks.length === 0 ? (
          <p className="text-sm text-zinc-600">The page has no links.</p>
        ) : (
          <ResponsiveTable
            caption="Links on this page in document order, with each target's status"
            rows={outlinks.map((link, position) => ({ ...link, position }))}
            rowKey={(link) => String(link.position)}
            title={{
              key: 'target',
              header: 'Target',
              className: 'min-w-56 max-w-md',
              cell: (link) => (
                <>
                  {link.kind ? (
                    <UrlLink siteId={siteId} url={link.target_url} runId={runId} />
                  ) : (
                    <span className="break-all">{link.target_url}</span>
                  )}
                  {link.kind === 'external' ? (
                    <span className="ml-1 text-xs text-zinc-600">(external)</span>
                  ) : null}
                </>
              ),
            }}
            columns={[
              {
                key: 'status',
                header: 'Status',
                className: 'whitespace-nowrap',
                cell: (link) =>
                  link.kind ? (
                    <StatusBadge
                      code={link.status_code}
                      verdict={link.verdict}
                      after={
                        link.final_status_code !== null && link.final_status_code !== link.status_code
                          ? ` → ${link.final_status_code}`
                          : ''
                      }
                    />
                  ) : (
                    <span className="text-xs text-zinc-600">Not crawled</span>
                  ),
              },
              ...linkColumns(),
            ]}
          />
        )}
      </section>
    </div>
  );
}

/** The attributes an inlink and an outlink share (their schema's, not a copy). */
type LinkAttributes = Pick<UrlDetails['inlinks'][number], 'link_text' | 'link_selector'>;

/** The link's own columns, the same in both directions: its text and the element it sits in. */
function linkColumns<T extends LinkAttributes>(): Column<T>[] {
  return [
    {
      key: 'text',
      header: 'Link text',
      className: 'min-w-32',
      cell: (link) => link.link_text || <span className="text-zinc-600">(no text)</span>,
    },
    {
      key: 'selector',
      header: 'Element (CSS selector)',
      className: 'min-w-48',
      cell: (link) => <span className="font-mono text-xs break-all">{link.link_selector ?? '—'}</span>,
    },
  ];
}
