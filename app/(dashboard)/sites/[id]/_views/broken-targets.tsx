import { AppOffState } from '@/components/sites/app-off-state';
import { BrokenTargetsReport } from '@/components/sites/broken-targets-table';
import { runViewHref } from '@/components/sites/crawl-hrefs';
import { ViewProblem } from '@/components/sites/view-problem';
import { queryState, withQuery } from '@/components/ui/query-href';
import { brokenTargetsQuery } from '@/lib/api/schemas/crawl-views';
import { dashboardView, listBrokenTargets, queryFromSearch, runOfSite } from '@/lib/dashboard/crawl';
import type { CrawlReport, ReportBodyProps } from './report-page';

const PAGE_SIZE = 50;

/**
 * The Broken links tab's body, for the latest crawl or a past one (History): the grouped report as
 * the page's URL asks for it (sort, filters, page), read on the server.
 */
async function BrokenTargetsSection({ siteId, runId, search, path }: ReportBodyProps) {
  const query = queryState(search);
  const asked = { ...queryFromSearch(brokenTargetsQuery, search), limit: PAGE_SIZE };
  const result = await dashboardView(async (db, principal) => {
    const data = await listBrokenTargets(db, principal, { siteId, runId }, asked);
    const previousId = data.sincePreviousRun.previousRunId;
    const previous = previousId ? await runOfSite(db, principal, { siteId, runId: previousId }) : null;
    return { data, previous };
  });
  if (!result.ok) {
    return (
      <ViewProblem
        {...result}
        title="No broken-link report yet"
        hint="Reports appear after the first crawl with the Broken links app on."
        firstPageHref={path}
      />
    );
  }
  const { data, previous } = result.data;
  const { cursor: _c, prev: _p, page: _n, sort: _s, order: _o, ...filters } = query;
  return (
    <BrokenTargetsReport
      siteId={siteId}
      data={data}
      path={path}
      query={query}
      pageSize={PAGE_SIZE}
      runId={runId}
      csvHref={withQuery(`/sites/${siteId}/broken-links.csv`, {
        ...filters,
        sort: query.sort,
        order: query.order,
        run: runId,
      })}
      previousHref={previous ? runViewHref(siteId, previous.id) : undefined}
      previousStartedAt={previous?.started_at ?? null}
    />
  );
}

export const brokenLinksReport = {
  title: 'Broken links',
  pastTitle: 'Past crawl: broken links',
  tab: 'links',
  runView: '',
  loading: 'Loading the broken links',
  followsCrawl: true,
  off: (site, canManage) =>
    site.scanner_enabled === 1 ? null : (
      <AppOffState
        siteId={site.id}
        canManage={canManage}
        title="The Broken links app is off for this site"
        description="When it is on, each crawl checks every link on the site's pages and lists the broken ones here, the most linked first."
      />
    ),
  Body: BrokenTargetsSection,
} satisfies CrawlReport;
