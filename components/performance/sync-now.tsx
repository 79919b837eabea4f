'use client';

import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef, useState, useTransition } from 'react';
import { failureAnnouncement, requestJson } from '@/components/api/client';
import type { FieldDataSyncResponse, SiteResponse } from '@/components/api/types';
import { Announcement, useAnnouncer } from '@/components/ui/announcement';
import { Button } from '@/components/ui/button';
import { usePolling } from '@/components/uptime/use-polling';

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
  const [phase, setPhase] = useState<'idle' | 'sending' | 'queued'>('idle');
  const queuedAt = useRef(0);
  const before = useRef(checkedAt);
  // The re-render after a sync fetches the page again; "up to date" is said once it has arrived.
  const [refreshing, startRefresh] = useTransition();
  const [awaitingRefresh, setAwaitingRefresh] = useState(false);

  async function sync() {
    setPhase('sending');
    try {
      await requestJson<FieldDataSyncResponse>(`/v1/sites/${siteId}/fielddata/sync`, { method: 'POST' });
      before.current = checkedAt;
      queuedAt.current = Date.now();
      setPhase('queued');
      announce('Sync queued. This page updates when it has run.');
    } catch (error) {
      setPhase('idle');
      announce(failureAnnouncement('Sync failed to start', error));
    }
  }

  const look = useCallback(async () => {
    try {
      const { site } = await requestJson<SiteResponse>(`/v1/sites/${siteId}`);
      if (site.fielddata_checked_at !== before.current) {
        setPhase('idle');
        setAwaitingRefresh(true);
        announce('Sync finished: loading the new figures…');
        startRefresh(() => router.refresh());
        return;
      }
    } catch {
      // A failed look is retried on the next tick; the wait's end below still applies.
    }
    if (Date.now() - queuedAt.current > GIVE_UP_MS) {
      setPhase('idle');
      announce(
        'The sync has not finished yet (it may be waiting for the CrUX quota). Reload the page later.',
      );
    }
  }, [siteId, router, announce]);
  usePolling(look, POLL_MS, phase === 'queued');

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
