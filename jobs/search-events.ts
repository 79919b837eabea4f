import { sendEvent } from '@/jobs/runtime';
import type { SearchEvents } from '@/lib/search/events';

/** The search connection's events as the runner's `search/sync-requested`, one per claimed due time. */
export const searchEvents: SearchEvents = {
  async syncRequested(requests) {
    if (requests.length === 0) return;
    await sendEvent(
      requests.map(({ siteId, tenantId, dueAt }) => ({
        name: 'search/sync-requested' as const,
        id: `search-sync:${siteId}:${dueAt}`,
        data: { siteId, tenantId },
      })),
    );
  },
};
