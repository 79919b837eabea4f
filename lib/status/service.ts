/**
 * GET /v1/sites/{id}/status: the site with what its crawler and its accessibility render pass are
 * doing now and their latest runs. It composes two domains (lib/crawl, lib/a11y), so it lives
 * above both.
 */

import { latestA11yRun } from '@/lib/a11y/report/evaluate';
import { type A11yLiveState, getA11yLiveState } from '@/lib/a11y/runs/live';
import type { Principal } from '@/lib/auth/principal';
import { getLiveState, type LiveCrawlState } from '@/lib/crawl/views/live';
import type { Db } from '@/lib/db/client';
import { readSnapshot } from '@/lib/db/snapshot';
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
  // One snapshot (issue 24 item 5): read in parallel on separate pooled connections, the live
  // counters could come from before a batch or the run's end and the latest run from after it, so
  // the panel showed "0 of 1 found so far" above the finished run's history row. In order, in one
  // repeatable-read transaction, the live state and the runs are the same moment's.
  return readSnapshot(db, async (tx) => {
    const site = await getVisibleSite(tx, principal, siteId);
    const live = await getLiveState(tx, { tenantId: site.tenant_id, siteId: site.id });
    const a11yLive = await getA11yLiveState(tx, { tenantId: site.tenant_id, siteId: site.id });
    const latestCrawl = await latestRun(tx, { tenantId: site.tenant_id, siteId: site.id }, 'crawl');
    const latestA11y = await latestA11yRun(tx, site);
    return {
      site: siteResource(site),
      live,
      a11yLive,
      latestRun: latestCrawl ? runResource(latestCrawl) : null,
      latestA11yRun: latestA11y ? runResource(latestA11y) : null,
    };
  });
}
