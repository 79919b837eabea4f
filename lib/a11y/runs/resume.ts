import { interruptedRuns } from '@/lib/crawl/runs/resume';
import { passInProgress } from '@/lib/db/active-pass';
import type { Db } from '@/lib/db/client';
import { runs } from '@/lib/db/schema';
import type { A11yEvents } from './events';

/** A pass whose heartbeat is older than this has lost its worker (each stored page writes it). */
export const STALE_PASS_MS = 5 * 60_000;

/**
 * Re-sends the event that continues each interrupted render pass: `a11y/finalize` for a pass that
 * was finalizing, else `a11y/continue` (which seeds first if seeding never finished). Pages already
 * stored stay stored and a batch redone stores each page once, so resuming a pass that is in fact
 * still being worked is harmless (the concurrency key on the run id queues the second worker).
 * On boot every pass in progress is interrupted (`staleAfterMs` 0); the scheduler's sweep resumes
 * only passes gone quiet.
 */
export async function resumeInterruptedPasses(
  db: Db,
  events: A11yEvents,
  options: { now: number; staleAfterMs: number },
): Promise<string[]> {
  const interrupted = await interruptedRuns(db, passInProgress, runs.a11y_phase, options);
  if (interrupted.length === 0) return [];
  await events.resumed(interrupted);
  return interrupted.map((run) => run.runId);
}
