import type { Metadata } from 'next';
import Link from 'next/link';
import { ReportSection } from '@/components/sites/report-section';
import { UrlDetailView } from '@/components/sites/url-detail';
import { ViewProblem } from '@/components/sites/view-problem';
import { queryState, withQuery } from '@/components/ui/query-href';
import { EmptyState } from '@/components/ui/surface';
import { urlDetailsQuery } from '@/lib/api/schemas/crawl-views';
import {
  dashboardView,
  getUrlDetail,
  queryFromSearch,
  runIdFromSearch,
  type SearchParams,
} from '@/lib/dashboard/crawl';
import { siteForPage } from '@/lib/dashboard/site';

const PAGE_SIZE = 100;

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `URL details · ${(await siteForPage((await params).id)).hostname}` };
}

/** One crawled URL (`?url=`, and `?run=` for a past crawl whose URLs are still stored). */
export default async function UrlDetailPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const [site, search] = await Promise.all([siteForPage((await params).id), searchParams]);
  const runId = runIdFromSearch(search);
  const pagesHref = runId ? `/sites/${site.id}/history/${runId}/pages` : `/sites/${site.id}/pages`;
  return (
    <ReportSection
      id="url-title"
      title="URL details"
      search={search}
      loading="Loading the URL's details"
      before={
        <p className="text-sm">
          <Link href={pagesHref} className="text-zinc-600 hover:text-zinc-900 hover:underline">
            ← All crawled URLs
          </Link>
        </p>
      }
    >
      <Detail siteId={site.id} runId={runId} search={search} />
    </ReportSection>
  );
}

async function Detail({ siteId, runId, search }: { siteId: string; runId?: string; search: SearchParams }) {
  const query = queryFromSearch(urlDetailsQuery, search);
  const url = query.url;
  if (!url) {
    return (
      <EmptyState
        title="No URL chosen"
        description="Open a URL from the Pages, Broken links or Redirects tab to see its links and issues."
      />
    );
  }
  const path = `/sites/${siteId}/pages/detail`;
  const result = await dashboardView((db, principal) =>
    getUrlDetail(db, principal, { siteId, runId }, { ...query, url, inlinksLimit: PAGE_SIZE }),
  );
  if (!result.ok) {
    return (
      <ViewProblem
        {...result}
        title="Nothing stored for this URL"
        hint="The crawl keeps every URL of its latest run; search the Pages tab for it."
        firstPageHref={withQuery(path, { url, run: runId })}
      />
    );
  }
  return (
    <UrlDetailView
      siteId={siteId}
      data={result.data}
      path={path}
      query={queryState(search)}
      pageSize={PAGE_SIZE}
      runId={runId}
    />
  );
}
