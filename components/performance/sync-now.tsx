'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState, useTransition } from 'react';
import { requestJson } from '@/components/api/client';
import type { FieldDataSyncResponse, SiteResponse } from '@/components/api/types';
import { useApi } from '@/components/api/use-api';
import { useAttempt } from '@/components/api/use-attempt';
import { Announcement, useAnnouncer } from '@/components/ui/announcement';
import { Button } from '@/components/ui/button';

/** How often a queued sync is looked for, and how long before the page stops waiting for it. */
const POLL_MS = 3_000;
const GIVE_UP_MS = 3 * 60_000;

/**
 * "Sync now" (owner/admin): queues the site's field-data sync (POST .../fielddata/sync, 202), says
 * it is queued, then watches the site's `fielddata_checked_at` and re-renders the page when it
 * moves, so the new data shows without a reload. A sync that fails leaves the time where it was,
 * so the wait ends after a few minutes with a word instead of spinning forever.
 */
export function SyncNow({ siteId, checkedAt }: { siteId: string; checkedAt: number | null }) {
  const router = useRouter();
  const announcer = useAnnouncer();
  const { announce } = announcer;
  const attempt = useAttempt(announcer);
  const [phase, setPhase] = useState<'idle' | 'sending' | 'queued'>('idle');
  const queuedAt = useRef(0);
  const before = useRef(checkedAt);
  // The re-render after a sync fetches the page again; "up to date" is said once it has arrived.
  const [refreshing, startRefresh] = useTransition();
  const [awaitingRefresh, setAwaitingRefresh] = useState(false);

  async function sync() {
    setPhase('sending');
    const queued = await attempt('Sync failed to start', async () => {
      await requestJson<FieldDataSyncResponse>(`/v1/sites/${siteId}/fielddata/sync`, { method: 'POST' });
      before.current = checkedAt;
      queuedAt.current = Date.now();
      setPhase('queued');
      return 'Sync queued. This page updates when it has run.';
    });
    if (!queued) setPhase('idle');
  }

  function giveUpIfLate() {
    if (Date.now() - queuedAt.current > GIVE_UP_MS) {
      setPhase('idle');
      announce(
        'The sync has not finished yet (it may be waiting for the CrUX quota). Reload the page later.',
      );
    }
  }

  // While queued, the site is read every few seconds (while the tab is visible) until its time moves.
  useApi<SiteResponse>(phase === 'queued' ? `/v1/sites/${siteId}` : null, {
    refreshInterval: POLL_MS,
    onSuccess: ({ site }) => {
      if (site.fielddata_checked_at === before.current) return giveUpIfLate();
      setPhase('idle');
      setAwaitingRefresh(true);
      announce('Sync finished: loading the new figures…');
      startRefresh(() => router.refresh());
    },
    // A failed look is tried again on the next tick; the wait's end still applies.
    onError: giveUpIfLate,
  });

  useEffect(() => {
    if (awaitingRefresh && !refreshing) {
      setAwaitingRefresh(false);
      announce('Sync finished: the figures below are up to date.');
    }
  }, [awaitingRefresh, refreshing, announce]);

  // A newer time from elsewhere (the daily sync, another person) is the new baseline.
  useEffect(() => {
    if (phase === 'idle') before.current = checkedAt;
  }, [checkedAt, phase]);

  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button variant="secondary" size="sm" pending={phase !== 'idle'} onClick={() => void sync()}>
        {phase === 'queued' ? 'Sync queued' : 'Sync now'}
      </Button>
      <Announcement announcer={announcer} />
    </div>
  );
}
