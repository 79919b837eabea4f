import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { runs } from '@/lib/db/schema';
import type { CrawlEvents } from './events';

/** A running crawl whose heartbeat is older than this has lost its worker (steps write every few seconds). */
export const STALE_CRAWL_MS = 5 * 60_000;

/**
 * Re-sends the event that continues each interrupted crawl: `crawl/finalize` for a run that was
 * finalizing, else `crawl/continue` (which seeds first if seeding never finished). The worker
 * reclaims URLs whose leases expired and waits out the rest, so resuming a run that is in fact
 * still being worked is harmless: the concurrency key on the run id queues the second worker.
 *
 * On boot every running crawl is interrupted (`staleAfterMs` 0); the scheduler's sweep only
 * resumes runs whose heartbeat went quiet. `silentSince` makes repeated sweeps of the same silence one event.
 */
export async function resumeInterruptedCrawls(
  db: Db,
  events: CrawlEvents,
  options: { now: number; staleAfterMs: number },
): Promise<string[]> {
  const cutoff = options.now - options.staleAfterMs;
  const interrupted = await db
    .select({ id: runs.id, phase: runs.phase, heartbeat: runs.heartbeat_at, startedAt: runs.started_at })
    .from(runs)
    .where(
      and(
        eq(runs.state, 'running'),
        eq(runs.kind, 'crawl'),
        sql`coalesce(${runs.heartbeat_at}, ${runs.started_at}) <= ${cutoff}`,
      ),
    );
  if (interrupted.length === 0) return [];
  await events.resumed(
    interrupted.map((run) => ({
      runId: run.id,
      step: run.phase === 'finalizing' ? 'finalize' : 'continue',
      silentSince: run.heartbeat ?? run.startedAt,
    })),
  );
  return interrupted.map((run) => run.id);
}
