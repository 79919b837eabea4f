'use client';

import { useEffect } from 'react';
import { type Resource, useResource } from '@/components/api/client';
import type { SiteStatus } from '@/components/api/types';

/** While a crawl or a render pass runs: often enough for the counters to move visibly. */
export const BUSY_POLL_MS = 2_000;
/**
 * While nothing runs, a look every half minute notices a crawl started elsewhere (the scheduler,
 * the API, another person) without a person reloading; only while the page is visible.
 */
export const IDLE_CHECK_MS = 30_000;

export type LiveSiteStatus = Resource<SiteStatus> & {
  /** A crawl of the site is running, however it started. */
  crawling: boolean;
  /** An accessibility render pass of the site is running (chained to a crawl or standalone). */
  rendering: boolean;
  /**
   * Changes whenever the site's latest crawl or accessibility run is another one or changes state
   * (null until loaded): what a page re-renders its results on. A run that started and ended
   * between two looks is never seen running, so `crawling` alone would miss it.
   */
  runsKey: string | null;
};

/** The identity and state of the status's latest runs (see LiveSiteStatus.runsKey). */
export function runsKey(status: SiteStatus): string {
  const crawl = status.latestRun;
  const a11y = status.latestA11yRun;
  return [crawl?.id, crawl?.state, a11y?.id, a11y?.state, a11y?.a11y_score].join(':');
}

/**
 * The site's status endpoint, kept current for a page that stays open: polled every 2 s while a
 * crawl or a render pass runs, then only checked every 30 s while the page is visible and at once
 * when it becomes visible again, so a scheduled or API-started crawl shows up without a reload. A
 * hidden page sends nothing while idle.
 */
export function useSiteStatus(siteId: string): LiveSiteStatus {
  const status = useResource<SiteStatus>(`/v1/sites/${siteId}/status`);
  const crawling = status.data !== undefined && status.data.live.state !== 'idle';
  const rendering = status.data?.a11yLive.state === 'rendering';
  const busy = crawling || rendering;
  const loaded = status.data !== undefined;
  const { reload } = status;

  useEffect(() => {
    if (!loaded) return;
    if (busy) {
      const timer = setInterval(() => void reload(), BUSY_POLL_MS);
      return () => clearInterval(timer);
    }
    const check = () => {
      if (document.visibilityState === 'visible') void reload();
    };
    const timer = setInterval(check, IDLE_CHECK_MS);
    document.addEventListener('visibilitychange', check);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', check);
    };
  }, [loaded, busy, reload]);

  return { ...status, crawling, rendering, runsKey: status.data ? runsKey(status.data) : null };
}
