import { sendEvent } from '@/jobs/runtime';
import type { FieldDataEvents } from '@/lib/fielddata/events';

/** The Performance app's events as the runner's `fielddata/sync-requested`; the id deduplicates a request. */
export const fieldDataEvents: FieldDataEvents = {
  async syncRequested(requests) {
    if (requests.length === 0) return;
    await sendEvent(
      requests.map(({ siteId, tenantId, key }) => ({
        name: 'fielddata/sync-requested' as const,
        id: `fielddata-sync:${siteId}:${key}`,
        data: { siteId, tenantId },
      })),
    );
  },
};
