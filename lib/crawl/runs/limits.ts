import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import type { LimitHit, RunLimit } from '@/lib/db/schema';

/**
 * The record of why a run's result is partial. Every limit that stops the crawler from doing part
 * of its work (the page cap, caps on hostile input, URLs that could not be processed) is noted on
 * the run once, so the Run resource, the reports and the dashboard can say the result is partial
 * and why, instead of reading as complete.
 */

/**
 * Notes that `limit` was hit on the run, unless it already was (the first detail is kept). Safe to
 * call from any worker, in or out of a transaction, any number of times.
 */
export async function recordLimitHit(db: Db, runId: string, limit: RunLimit, detail: string): Promise<void> {
  const entry: LimitHit = { limit, detail };
  await db.execute(
    sql`update runs set limits_hit = limits_hit || ${JSON.stringify([entry])}::jsonb
        where id = ${runId}::uuid and not limits_hit @> ${JSON.stringify([{ limit }])}::jsonb`,
  );
}
