'use client';

import { useRef, useState } from 'react';
import type { SiteStatus } from '@/components/api/types';
import { type ApiRead, useApi } from '@/components/api/use-api';

/** While a crawl or a render pass runs: often enough for the counters to move visibly. */
export const BUSY_POLL_MS = 2_000;
/**
 * While nothing runs, a look every half minute notices a crawl started elsewhere (the scheduler,
 * the API, another person) without a person reloading; only while the page is visible.
 */
export const IDLE_CHECK_MS = 30_000;

export type LiveSiteStatus = Pick<ApiRead<SiteStatus>, 'data' | 'error' | 'mutate'> & {
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
  // Whether the last answer showed work running: it decides whether a hidden page keeps polling.
  const [busy, setBusy] = useState(false);
  const status = useApi<SiteStatus>(`/v1/sites/${siteId}/status`, {
    refreshInterval: (data) => (data && isBusy(data) ? BUSY_POLL_MS : IDLE_CHECK_MS),
    refreshWhenHidden: busy,
  });
  // A status the cache kept from an earlier visit is not shown: it could say a crawl runs that has
  // long ended, and the page would announce its end as news. The first answer read here is.
  const kept = useRef(status.data);
  const [current, setCurrent] = useState(false);
  if (!current && status.data !== undefined && (status.data !== kept.current || !status.isValidating)) {
    setCurrent(true);
  }
  const data = current ? status.data : undefined;
  const crawling = data !== undefined && data.live.state !== 'idle';
  const rendering = data?.a11yLive.state === 'rendering';
  if (busy !== (crawling || rendering)) setBusy(crawling || rendering);

  const { error, mutate } = status;
  return { data, error, mutate, crawling, rendering, runsKey: data ? runsKey(data) : null };
}

const isBusy = (status: SiteStatus) => status.live.state !== 'idle' || status.a11yLive.state === 'rendering';
