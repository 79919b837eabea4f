import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '@/lib/db/client';
import { runs } from '@/lib/db/schema';
import type { CrawlEvents, ResumedRun } from './events';

/** A running crawl whose heartbeat is older than this has lost its worker (steps write every few seconds). */
export const STALE_CRAWL_MS = 5 * 60_000;

/**
 * The runs matching `inProgress` whose heartbeat (or start, before the first one) is at least
 * `staleAfterMs` old, each with the step that continues it: 'finalize' when its `phase` column says
 * it was finalizing. Shared by crawls and render passes, which differ only in the condition and the
 * phase column. `silentSince` makes repeated sweeps of the same silence one event.
 */
export async function interruptedRuns(
  db: Db,
  inProgress: SQL,
  phase: AnyPgColumn,
  options: { now: number; staleAfterMs: number },
): Promise<ResumedRun[]> {
  const cutoff = options.now - options.staleAfterMs;
  const rows = await db
    .select({
      id: runs.id,
      tenantId: runs.tenant_id,
      phase: sql<string | null>`${phase}`,
      heartbeat: runs.heartbeat_at,
      startedAt: runs.started_at,
    })
    .from(runs)
    .where(and(inProgress, sql`coalesce(${runs.heartbeat_at}, ${runs.started_at}) <= ${cutoff}`));
  return rows.map((run) => ({
    runId: run.id,
    tenantId: run.tenantId,
    step: run.phase === 'finalizing' ? 'finalize' : 'continue',
    silentSince: run.heartbeat ?? run.startedAt,
  }));
}

/**
 * Re-sends the event that continues each interrupted crawl: `crawl/finalize` for a run that was
 * finalizing, else `crawl/continue` (which seeds first if seeding never finished). The worker
 * reclaims URLs whose leases expired and waits out the rest, so resuming a run that is in fact
 * still being worked is harmless: the concurrency key on the run id queues the second worker.
 *
 * On boot every running crawl is interrupted (`staleAfterMs` 0); the scheduler's sweep only
 * resumes runs whose heartbeat went quiet.
 */
export async function resumeInterruptedCrawls(
  db: Db,
  events: CrawlEvents,
  options: { now: number; staleAfterMs: number },
): Promise<string[]> {
  const running = and(eq(runs.state, 'running'), eq(runs.kind, 'crawl')) as SQL;
  const interrupted = await interruptedRuns(db, running, runs.phase, options);
  if (interrupted.length === 0) return [];
  await events.resumed(interrupted);
  return interrupted.map((run) => run.runId);
}
