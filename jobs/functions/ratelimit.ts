import { createFunction } from '@/jobs/runtime';
import { getDb } from '@/lib/db/client';
import { pruneRateLimits } from '@/lib/ratelimit/prune';

/**
 * Every five minutes: the API's rate-limit counters whose window has ended go (lib/ratelimit/prune.ts).
 * Rows are one per client address, key, session or organization seen in a window, so a flood from
 * many addresses is cleared within minutes; a run with nothing to delete is one indexed query.
 */
export const rateLimitPruneFunction = createFunction(
  {
    id: 'rate-limit-prune',
    name: 'Prune ended rate-limit windows',
    retries: 2,
    triggers: [{ cron: '*/5 * * * *' }],
  },
  async ({ event, step }) => {
    const now = typeof event.ts === 'number' ? event.ts : Date.now();
    return step.run('prune', async () => pruneRateLimits(await getDb(), now));
  },
);
