import type { Metadata } from 'next';
import { CallbackOutcome } from '@/components/search/callback-outcome';
import { SearchPanel } from '@/components/search/search-panel';
import { AppOffState } from '@/components/sites/app-off-state';
import { can } from '@/lib/auth/permissions';
import { searchTabDays, searchTabView } from '@/lib/dashboard/search';
import { requireDashboard } from '@/lib/dashboard/session';
import { siteForPage } from '@/lib/dashboard/site';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Search · ${(await siteForPage((await params).id)).hostname}` };
}

type Query = { connected?: string | string[]; error?: string | string[]; days?: string | string[] };

/** The callback's redirect (lib/search/connection searchPagePath): how the Google sign-in ended. */
function outcomeOf(query: Query) {
  if (query.connected === '1') return { connected: true as const };
  if (typeof query.error === 'string') return { error: query.error.slice(0, 100) };
  return null;
}

export default async function SiteSearchPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Query>;
}) {
  const [{ id }, query] = await Promise.all([params, searchParams]);
  const [{ db, principal }, site] = await Promise.all([requireDashboard(), siteForPage(id)]);
  const canManage = can(principal, 'admin');
  const days = searchTabDays(query.days);
  const view = await searchTabView(db, principal, site.id, days);
  const outcome = outcomeOf(query);
  return (
    <section aria-labelledby="search-title" className="space-y-6">
      <h2 id="search-title" className="text-lg font-semibold text-zinc-900">
        Search
      </h2>
      {outcome ? (
        <CallbackOutcome
          outcome={outcome}
          accountEmail={view.connection.accountEmail}
          choosing={view.connection.status === 'pending-property'}
        />
      ) : null}
      {view.seoEnabled ? (
        <SearchPanel
          siteId={site.id}
          connection={view.connection}
          analytics={view.analytics}
          days={days}
          canManage={canManage}
        />
      ) : (
        <AppOffState
          siteId={site.id}
          canManage={canManage}
          title="The SEO app is off for this site"
          description="The search connection belongs to the SEO app. With it on, the site can be connected to its Google Search Console account: clicks and impressions per day, and an alert when clicks fall off."
        />
      )}
    </section>
  );
}
