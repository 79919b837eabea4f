import { and, asc, desc, eq, exists, lte, sql } from 'drizzle-orm';
import { billingPeriod } from '@/lib/billing/period';
import { toOverageState } from '@/lib/billing/settings';
import { advanceDue } from '@/lib/crawl/runs/scheduler';
import { activePassOf } from '@/lib/db/active-pass';
import type { Db } from '@/lib/db/client';
import { completedCrawlOf } from '@/lib/db/running-crawl';
import { billingSettings, runs, type Site, sites } from '@/lib/db/schema';
import { effectiveA11yCadence } from '@/lib/sites/schedule';
import { pausedForPeriod, renderAllowanceColumns, renderAllowanceLeft } from '@/lib/usage/allowance';
import type { A11yEvents } from './events';
import { startA11yRun } from './start';

/** Due sites handled per tick; the rest wait for the next minute (the due index keeps them in order). */
const SITES_PER_TICK = 200;

export interface A11ySchedulerTick {
  /** Run ids of standalone scans started. */
  started: string[];
  /** Sites due but paused at their rendered-pages allowance (their clock does not move). */
  paused: string[];
  /** Sites due while a pass of theirs was rendering: that pass serves the due time. */
  busy: string[];
  /** Sites due with no completed crawl to render: a failed run records why, and the clock moves. */
  noCrawl: string[];
}

/**
 * One tick of the accessibility clock: every site with the app on whose `a11y_next_run_at` is due
 * starts a standalone `a11y` run over its last completed crawl's pages, and its clock advances by
 * `a11y_cadence_minutes` (falling back to the crawl cadence). Not when the app is paused for the
 * month at its allowance (overage off; the clock stays so the scan runs once un-paused), and not
 * when a pass of the site is already rendering (a chained crawl's or a standalone one: it serves
 * the due time). A chained pass moves the clock itself when it starts (pass.ts), so a site is not
 * rendered twice in a row. One read for every due site (pause state, overage, month's usage, busy
 * pass, last crawl); per started site its clock claim and its run.
 */
export async function runA11ySchedulerTick(
  db: Db,
  now: number,
  events: A11yEvents,
): Promise<A11ySchedulerTick> {
  const period = billingPeriod(now);
  const lastCrawl = db
    .select({ id: runs.id })
    .from(runs)
    .where(completedCrawlOf(sites.tenant_id, sites.id))
    .orderBy(desc(runs.started_at))
    .limit(1);
  const due = await db
    .select({
      site: sites,
      ...renderAllowanceColumns(period),
      busy: sql<boolean>`${exists(db.select({ one: sql`1` }).from(runs).where(activePassOf(sites.tenant_id, sites.id)))}`,
      lastCrawlId: sql<string | null>`(${lastCrawl})`,
    })
    .from(sites)
    .leftJoin(billingSettings, eq(billingSettings.tenant_id, sites.tenant_id))
    .where(and(eq(sites.a11y_enabled, 1), eq(sites.enabled, 1), lte(sites.a11y_next_run_at, now)))
    .orderBy(asc(sites.a11y_next_run_at))
    .limit(SITES_PER_TICK);

  const tick: A11ySchedulerTick = { started: [], paused: [], busy: [], noCrawl: [] };
  for (const { site, overage, pauseRow, pagesRendered, busy, lastCrawlId } of due) {
    const allowanceRemaining = renderAllowanceLeft(toOverageState(overage), Number(pagesRendered));
    const state = { pauseRow, allowanceRemaining, used: Number(pagesRendered) };
    if (await pausedForPeriod(db, site, 'a11y', state, period, now)) {
      tick.paused.push(site.id);
      continue;
    }
    const claimed = await claim(db, site, now);
    if (!claimed) continue;
    if (busy) {
      tick.busy.push(site.id);
      continue;
    }
    const { started, run } = await startA11yRun(db, claimed, {
      trigger: 'schedule',
      now,
      allowanceRemaining,
      lastCrawlId: lastCrawlId ?? null,
      events,
    });
    if (started) tick.started.push(run.id);
    else if (lastCrawlId === null) tick.noCrawl.push(site.id);
  }
  return tick;
}

/** Moves the accessibility clock only if nobody else did since we read it: one start per due time. */
async function claim(db: Db, site: Site, now: number): Promise<Site | undefined> {
  if (site.a11y_next_run_at === null) return undefined;
  const [claimed] = await db
    .update(sites)
    .set({ a11y_next_run_at: advanceDue(site.a11y_next_run_at, effectiveA11yCadence(site), now) })
    .where(
      and(
        eq(sites.id, site.id),
        eq(sites.a11y_next_run_at, site.a11y_next_run_at),
        sql`${sites.a11y_enabled} = 1`,
      ),
    )
    .returning();
  return claimed;
}
