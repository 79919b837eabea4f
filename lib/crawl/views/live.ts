import { desc } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { runningCrawlOf } from '@/lib/db/running-crawl';
import { type Run, runs } from '@/lib/db/schema';
import { frontierProgress } from '../engine/frontier';

/** The spec's live crawl state (camelCase): what a running crawl is doing right now. */
export type LiveCrawlState = {
  state: 'seeding' | 'crawling' | 'idle';
  /** null while idle: there is no run to name. */
  runId: string | null;
  pagesCrawled: number;
  linksChecked: number;
  brokenCount: number;
  /** URLs currently leased and being checked. */
  inFlight: number;
  /** URLs waiting in the frontier. */
  pending: number;
  /** Adaptive in-flight window size. */
  window: number;
};

export const IDLE_LIVE_STATE: Readonly<LiveCrawlState> = Object.freeze({
  state: 'idle',
  runId: null,
  pagesCrawled: 0,
  linksChecked: 0,
  brokenCount: 0,
  inFlight: 0,
  pending: 0,
  window: 0,
});

/**
 * A crawl's first live state, as it was created: seeding, with zero counters (the spec's "first
 * live state"). The trigger answers with this rather than reading the run again: the job may have
 * started by then (the embedded runner takes it at once), and the answer would say `crawling`, or
 * show counters, as if the crawl had started before the request.
 */
export function startedLiveState(run: Pick<Run, 'id' | 'window'>): LiveCrawlState {
  return { ...IDLE_LIVE_STATE, state: 'seeding', runId: run.id, window: run.window };
}

/**
 * The one source of a site's live crawl state (status endpoint; crawl trigger while one runs).
 * Reads the running crawl run's row (phase, window, counters moved per written batch) and its
 * frontier: `inFlight` is the URLs leased to a worker, `pending` those waiting.
 */
export async function getLiveState(
  db: Db,
  { tenantId, siteId }: { tenantId: string; siteId: string },
): Promise<LiveCrawlState> {
  const [run] = await db
    .select({
      id: runs.id,
      phase: runs.phase,
      window: runs.window,
      pagesCrawled: runs.pages_crawled,
      linksChecked: runs.links_checked,
      brokenCount: runs.broken_count,
    })
    .from(runs)
    .where(runningCrawlOf(tenantId, siteId))
    .orderBy(desc(runs.started_at))
    .limit(1);
  if (!run) return { ...IDLE_LIVE_STATE };
  const frontier = await frontierProgress(db, run.id);
  return {
    // Finalizing is still the crawl in progress from the caller's point of view.
    state: run.phase === 'seeding' ? 'seeding' : 'crawling',
    runId: run.id,
    pagesCrawled: run.pagesCrawled,
    linksChecked: run.linksChecked,
    brokenCount: run.brokenCount,
    inFlight: frontier.leased,
    pending: frontier.pending,
    window: run.window,
  };
}
