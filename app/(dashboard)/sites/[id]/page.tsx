import type { Metadata } from 'next';
import { crawlReportsHref } from '@/components/sites/crawl-hrefs';
import { CrawlPanel } from '@/components/sites/crawl-panel';
import { MonthlyReportControl } from '@/components/sites/monthly-report-control';
import { RunHistory } from '@/components/sites/run-history';
import { can } from '@/lib/auth/permissions';
import { requireDashboard } from '@/lib/dashboard/session';
import {
  defaultReportMonth,
  recentRuns,
  reportMonthChoices,
  siteForPage,
  siteResource,
} from '@/lib/dashboard/site';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const site = await siteForPage((await params).id);
  return { title: site.hostname };
}

export default async function SiteOverviewPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { db, principal } = await requireDashboard();
  const site = await siteForPage(id);
  const runs = await recentRuns(db, principal, site.id);
  const months = reportMonthChoices(site.created_at);
  return (
    <div className="space-y-8">
      <CrawlPanel siteId={site.id} canCrawl={can(principal, 'crawl')} canManage={can(principal, 'manage')} />
      <section aria-labelledby="history-title">
        <h2 id="history-title" className="mb-3 text-base font-semibold text-zinc-900">
          Run history
        </h2>
        <RunHistory runs={runs} site={siteResource(site)} runHref={crawlReportsHref(site.id)} />
      </section>
      <MonthlyReportControl siteId={site.id} months={months} defaultMonth={defaultReportMonth(months)} />
    </div>
  );
}
