import { PagesTable } from '@/components/sites/pages-table';
import { ViewProblem } from '@/components/sites/view-problem';
import { queryState, withQuery } from '@/components/ui/query-href';
import { pagesQuery } from '@/lib/api/schemas/history';
import { dashboardView, listCrawledUrls, queryFromSearch } from '@/lib/dashboard/crawl';
import type { CrawlReport, ReportBodyProps } from './report-page';

const PAGE_SIZE = 100;

/** The Pages tab's body, for the latest crawl or a past one whose URLs are still stored. */
async function PagesSection({ siteId, runId, search, path }: ReportBodyProps) {
  const query = queryState(search);
  const asked = { ...queryFromSearch(pagesQuery, search), limit: PAGE_SIZE };
  const result = await dashboardView((db, principal) =>
    listCrawledUrls(db, principal, { siteId, runId }, asked),
  );
  if (!result.ok) {
    return (
      <ViewProblem
        {...result}
        title={runId ? "This crawl's URLs are no longer stored" : 'No crawled URLs yet'}
        hint={
          runId
            ? 'Its broken-link and SEO reports are kept; the list of every URL is kept for the latest crawl only.'
            : 'The list fills as the first crawl works.'
        }
        firstPageHref={path}
      />
    );
  }
  const { cursor: _c, prev: _p, page: _n, ...rest } = query;
  return (
    <PagesTable
      siteId={siteId}
      data={result.data}
      path={path}
      query={query}
      pageSize={PAGE_SIZE}
      runId={runId}
      csvHref={withQuery(`/sites/${siteId}/pages.csv`, { ...rest, run: runId })}
    />
  );
}

export const pagesReport = {
  title: 'Pages',
  pastTitle: 'Past crawl: pages',
  tab: 'pages',
  runView: '/pages',
  loading: 'Loading the crawled URLs',
  followsCrawl: true,
  Body: PagesSection,
} satisfies CrawlReport;
