/**
 * GET /v1/sites/{id}/status: the site with what its crawler and its accessibility render pass are
 * doing now and their latest runs. It composes two domains (lib/crawl, lib/a11y), so it lives
 * above both.
 */

import { type A11yLiveState, getA11yLiveState } from '@/lib/a11y/live';
import { latestA11yRun } from '@/lib/a11y/report';
import type { Principal } from '@/lib/auth/principal';
import { getLiveState, type LiveCrawlState } from '@/lib/crawl/live';
import type { Db } from '@/lib/db/client';
import { getVisibleSite } from '@/lib/sites/access';
import { type RunResource, runResource, type SiteResource, siteResource } from '@/lib/sites/resource';
import { latestRun } from '@/lib/sites/service';

export type SiteStatus = {
  site: SiteResource;
  live: LiveCrawlState;
  a11yLive: A11yLiveState;
  /** The latest crawl run. */
  latestRun: RunResource | null;
  /** The latest run that scanned or is scanning accessibility: an `a11y` run or a chained crawl. */
  latestA11yRun: RunResource | null;
};

export async function getSiteStatus(db: Db, principal: Principal, siteId: string): Promise<SiteStatus> {
  const site = await getVisibleSite(db, principal, siteId);
  const [live, a11yLive, latestCrawl, latestA11y] = await Promise.all([
    getLiveState(db, site.tenant_id, site.id),
    getA11yLiveState(db, site.tenant_id, site.id),
    latestRun(db, site.tenant_id, site.id, 'crawl'),
    latestA11yRun(db, site),
  ]);
  return {
    site: siteResource(site),
    live,
    a11yLive,
    latestRun: latestCrawl ? runResource(latestCrawl) : null,
    latestA11yRun: latestA11y ? runResource(latestA11y) : null,
  };
}
