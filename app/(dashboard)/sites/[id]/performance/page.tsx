import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { FieldDataView } from '@/components/performance/field-data-view';
import { SyncNow } from '@/components/performance/sync-now';
import { AppOffState } from '@/components/sites/app-off-state';
import { ExternalLink } from '@/components/ui/external-link';
import { Alert, EmptyState } from '@/components/ui/surface';
import { can } from '@/lib/auth/permissions';
import { type PerformanceView, performanceView } from '@/lib/dashboard/fielddata';
import { requireDashboard } from '@/lib/dashboard/session';
import { siteForPage } from '@/lib/dashboard/site';
import { formatDateTime } from '@/lib/format';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Performance · ${(await siteForPage((await params).id)).hostname}` };
}

const CRUX_ABOUT = 'https://developer.chrome.com/docs/crux';
const CRUX_KEY_HELP = 'https://developer.chrome.com/docs/crux/api#APIKey';

export default async function SitePerformancePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const [{ db, principal }, site] = await Promise.all([requireDashboard(), siteForPage(id)]);
  const view = await performanceView(db, principal, site.id);
  const canManage = can(principal, 'manage');
  return (
    <section aria-labelledby="performance-title" className="space-y-6">
      <div>
        <h2 id="performance-title" className="text-lg font-semibold text-zinc-900">
          Performance
        </h2>
        <p className="mt-1 max-w-3xl text-sm text-zinc-600">
          Core Web Vitals of real Chrome visits to this site&apos;s origin, from Google&apos;s{' '}
          <ExternalLink href={CRUX_ABOUT} className="text-accent-700 underline">
            Chrome UX Report
          </ExternalLink>
          , synced daily.
        </p>
      </div>
      <PerformanceBody view={view} siteId={site.id} canManage={canManage} />
    </section>
  );
}

function PerformanceBody({
  view,
  siteId,
  canManage,
}: {
  view: PerformanceView;
  siteId: string;
  canManage: boolean;
}) {
  if (view.state === 'off') {
    return (
      <AppOffState
        siteId={siteId}
        canManage={canManage}
        title="The Performance app is off for this site"
        description="When it is on, the real-user Core Web Vitals of this site's origin are synced from Chrome's dataset every day, and a verdict that turns from pass to fail sends an alert."
      />
    );
  }
  const syncNow =
    canManage && view.configured ? (
      <SyncNow siteId={siteId} checkedAt={'checkedAt' in view ? view.checkedAt : null} />
    ) : null;
  if (view.state === 'never-synced') {
    return view.configured ? (
      <>
        {view.lastError ? <LastSyncFailed error={view.lastError} /> : null}
        <EmptyState
          title="No field data yet"
          description="The daily sync has not checked this origin yet. Data appears here after its first sync."
          action={syncNow}
        />
      </>
    ) : (
      <NotConfigured siteId={siteId} canManage={canManage} />
    );
  }
  return (
    <>
      <SyncFacts view={view} action={syncNow} />
      {view.state === 'no-data' ? (
        <EmptyState
          title="Not enough real-user data for this origin in Chrome's dataset"
          description="The Chrome UX Report only covers origins that enough Chrome users visit. The daily sync keeps checking; data appears here once the origin is in the dataset."
        />
      ) : (
        <FieldDataView reports={view.reports} />
      )}
    </>
  );
}

/** When the data was last synced, for which origin, and anything that stops it being current. */
function SyncFacts({
  view,
  action,
}: {
  view: Extract<PerformanceView, { checkedAt: number }>;
  action: ReactNode;
}) {
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-zinc-200 bg-white px-4 py-3 text-sm text-zinc-700 shadow-xs">
        <p>
          Last synced <span className="font-medium text-zinc-900">{formatDateTime(view.checkedAt)}</span>
          {view.origin ? (
            <>
              {' '}
              for <span className="font-medium break-all text-zinc-900">{view.origin}</span>
            </>
          ) : null}
        </p>
        {action}
      </div>
      {view.lastError ? <LastSyncFailed error={view.lastError} /> : null}
      {view.configured ? null : (
        <Alert tone="info" title="Field data is not configured for this installation">
          This server has no Chrome UX Report API key (CRUX_API_KEY), so nothing syncs any more: this is the
          data of the last sync.
        </Alert>
      )}
    </div>
  );
}

/**
 * The app is on (the spec's default for a new site) but the server has no CrUX key: why nothing is
 * shown, and how to change that: the operator sets the key, or an owner or admin turns the app off.
 */
function NotConfigured({ siteId, canManage }: { siteId: string; canManage: boolean }) {
  return (
    <div className="rounded-lg border border-dashed border-zinc-300 bg-white px-6 py-8">
      <h3 className="text-base font-semibold text-zinc-900">
        Field data is not configured for this installation
      </h3>
      <p className="mt-1 max-w-3xl text-sm text-zinc-600">
        The Performance app is on for this site (new sites start with it on), but this Sitewatch server has no
        Chrome UX Report API key, so no real-user data is fetched for any site and no performance alert can be
        sent. The app stays inactive until the key is set.
      </p>
      <h4 className="mt-4 text-sm font-semibold text-zinc-900">How to enable it</h4>
      <ol className="mt-1 max-w-3xl list-decimal space-y-1 pl-5 text-sm text-zinc-700">
        <li>
          Whoever runs this server creates a Google Cloud API key with the Chrome UX Report API enabled (
          <ExternalLink href={CRUX_KEY_HELP} className="text-accent-700 underline">
            how to get a CrUX API key
          </ExternalLink>
          ).
        </li>
        <li>
          They set it as <code className="rounded bg-zinc-100 px-1 text-zinc-900">CRUX_API_KEY</code> in the
          server&apos;s environment and restart or redeploy it.
        </li>
        <li>The daily sync then fills this tab; an owner or admin can also sync a site at once from here.</li>
      </ol>
      <p className="mt-4 text-sm text-zinc-600">
        {canManage ? (
          <>
            Not needed for this site?{' '}
            <Link href={`/sites/${siteId}/settings`} className="text-accent-700 underline">
              Turn the Performance app off in settings
            </Link>
            .
          </>
        ) : (
          'An owner or admin can turn the Performance app off in the site settings.'
        )}
      </p>
    </div>
  );
}

function LastSyncFailed({ error }: { error: string }) {
  return (
    <Alert tone="warning" title="The last sync attempt failed">
      <p>{error}</p>
      <p className="mt-1">What is shown is from the last sync that worked; the next one tries again.</p>
    </Alert>
  );
}
