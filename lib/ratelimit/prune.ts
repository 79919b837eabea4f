import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';

/** Rows deleted per statement, and statements per run: short deletes beside the requests' upserts. */
const PRUNE_BATCH = 5000;
const PRUNE_BATCHES = 20;

/**
 * Deletes the counters whose window has ended: their next hit would start again at 1 anyway, so they
 * hold nothing. A bucket hit while it is being deleted keeps its row: the outer condition is checked
 * again on the row the hit updated, whose window is now current.
 */
export async function pruneRateLimits(db: Db, now: number): Promise<{ deleted: number }> {
  let deleted = 0;
  for (let i = 0; i < PRUNE_BATCHES; i++) {
    const rows = await queryRows<{ bucket: string }>(
      db,
      sql`delete from rate_limit_counters
          where resets_at <= ${now}
            and bucket in (select bucket from rate_limit_counters where resets_at <= ${now} limit ${PRUNE_BATCH})
          returning bucket`,
    );
    deleted += rows.length;
    if (rows.length < PRUNE_BATCH) break;
  }
  return { deleted };
}
