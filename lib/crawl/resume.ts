import { and, eq, sql } from 'drizzle-orm';
import type { sendEvent as SendEvent } from '@/jobs/runtime';
import type { Db } from '@/lib/db/client';
import { runs } from '@/lib/db/schema';

/** A running crawl whose heartbeat is older than this has lost its worker (steps write every few seconds). */
export const STALE_CRAWL_MS = 5 * 60_000;

/**
 * Re-sends the event that continues each interrupted crawl: `crawl/finalize` for a run that was
 * finalizing, else `crawl/continue` (which seeds first if seeding never finished). The worker
 * reclaims URLs whose leases expired and waits out the rest, so resuming a run that is in fact
 * still being worked is harmless: the concurrency key on the run id queues the second worker.
 *
 * On boot every running crawl is interrupted (`staleAfterMs` 0); the scheduler's sweep only
 * resumes runs whose heartbeat went quiet. Event ids make repeated sweeps of the same silence one event.
 */
export async function resumeInterruptedCrawls(
  db: Db,
  send: typeof SendEvent,
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
  await send(
    interrupted.map((run) => {
      const silentSince = run.heartbeat ?? run.startedAt;
      return run.phase === 'finalizing'
        ? {
            name: 'crawl/finalize' as const,
            data: { runId: run.id },
            id: `crawl-resume-finalize:${run.id}:${silentSince}`,
          }
        : {
            name: 'crawl/continue' as const,
            data: { runId: run.id },
            id: `crawl-resume:${run.id}:${silentSince}`,
          };
    }),
  );
  return interrupted.map((run) => run.id);
}
