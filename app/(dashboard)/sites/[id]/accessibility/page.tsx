import type { Metadata } from 'next';
import { A11yReport } from '@/components/a11y/a11y-report';
import { AppOffState } from '@/components/sites/app-off-state';
import { can } from '@/lib/auth/permissions';
import { a11yScoreTrend } from '@/lib/dashboard/a11y';
import { requireDashboard } from '@/lib/dashboard/session';
import { siteForPage } from '@/lib/dashboard/site';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Accessibility · ${(await siteForPage((await params).id)).hostname}` };
}

export default async function SiteAccessibilityPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const [{ db, principal }, site] = await Promise.all([requireDashboard(), siteForPage(id)]);
  const canManage = can(principal, 'manage');
  return (
    <section aria-labelledby="a11y-title">
      <h2 id="a11y-title" className="mb-4 text-lg font-semibold text-zinc-900">
        Accessibility
      </h2>
      {site.a11y_enabled ? (
        <A11yReport
          siteId={site.id}
          canManage={canManage}
          canCrawl={can(principal, 'crawl')}
          viewerId={principal.userId}
          trend={await a11yScoreTrend(db, principal, site.id)}
        />
      ) : (
        <AppOffState
          siteId={site.id}
          canManage={canManage}
          title="The Accessibility app is off for this site"
          description="When it is on, each crawl's pages are rendered in a browser and checked against WCAG 2.2 with axe-core: a 0-100 score, an AA verdict, the issues to fix first and a coverage matrix for the criteria to check by hand."
        />
      )}
    </section>
  );
}
