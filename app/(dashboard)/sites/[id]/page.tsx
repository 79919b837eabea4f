import type { Metadata } from 'next';
import { crawlReportsHref } from '@/components/sites/crawl-hrefs';
import { CrawlPanel } from '@/components/sites/crawl-panel';
import { MonthlyReportControl } from '@/components/sites/monthly-report-control';
import { RunHistory } from '@/components/sites/run-history';
import { can } from '@/lib/auth/permissions';
import { requireDashboard } from '@/lib/dashboard/session';
import { recentRuns, siteForPage } from '@/lib/dashboard/site';
import { firstReportPending, monthLabel, recentMonths } from '@/lib/reports/monthly';
import { siteResource } from '@/lib/sites/resource';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const site = await siteForPage((await params).id);
  return { title: site.hostname };
}

export default async function SiteOverviewPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { db, principal } = await requireDashboard();
  const site = await siteForPage(id);
  const runs = await recentRuns(db, principal, site.id);
  const firstReport = firstReportPending(site.created_at);
  return (
    <div className="space-y-8">
      <CrawlPanel siteId={site.id} canCrawl={can(principal, 'crawl')} canManage={can(principal, 'manage')} />
      <section aria-labelledby="history-title">
        <h2 id="history-title" className="mb-3 text-base font-semibold text-zinc-900">
          Run history
        </h2>
        <RunHistory runs={runs} site={siteResource(site)} runHref={crawlReportsHref(site.id)} />
      </section>
      <MonthlyReportControl
        siteId={site.id}
        months={recentMonths(12).map((value) => ({ value, label: monthLabel(value) }))}
        firstReport={firstReport ? monthLabel(firstReport) : undefined}
      />
    </div>
  );
}
