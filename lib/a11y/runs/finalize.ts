/**
 * The pass's end: counters from the stored pages through the report's own evaluation, the run's
 * ledger row, and the allowance pause. Keyed on the run id and written by value, so a retried
 * finalize records once.
 */
import { and, eq, sql, TransactionRollbackError } from 'drizzle-orm';
import { billingPeriod } from '@/lib/billing/period';
import { loadRun } from '@/lib/crawl/runs/run';
import { queueCrawlSummary } from '@/lib/crawl/runs/summary-notification';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import { a11yPages, type Run, runs, type Site, sites, usageLedger } from '@/lib/db/schema';
import { pauseIfAllowanceUsed } from '@/lib/usage/allowance';
import { latestA11yRun } from '../report/evaluate';
import { a11yRunCounters } from '../report/run-figures';

export interface FinalizePassResult {
  run: Run;
  /** false when the pass had already been finalized (a retried or duplicated finalize). */
  finalizedNow: boolean;
  /** The allowance was reached with overage off and the notification was queued by this call. */
  allowanceNotified: boolean;
}

/**
 * Turns the stored pages into the run's counters (score, impacts, issues, pages scanned, resolved
 * since the previous scan) through the report's own evaluation, ends the pass (and a standalone
 * run: completed, or failed with its error), and writes the run's ledger row with pages_rendered:
 * a standalone run's own row, or the chained crawl's row, which its crawl finalization wrote with
 * pages_crawled. Keyed on the run id and written by value, so a retried finalize records once.
 */
export async function finalizePass(
  db: Db,
  runId: string,
  now = Date.now(),
): Promise<FinalizePassResult | null> {
  const run = await loadRun(db, runId);
  if (!run) return null;
  if (run.a11y_phase !== 'rendering' && run.a11y_phase !== 'finalizing') {
    return { run, finalizedNow: false, allowanceNotified: false };
  }
  await db
    .update(runs)
    .set({ a11y_phase: 'finalizing', heartbeat_at: now })
    .where(and(eq(runs.id, runId), eq(runs.a11y_phase, 'rendering')));
  // Pages never rendered (the pass was ended early) are not part of its result.
  await db
    .delete(a11yPages)
    .where(
      and(
        eq(a11yPages.tenant_id, run.tenant_id),
        eq(a11yPages.run_id, runId),
        eq(a11yPages.status, 'pending'),
      ),
    );

  const site = await loadSite(db, run);
  const counters = site ? await a11yRunCounters(db, site, run) : null;
  const [totals] = await queryRows<{ rendered: string | number }>(
    db,
    sql`select count(*) as rendered from a11y_pages where tenant_id = ${run.tenant_id} and run_id = ${runId}::uuid`,
  );
  const rendered = Number(totals?.rendered ?? 0);
  const standalone = run.kind === 'a11y';
  // The chained crawl's summary is only sent when something changed, this scan against the one before.
  const a11yPrevious =
    site && !standalone
      ? ((await latestA11yRun(db, site, { before: run, withResults: true })) ?? null)
      : null;

  const finished = await db
    .transaction(async (tx) => {
      const [updated] = await tx
        .update(runs)
        .set({
          // The score as finished is kept apart: a later suppression recomputes a11y_score only.
          ...(counters ? { ...counters, a11y_scan_score: counters.a11y_score } : {}),
          a11y_phase: 'done',
          heartbeat_at: now,
          ...(standalone ? { state: run.error === null ? 'completed' : 'failed', finished_at: now } : {}),
        })
        .where(and(eq(runs.id, runId), eq(runs.a11y_phase, 'finalizing')))
        .returning();
      // Another finalize committed first: leave its results untouched.
      if (!updated) tx.rollback();
      await writeLedger(tx, updated as Run, site?.hostname ?? '', rendered, now);
      // The chained crawl's summary waited for its accessibility results (lib/crawl/runs/summary-notification.ts).
      if (!standalone) await queueCrawlSummary(tx, updated as Run, site?.hostname ?? '', now, a11yPrevious);
      return updated as Run;
    })
    .catch((error: unknown) => {
      if (error instanceof TransactionRollbackError) return null;
      throw error;
    });
  if (!finished)
    return { run: (await loadRun(db, runId)) as Run, finalizedNow: false, allowanceNotified: false };

  const allowanceNotified = site ? await pauseIfAllowanceReached(db, finished, site, now) : false;
  return { run: finished, finalizedNow: true, allowanceNotified };
}

/** The run's ledger row with its pages rendered: inserted, or the chained crawl's row completed. */
export async function writeLedger(
  db: Db,
  run: Run,
  hostname: string,
  rendered: number,
  now: number,
): Promise<void> {
  await db
    .insert(usageLedger)
    .values({
      tenant_id: run.tenant_id,
      site_id: run.site_id,
      hostname,
      run_id: run.id,
      run_kind: run.kind,
      billing_period: billingPeriod(run.started_at),
      pages_rendered: rendered,
      created_at: now,
    })
    .onConflictDoUpdate({ target: usageLedger.run_id, set: { pages_rendered: rendered } });
}

/**
 * With overage off when the pass started (it carried an allowance), a month that has now used the
 * allowance pauses accessibility scans for the rest of it and queues the notification, as crawling
 * does. Overage turned on meanwhile wins (`pauseIfAllowanceUsed` reads the current setting).
 */
async function pauseIfAllowanceReached(db: Db, run: Run, site: Site, now: number): Promise<boolean> {
  if (run.a11y_pass?.allowanceRemaining == null) return false;
  return pauseIfAllowanceUsed(db, site, 'a11y', billingPeriod(run.started_at), now);
}

/** The site a run belongs to (none when it was deleted meanwhile). */
export async function loadSite(db: Db, run: Run): Promise<Site | undefined> {
  const [site] = await db
    .select()
    .from(sites)
    .where(and(eq(sites.tenant_id, run.tenant_id), eq(sites.id, run.site_id)))
    .limit(1);
  return site;
}
