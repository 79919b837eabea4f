import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { epochMs } from './columns';

/**
 * Rate-limit counters (lib/ratelimit/counter.ts), one row per bucket ("<policy>:<subject>": an API
 * key's id, a session's id, a client address, an organization's id), counting the hits of its current
 * fixed window. The row is reused from window to window: a hit that finds it from an earlier window
 * starts the count again. Every server instance counts in the same rows, so they share the limits.
 * Rows whose window ended are pruned (lib/ratelimit/prune.ts); not tenant data, nothing else reads them.
 */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    bucket: text('bucket').primaryKey(),
    /** When the current window ends and its count starts again. */
    resets_at: epochMs('resets_at').notNull(),
    hits: integer('hits').notNull(),
  },
  (t) => [index('rate_limit_counters_resets_idx').on(t.resets_at)],
);
