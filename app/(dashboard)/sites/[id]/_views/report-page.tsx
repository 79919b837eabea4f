import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { runViewHref } from '@/components/sites/crawl-hrefs';
import { ReportSection } from '@/components/sites/report-section';
import { can } from '@/lib/auth/permissions';
import type { SearchParams } from '@/lib/dashboard/crawl';
import { requireDashboard } from '@/lib/dashboard/session';
import { siteForPage } from '@/lib/dashboard/site';
import type { Site } from '@/lib/db/schema';

/** Where a report's body is shown: the crawl (none: the latest), the page's query and its own path. */
export type ReportBodyProps = { siteId: string; runId?: string; search: SearchParams; path: string };

/**
 * One crawl report, shown both as a site tab (the latest crawl) and under History (a past crawl):
 * the two routes differ only in which run they read, so each is made here from this description.
 */
export type CrawlReport = {
  /** The heading, and the tab's page title ("Pages · example.com"). */
  title: string;
  /** A past crawl's page title, before the hostname ("Past crawl: pages"). */
  pastTitle: string;
  /** The tab under the site (`/sites/<id>/pages`); also names the headings' ids. */
  tab: 'links' | 'pages' | 'redirects' | 'seo';
  /** The sub-page under a past crawl; none: the report has no past view. */
  runView?: '' | '/seo' | '/pages';
  /** The skeleton's label while the report is read ("Loading the crawled URLs"). */
  loading: string;
  /** Whether the latest crawl's tab follows a running crawl and re-renders when it ends. */
  followsCrawl: boolean;
  /** The latest crawl's tab only: what shows instead of the report while its app is off (null: on). */
  off?: (site: Site, canManage: boolean) => ReactNode;
  Body: (props: ReportBodyProps) => ReactNode | Promise<ReactNode>;
};

type SiteParams = Promise<{ id: string }>;
type RunParams = Promise<{ id: string; runId: string }>;

/** The site tab of `report`: the latest crawl's. */
export function latestReportPage(report: CrawlReport) {
  const { Body } = report;
  return {
    async generateMetadata({ params }: { params: SiteParams }): Promise<Metadata> {
      return { title: `${report.title} · ${(await siteForPage((await params).id)).hostname}` };
    },
    async Page({ params, searchParams }: { params: SiteParams; searchParams: Promise<SearchParams> }) {
      const [site, search, { principal }] = await Promise.all([
        siteForPage((await params).id),
        searchParams,
        requireDashboard(),
      ]);
      const off = report.off?.(site, can(principal, 'manage')) ?? null;
      return (
        <ReportSection
          id={`${report.tab}-title`}
          title={report.title}
          siteId={report.followsCrawl && off === null ? site.id : undefined}
          search={search}
          loading={report.loading}
        >
          {off ?? <Body siteId={site.id} search={search} path={`/sites/${site.id}/${report.tab}`} />}
        </ReportSection>
      );
    },
  };
}

/** The History sub-page of `report`: a past crawl's, under its run's header and tabs. */
export function pastReportPage(report: CrawlReport & { runView: NonNullable<CrawlReport['runView']> }) {
  const { Body } = report;
  return {
    async generateMetadata({ params }: { params: SiteParams }): Promise<Metadata> {
      return { title: `${report.pastTitle} · ${(await siteForPage((await params).id)).hostname}` };
    },
    async Page({ params, searchParams }: { params: RunParams; searchParams: Promise<SearchParams> }) {
      const [{ id, runId }, search] = await Promise.all([params, searchParams]);
      const site = await siteForPage(id);
      return (
        <ReportSection
          id={`run-${report.tab}-title`}
          title={report.title}
          level={3}
          search={search}
          loading={report.loading}
        >
          <Body
            siteId={site.id}
            runId={runId}
            search={search}
            path={runViewHref(site.id, runId, report.runView)}
          />
        </ReportSection>
      );
    },
  };
}
