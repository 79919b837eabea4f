import { and, asc, eq, lte, or, sql } from 'drizzle-orm';
import { billingPeriod } from '@/lib/billing/period';
import { toOverageState } from '@/lib/billing/settings';
import type { Db } from '@/lib/db/client';
import { billingSettings, type Site, sites } from '@/lib/db/schema';
import { crawlAllowanceColumns, crawlAllowanceLeft, pausedForPeriod } from '@/lib/usage/allowance';
import type { CrawlEvents } from './events';
import { startCrawl } from './run';

const MINUTE_MS = 60_000;
/** Due sites handled per tick; the rest wait for the next minute (the due index keeps them in order). */
const SITES_PER_TICK = 200;

export interface SchedulerTick {
  /** Run ids of crawls started. */
  started: string[];
  /** Sites due but paused at their allowance (their clock does not move, so they run once un-paused). */
  paused: string[];
}

/**
 * The next due time after a scheduled start: the old due time plus whole cadences, past `now`. The
 * clock keeps its phase (a site due Mondays at 02:00 stays so) and a long outage does not queue a
 * burst of catch-up crawls.
 */
export function advanceDue(dueAt: number, cadenceMinutes: number, now: number): number {
  const cadence = cadenceMinutes * MINUTE_MS;
  if (cadence <= 0) return now + MINUTE_MS;
  const periods = Math.max(1, Math.floor((now - dueAt) / cadence) + 1);
  return dueAt + periods * cadence;
}

/**
 * One scheduler tick: every enabled site that is due, has a crawl app on (Broken Links or
 * Accessibility) and is not paused at its allowance starts a crawl, and its clock advances by its
 * cadence. Manual crawls never touch the clock. A site whose crawl is already running is claimed
 * anyway: that crawl serves the due time. Started crawls are handed to `events`.
 */
export async function runSchedulerTick(db: Db, now: number, events: CrawlEvents): Promise<SchedulerTick> {
  const period = billingPeriod(now);
  const due = await db
    .select({ site: sites, ...crawlAllowanceColumns(period) })
    .from(sites)
    .leftJoin(billingSettings, eq(billingSettings.tenant_id, sites.tenant_id))
    .where(
      and(
        eq(sites.enabled, 1),
        lte(sites.next_run_at, now),
        or(eq(sites.scanner_enabled, 1), eq(sites.a11y_enabled, 1)),
      ),
    )
    .orderBy(asc(sites.next_run_at))
    .limit(SITES_PER_TICK);

  const tick: SchedulerTick = { started: [], paused: [] };
  for (const { site, overage, pauseRow, pagesCrawled } of due) {
    const allowanceRemaining = crawlAllowanceLeft(toOverageState(overage), pagesCrawled);
    const state = { pauseRow, allowanceRemaining, used: pagesCrawled };
    if (await pausedForPeriod(db, site, 'crawl', state, period, now)) {
      tick.paused.push(site.id);
      continue;
    }
    const claimed = await claim(db, site, now);
    if (!claimed) continue;
    const { started, run } = await startCrawl(db, claimed, {
      trigger: 'schedule',
      chainA11y: claimed.a11y_enabled === 1,
      now,
      allowanceRemaining,
      events,
    });
    if (started) tick.started.push(run.id);
  }
  return tick;
}

/** Moves the clock only if nobody else did since we read it: one start per due time. */
async function claim(db: Db, site: Site, now: number): Promise<Site | undefined> {
  if (site.next_run_at === null) return undefined;
  const [claimed] = await db
    .update(sites)
    .set({ next_run_at: advanceDue(site.next_run_at, site.cadence_minutes, now), last_run_at: now })
    .where(and(eq(sites.id, site.id), eq(sites.next_run_at, site.next_run_at), sql`${sites.enabled} = 1`))
    .returning();
  return claimed;
}
