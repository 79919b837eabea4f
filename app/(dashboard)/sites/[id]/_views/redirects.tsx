import { RedirectsTable } from '@/components/sites/redirects-table';
import { ViewProblem } from '@/components/sites/view-problem';
import { queryState } from '@/components/ui/query-href';
import { redirectsQuery } from '@/lib/api/schemas/crawl-views';
import { dashboardView, listRedirects, queryFromSearch } from '@/lib/dashboard/crawl';
import type { CrawlReport, ReportBodyProps } from './report-page';

const PAGE_SIZE = 50;

/** The Redirects tab's body: the latest crawl's redirects as the page's URL asks for them. */
async function Redirects({ siteId, runId, search, path }: ReportBodyProps) {
  const query = { ...queryFromSearch(redirectsQuery, search), limit: PAGE_SIZE };
  const result = await dashboardView((db, principal) =>
    listRedirects(db, principal, { siteId, runId }, query),
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

/** The latest crawl's only: History shows a past crawl's broken links, SEO and pages. */
export const redirectsReport = {
  title: 'Redirects',
  pastTitle: 'Past crawl: redirects',
  tab: 'redirects',
  loading: 'Loading the redirects',
  followsCrawl: true,
  Body: Redirects,
} satisfies CrawlReport;
