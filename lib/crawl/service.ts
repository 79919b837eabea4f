import { requirePermission } from '@/lib/auth/permissions';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { ConflictError } from '@/lib/errors';
import { getVisibleSite } from '@/lib/sites/access';
import type { CrawlEvents } from './events';
import { getLiveState, type LiveCrawlState } from './live';
import { startCrawl } from './run';

/** What a manual crawl may ask for; none at all is the default full scan. */
export type TriggerCrawlInput = { chainA11y?: boolean } | undefined;

export interface TriggerCrawlResult {
  started: boolean;
  status: LiveCrawlState;
}

/**
 * A manual crawl (POST /v1/sites/{id}/crawl). The route checks visibility, then the 'crawl'
 * permission (an invisible site is 404 whatever the role); this re-checks both, then the apps. A
 * manual crawl never moves the site's cadence clock.
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
  const { started } = await startCrawl(db, site, { trigger: 'manual', chainA11y, events, now });
  return { started, status: await getLiveState(db, site.tenant_id, site.id) };
}
