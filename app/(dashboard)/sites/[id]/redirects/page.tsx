import type { Metadata } from 'next';
import { RedirectsTable } from '@/components/sites/redirects-table';
import { ReportSection } from '@/components/sites/report-section';
import { ViewProblem } from '@/components/sites/view-problem';
import { queryState } from '@/components/ui/query-href';
import { redirectsQuery } from '@/lib/api/schemas/crawl-views';
import { listRedirects } from '@/lib/crawl/redirects';
import { dashboardView, queryFromSearch, type SearchParams } from '@/lib/dashboard/crawl';
import { siteForPage } from '@/lib/dashboard/site';

const PAGE_SIZE = 50;

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Redirects · ${(await siteForPage((await params).id)).hostname}` };
}

export default async function SiteRedirectsPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const [site, search] = await Promise.all([siteForPage((await params).id), searchParams]);
  return (
    <ReportSection
      id="redirects-title"
      title="Redirects"
      siteId={site.id}
      search={search}
      loading="Loading the redirects"
    >
      <Redirects siteId={site.id} search={search} />
    </ReportSection>
  );
}

async function Redirects({ siteId, search }: { siteId: string; search: SearchParams }) {
  const path = `/sites/${siteId}/redirects`;
  const query = { ...queryFromSearch(redirectsQuery, search), limit: PAGE_SIZE };
  const result = await dashboardView((db, principal) =>
    listRedirects(db, principal, siteId, undefined, query),
  );
  if (!result.ok) {
    return (
      <ViewProblem
        {...result}
        title="No redirects to show yet"
        hint="Redirects appear after the first crawl."
        firstPageHref={path}
      />
    );
  }
  return (
    <RedirectsTable
      siteId={siteId}
      data={result.data}
      path={path}
      query={queryState(search)}
      pageSize={PAGE_SIZE}
    />
  );
}
