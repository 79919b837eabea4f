import { fieldDataSyncRequested, searchSyncRequested } from '@/jobs/events';
import { createFunction } from '@/jobs/runtime';
import { getDb } from '@/lib/db/client';
import { syncFieldData } from '@/lib/fielddata/sync';
import { syncSearchAnalytics } from '@/lib/search/analytics';

/**
 * The daily syncs with Google's APIs, one site per run. Two at a time per function: the CrUX quota
 * is paced in the database (lib/fielddata/pacing), so more runs would only wait for slots.
 */
export const fieldDataSyncFunction = createFunction(
  {
    id: 'fielddata-sync',
    name: 'Sync field data (CrUX)',
    concurrency: { limit: 2 },
    retries: 3,
    triggers: [fieldDataSyncRequested],
  },
  async ({ event, step }) => step.run('sync', async () => syncFieldData(await getDb(), event.data)),
);

export const searchSyncFunction = createFunction(
  {
    id: 'search-sync',
    name: 'Sync search analytics (Search Console)',
    concurrency: { limit: 2 },
    retries: 3,
    triggers: [searchSyncRequested],
  },
  async ({ event, step }) => step.run('sync', async () => syncSearchAnalytics(await getDb(), event.data)),
);
