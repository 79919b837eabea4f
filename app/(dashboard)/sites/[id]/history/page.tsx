import type { Metadata } from 'next';
import { crawlReportsHref, runViewHref } from '@/components/sites/crawl-hrefs';
import { CrawlTrend } from '@/components/sites/crawl-trend';
import { ReportSection } from '@/components/sites/report-section';
import { RunHistory } from '@/components/sites/run-history';
import { ViewProblem } from '@/components/sites/view-problem';
import { Pager } from '@/components/ui/pager';
import { queryState } from '@/components/ui/query-href';
import { runsQuery } from '@/lib/api/schemas/history';
import {
  crawlTrend,
  dashboardView,
  listRuns,
  queryFromSearch,
  type SearchParams,
} from '@/lib/dashboard/crawl';
import { requireDashboard } from '@/lib/dashboard/session';
import { siteForPage, siteResource } from '@/lib/dashboard/site';

const PAGE_SIZE = 20;

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `History · ${(await siteForPage((await params).id)).hostname}` };
}

/** Every run of the site, newest first, each crawl opening its reports; the trend over crawls above. */
export default async function SiteHistoryPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const [site, search, { db, principal }] = await Promise.all([
    siteForPage((await params).id),
    searchParams,
    requireDashboard(),
  ]);
  const trend = await crawlTrend(db, principal, site.id);
  return (
    <div className="space-y-8">
      <section aria-labelledby="trend-title" className="space-y-3">
        <h2 id="trend-title" className="text-lg font-semibold text-zinc-900">
          Trend
        </h2>
        <CrawlTrend
          points={trend}
          runHref={(runId) => runViewHref(site.id, runId)}
          showSeo={site.seo_enabled === 1}
        />
      </section>
      <ReportSection id="runs-title" title="Runs" siteId={site.id} search={search} loading="Loading the runs">
        <p className="text-sm text-zinc-600">
          Newest first. Open a crawl to read its broken links and SEO report as they were, with what changed
          since the crawl before it.
        </p>
        <Runs siteId={site.id} search={search} />
      </ReportSection>
    </div>
  );
}

async function Runs({ siteId, search }: { siteId: string; search: SearchParams }) {
  const site = await siteForPage(siteId);
  const path = `/sites/${siteId}/history`;
  const asked = { ...queryFromSearch(runsQuery, search), limit: PAGE_SIZE };
  const result = await dashboardView((db, principal) => listRuns(db, principal, siteId, asked));
  if (!result.ok) return <ViewProblem {...result} title="No runs" firstPageHref={path} />;
  const { runs, nextCursor } = result.data;
  return (
    <div className="space-y-3">
      <RunHistory runs={runs} site={siteResource(site)} runHref={crawlReportsHref(siteId)} />
      <Pager
        label="Pages of runs"
        path={path}
        query={queryState(search)}
        shown={runs.length}
        pageSize={PAGE_SIZE}
        nextCursor={nextCursor}
      />
    </div>
  );
}
