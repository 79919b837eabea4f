/**
 * The routes' entry to the crawler: a manual crawl (defined here) and the read views (`views/`:
 * reports, broken targets, pages, redirects, URL detail, run history).
 */
import { and, eq, isNull } from 'drizzle-orm';
import { requirePermission } from '@/lib/auth/permissions';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { sites } from '@/lib/db/schema';
import { ConflictError } from '@/lib/errors';
import { getVisibleSite } from '@/lib/sites/access';
import { scheduleAfterManualCrawl } from '@/lib/sites/schedule';
import type { CrawlEvents } from './runs/events';
import { startCrawl } from './runs/run';
import { getLiveState, type LiveCrawlState, startedLiveState } from './views/live';

// What the routes also call, owned by the modules that hold it.
export { listBrokenTargets } from './views/broken-targets';
export { listRuns } from './views/history';
export { listCrawledUrls } from './views/pages';
export { listRedirects } from './views/redirects';
export { getBrokenLinkReport } from './views/report';
export { getSeoReport } from './views/seo-report';
export { getUrlDetail } from './views/url-detail';

/** What a manual crawl may ask for; none at all is the default full scan. */
export type TriggerCrawlInput = { chainA11y?: boolean } | undefined;

export interface TriggerCrawlResult {
  started: boolean;
  status: LiveCrawlState;
}

/**
 * A manual crawl (POST /v1/sites/{id}/crawl). The route checks visibility, then the 'crawl'
 * permission (an invisible site is 404 whatever the role); this re-checks both, then the apps. A
 * manual crawl moves the site's cadence clock only when it is the site's pending first crawl
 * (`scheduleAfterManualCrawl`).
 */
export async function triggerCrawl(
  db: Db,
  principal: Principal,
  siteId: string,
  body: TriggerCrawlInput,
  events: CrawlEvents,
  now = Date.now(),
): Promise<TriggerCrawlResult> {
  const site = await getVisibleSite(db, principal, siteId);
  requirePermission(principal, 'crawl');
  if (site.scanner_enabled !== 1 && site.a11y_enabled !== 1) {
    throw new ConflictError(
      'neither Broken Links nor Accessibility is enabled for this site: turn one on to crawl it',
    );
  }
  const chainA11y = site.a11y_enabled === 1 && (body?.chainA11y ?? true);
  const { started, run } = await startCrawl(db, site, { trigger: 'manual', chainA11y, events, now });
  const schedule = started ? scheduleAfterManualCrawl(site, now) : null;
  if (schedule) {
    // Only while the first crawl is still pending: the scheduler's claim sets last_run_at first if
    // it got there first, and then this changes nothing.
    await db
      .update(sites)
      .set(schedule)
      .where(and(eq(sites.tenant_id, site.tenant_id), eq(sites.id, site.id), isNull(sites.last_run_at)));
  }
  return {
    started,
    // Started: its first state; already running: what it is doing now.
    status: started
      ? startedLiveState(run)
      : await getLiveState(db, { tenantId: site.tenant_id, siteId: site.id }),
  };
}
