'use client';

import { useEffect, useRef, useState } from 'react';
import type { A11yLiveState } from '@/components/api/types';
import { useSiteStatus } from '@/components/sites/use-site-status';
import { Badge } from '@/components/ui/surface';
import { formatNumber } from '@/lib/format';

/**
 * Progress of a running render pass, from the status endpoint as the crawl panel follows the crawl
 * (useSiteStatus: polled while a crawl or pass runs, checked now and then while idle, so a scheduled
 * scan shows up); nothing while no pass runs. When a pass ends, `onFinished` reloads the report.
 */
export function A11yProgress({ siteId, onFinished }: { siteId: string; onFinished: () => Promise<void> }) {
  const status = useSiteStatus(siteId);
  const live = status.data?.a11yLive;
  const { crawling, rendering, runsKey } = status;
  // A chained pass starts when its crawl ends: the crawl counts as busy, so the pass is seen.
  const busy = rendering || crawling;
  const was = useRef<{ busy: boolean; runsKey: string } | null>(null);
  const [announcement, setAnnouncement] = useState('');

  useEffect(() => {
    if (runsKey === null) return;
    const before = was.current;
    was.current = { busy, runsKey };
    if (!before) return;
    if (rendering && !before.busy) setAnnouncement('Accessibility scan in progress.');
    // A run ended or appeared (seen running or not, a pass can start and end between two looks).
    if (!busy && (before.busy || runsKey !== before.runsKey)) {
      setAnnouncement('Accessibility scan finished; the report is up to date.');
      void onFinished();
    }
  }, [busy, rendering, runsKey, onFinished]);

  return (
    <div>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {rendering && live ? (
        <RenderProgress live={live} />
      ) : crawling ? (
        <p className="rounded-lg border border-zinc-200 bg-white px-5 py-4 text-sm text-zinc-700 shadow-xs">
          <Badge tone="info">Crawling</Badge>{' '}
          <span className="ml-1">
            A crawl is running; the accessibility scan of its pages starts when it ends.
          </span>
        </p>
      ) : null}
    </div>
  );
}

export function RenderProgress({ live }: { live: A11yLiveState }) {
  const total = Math.max(live.pagesTotal, live.pagesRendered);
  return (
    <div className="rounded-lg border border-zinc-200 bg-white px-5 py-4 shadow-xs">
      <div className="mb-3 flex items-center gap-2">
        <Badge tone="info">Scanning</Badge>
        <span className="text-sm text-zinc-600">Updates every few seconds.</span>
      </div>
      <label htmlFor="a11y-progress" className="text-sm font-medium text-zinc-800">
        Pages rendered: {formatNumber(live.pagesRendered)} of {formatNumber(total)}
      </label>
      <progress
        id="a11y-progress"
        max={Math.max(total, 1)}
        value={live.pagesRendered}
        className="mt-2 h-2 w-full overflow-hidden rounded-full [&::-moz-progress-bar]:bg-accent-600 [&::-webkit-progress-bar]:bg-zinc-200 [&::-webkit-progress-value]:bg-accent-600"
      />
    </div>
  );
}
