'use client';

import { useEffect, useRef, useState } from 'react';
import { useResource } from '@/components/api/client';
import type { A11yLiveState, SiteStatus } from '@/components/api/types';
import { formatNumber } from '@/components/ui/format';
import { Badge } from '@/components/ui/surface';

const POLL_MS = 2000;

/**
 * Progress of a running render pass, polled from the status endpoint like the crawl panel polls
 * the crawl; nothing while no pass runs. When a pass ends, `onFinished` reloads the report.
 */
export function A11yProgress({ siteId, onFinished }: { siteId: string; onFinished: () => Promise<void> }) {
  const status = useResource<SiteStatus>(`/v1/sites/${siteId}/status`);
  const live = status.data?.a11yLive;
  const crawling = status.data !== undefined && status.data.live.state !== 'idle';
  const rendering = live?.state === 'rendering';
  const busy = rendering || crawling;
  const wasBusy = useRef(false);
  const [announcement, setAnnouncement] = useState('');
  const { reload } = status;

  // A chained pass starts when its crawl ends: poll through the crawl too, so the pass is seen.
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(() => void reload(), POLL_MS);
    return () => clearInterval(timer);
  }, [busy, reload]);

  useEffect(() => {
    if (!status.data) return;
    if (rendering && !wasBusy.current) setAnnouncement('Accessibility scan in progress.');
    if (!busy && wasBusy.current) {
      setAnnouncement('Accessibility scan finished; the report is up to date.');
      void onFinished();
    }
    wasBusy.current = busy;
  }, [busy, rendering, status.data, onFinished]);

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

function RenderProgress({ live }: { live: A11yLiveState }) {
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
