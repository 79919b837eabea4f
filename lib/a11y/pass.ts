/**
 * The accessibility render pass as a run: seed the page set, render it in batches, finalize. Nothing
 * here knows HTTP or the job runner; jobs/functions/a11y.ts sequences these steps.
 *
 * Which run: a standalone `kind: a11y` run renders the last completed crawl's page set; a crawl
 * that chains the pass renders its own pages after its crawl is finalized. A chained crawl is
 * `completed` from its crawl's finalization on (its broken-link report shows while its pages
 * render); the pass moves on in `a11y_phase`: seeding -> rendering -> finalizing -> done. A
 * standalone run is `running` until its pass is finalized.
 *
 * Page set: the source crawl's internal HTML pages that answered 2xx (`is_page`, in crawl order),
 * without those the site's current excludePaths match, cut at the monthly rendered-pages allowance
 * when overage is off (the run's `limits_hit` then says so).
 *
 * Crash safety: seeding inserts one `pending` row per page (idempotent, in one transaction with the
 * phase change); a batch takes pending pages in URL order and each stored page turns its row into
 * its result once (store.ts), so a batch redone after a crash renders again only what was not
 * stored and duplicates nothing; finalization recomputes the counters from the stored rows and
 * writes the ledger keyed on the run id.
 */
import { and, asc, desc, eq, sql, TransactionRollbackError } from 'drizzle-orm';
import { billingPeriod } from '@/lib/billing/period';
import { config } from '@/lib/config';
import { recordLimitHit } from '@/lib/crawl/limits';
import { loadRun } from '@/lib/crawl/run';
import { queueCrawlSummary } from '@/lib/crawl/summary-notification';
import { compileExcludes } from '@/lib/crawl/url';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import { completedCrawlOf, siteRunsOf } from '@/lib/db/running-crawl';
import {
  type A11yPassSettings,
  a11yPages,
  type Run,
  runs,
  type Site,
  sites,
  usageLedger,
} from '@/lib/db/schema';
import { decodeList } from '@/lib/sites/resource';
import { effectiveA11yCadence } from '@/lib/sites/schedule';
import { pauseIfAllowanceUsed, renderAllowanceRemaining } from '@/lib/usage/allowance';
import type { BrowserHolder } from './browser';
import type { A11yEvents } from './events';
import { type RenderOptions, renderPages } from './render';
import { a11yRunCounters } from './report';
import { storePageScans } from './store';

const MINUTE_MS = 60_000;
/** Pending rows per INSERT when seeding: 4 parameters each, far under Postgres's bound. */
const SEED_ROWS_PER_INSERT = 1000;

/**
 * Pages per batch (one bounded job step). At the default 4 pages at once and a 30 s worst case per
 * page, a batch of 16 ends within about 2 minutes even when every page hangs: inside a hosted
 * function's duration, and a crash costs at most the pages of one batch not yet stored.
 */
export const DEFAULT_PASS_BATCH = 16;

export const NO_CRAWL_MESSAGE =
  'no completed crawl of the site to render yet: the accessibility scan renders the pages of the last crawl';
const NO_PAGES_MESSAGE = 'the last crawl found no HTML page that answered 2xx to render';

export function renderAllowanceMessage(): string {
  return `the monthly allowance of ${config().ALLOWANCE_PAGES_RENDERED} pages rendered is used up for this site; turn overage on to keep scanning`;
}

export interface StartA11yRunOptions {
  trigger: 'schedule' | 'manual';
  events: A11yEvents;
  now?: number;
  /** Pages the pass may still render this month (null: overage on), when the caller read it already. */
  allowanceRemaining?: number | null;
  /** The last completed crawl's id (null: none), when the caller read it already. */
  lastCrawlId?: string | null;
}

export interface StartA11yRunResult {
  /** false when a standalone run of the site was already running (`run` is it) or nothing can be rendered. */
  started: boolean;
  run: Run;
}

/** The site's last completed crawl: its frontier is the page set a standalone scan renders. */
export async function lastCompletedCrawlId(
  db: Db,
  site: Pick<Site, 'tenant_id' | 'id'>,
): Promise<string | null> {
  const [row] = await db
    .select({ id: runs.id })
    .from(runs)
    .where(completedCrawlOf(site.tenant_id, site.id))
    .orderBy(desc(runs.started_at))
    .limit(1);
  return row?.id ?? null;
}

/**
 * Creates a standalone `a11y` run and hands it to `events`. At most one runs per site (a partial
 * unique index settles simultaneous starts). With no completed crawl there is nothing to render:
 * the run is recorded at once as failed with the reason (and its empty ledger row), so the run
 * history says why the scan did not happen.
 */
export async function startA11yRun(
  db: Db,
  site: Site,
  options: StartA11yRunOptions,
): Promise<StartA11yRunResult> {
  const now = options.now ?? Date.now();
  const sourceRunId =
    options.lastCrawlId !== undefined ? options.lastCrawlId : await lastCompletedCrawlId(db, site);
  const pass: A11yPassSettings = { sourceRunId };
  if (options.allowanceRemaining !== undefined) pass.allowanceRemaining = options.allowanceRemaining;
  const base = {
    site_id: site.id,
    tenant_id: site.tenant_id,
    started_at: now,
    kind: 'a11y' as const,
    trigger: options.trigger,
    phase: 'done' as const,
    a11y_pass: pass,
    heartbeat_at: now,
  };

  if (sourceRunId === null) {
    const failed = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(runs)
        .values({ ...base, state: 'failed', finished_at: now, error: NO_CRAWL_MESSAGE, a11y_phase: 'done' })
        .returning();
      await writeLedger(tx as unknown as Db, row as Run, site.hostname, 0, now);
      return row as Run;
    });
    return { started: false, run: failed };
  }

  const [created] = await db
    .insert(runs)
    .values({ ...base, state: 'running', a11y_phase: 'seeding' })
    .onConflictDoNothing({
      target: runs.site_id,
      where: sql`${runs.state} = 'running' and ${runs.kind} = 'a11y'`,
    })
    .returning();
  if (!created) {
    const [running] = await db
      .select()
      .from(runs)
      .where(siteRunsOf(site.tenant_id, site.id, 'a11y', 'running'))
      .limit(1);
    if (!running) return startA11yRun(db, site, options);
    return { started: false, run: running };
  }
  try {
    await options.events.requested({ runId: created.id, siteId: site.id, tenantId: site.tenant_id });
  } catch (error) {
    console.error(
      `a11y run ${created.id}: could not hand it to the job runtime; the resume sweep will`,
      error,
    );
  }
  return { started: true, run: created };
}

async function loadSite(db: Db, run: Run): Promise<Site | undefined> {
  const [site] = await db
    .select()
    .from(sites)
    .where(and(eq(sites.tenant_id, run.tenant_id), eq(sites.id, run.site_id)))
    .limit(1);
  return site;
}

/** The source crawl's pages to render, in crawl order, without those excludePaths match now. */
async function pageSet(db: Db, sourceRunId: string, site: Site): Promise<string[]> {
  const rows = await queryRows<{ url: string }>(
    db,
    sql`select url from crawl_urls
        where run_id = ${sourceRunId}::uuid and kind = 'internal' and is_page = 1
          and status_code between 200 and 299
        order by seq`,
  );
  const isExcluded = compileExcludes(decodeList(site.exclude_paths));
  return rows.map((r) => r.url).filter((url) => !isExcluded(url));
}

/**
 * Seeds the pass: one pending row per page of its page set, the allowance cut recorded, the phase
 * moved to `rendering`. A chained pass also moves the site's accessibility clock one cadence on: it
 * is the site's scan, so the standalone scan does not render the same pages again soon after.
 * Idempotent: it acts only on a pass in phase `seeding`, and a repeat inserts nothing new.
 */
export async function seedPass(db: Db, runId: string, now = Date.now()): Promise<'seeded' | 'skipped'> {
  const run = await loadRun(db, runId);
  if (run?.a11y_phase !== 'seeding') return 'skipped';
  const site = await loadSite(db, run);
  const pass: A11yPassSettings = run.a11y_pass ?? { sourceRunId: run.kind === 'crawl' ? run.id : null };
  const all = site && pass.sourceRunId ? await pageSet(db, pass.sourceRunId, site) : [];
  const allowance =
    pass.allowanceRemaining !== undefined
      ? pass.allowanceRemaining
      : site
        ? await renderAllowanceRemaining(db, site, now, { excludeRunId: runId })
        : null;
  const pages = allowance === null ? all : all.slice(0, allowance);
  if (pages.length < all.length) {
    await recordLimitHit(
      db,
      runId,
      'allowance',
      `${pages.length} of ${all.length} pages rendered: ${renderAllowanceMessage()}`,
    );
  }
  // A standalone run with nothing to render fails with the reason; a chained crawl stays completed.
  const error =
    run.kind === 'a11y' && pages.length === 0
      ? all.length > 0
        ? renderAllowanceMessage()
        : pass.sourceRunId
          ? NO_PAGES_MESSAGE
          : NO_CRAWL_MESSAGE
      : null;

  await db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    for (let i = 0; i < pages.length; i += SEED_ROWS_PER_INSERT) {
      await tx
        .insert(a11yPages)
        .values(
          pages.slice(i, i + SEED_ROWS_PER_INSERT).map((url) => ({
            run_id: runId,
            tenant_id: run.tenant_id,
            page_url: url,
            status: 'pending' as const,
            created_at: now,
          })),
        )
        .onConflictDoNothing({ target: [a11yPages.run_id, a11yPages.page_url] });
    }
    const [moved] = await tx
      .update(runs)
      .set({
        a11y_phase: 'rendering',
        a11y_pass: { ...pass, allowanceRemaining: allowance },
        heartbeat_at: now,
        ...(error ? { error } : {}),
      })
      .where(and(eq(runs.id, runId), eq(runs.a11y_phase, 'seeding')))
      .returning({ id: runs.id });
    if (moved && run.kind === 'crawl' && site?.a11y_enabled === 1) {
      await tx
        .update(sites)
        .set({ a11y_next_run_at: now + effectiveA11yCadence(site) * MINUTE_MS })
        .where(and(eq(sites.tenant_id, site.tenant_id), eq(sites.id, site.id)));
    }
  });
  return 'seeded';
}

export interface BatchOptions {
  /** The worker's browser, reused across batches. */
  browsers: BrowserHolder;
  /** Pages per batch. Default `DEFAULT_PASS_BATCH`. */
  batchSize?: number;
  /** Passed to the renderer (concurrency, per-page time limit, private network for tests). */
  render?: Omit<RenderOptions, 'browsers' | 'runKey'>;
}

export type BatchOutcome =
  /** Pages are left to render: call again. */
  | { status: 'more'; rendered: number }
  /** Nothing is pending: finalize. */
  | { status: 'exhausted'; rendered: number }
  /** The pass is not rendering (not seeded yet, finalizing or done). */
  | { status: 'skipped' };

/**
 * Renders one batch of pending pages and stores each page as it finishes, so progress shows while
 * the batch runs (`a11y_pages_scanned`, the live state's `pagesRendered`) and a crash loses only the
 * pages in flight.
 */
export async function renderBatch(db: Db, runId: string, options: BatchOptions): Promise<BatchOutcome> {
  const run = await loadRun(db, runId);
  if (run?.a11y_phase !== 'rendering') return { status: 'skipped' };
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_PASS_BATCH);
  const pending = await db
    .select({ url: a11yPages.page_url })
    .from(a11yPages)
    .where(
      and(
        eq(a11yPages.tenant_id, run.tenant_id),
        eq(a11yPages.run_id, runId),
        eq(a11yPages.status, 'pending'),
      ),
    )
    .orderBy(asc(a11yPages.page_url))
    .limit(batchSize);
  if (pending.length === 0) return { status: 'exhausted', rendered: 0 };

  const target = { tenantId: run.tenant_id, runId };
  let rendered = 0;
  // The run's key keeps the worker's browser contexts warm from this batch to the run's next.
  for await (const scan of renderPages(
    pending.map((p) => p.url),
    { ...options.render, browsers: options.browsers, runKey: runId },
  )) {
    const stored = await storePageScans(db, target, [scan]);
    rendered += stored.pagesStored;
    await db
      .update(runs)
      .set({
        a11y_pages_scanned: sql`${runs.a11y_pages_scanned} + ${stored.pagesScanned}`,
        heartbeat_at: Date.now(),
      })
      .where(eq(runs.id, runId));
  }
  return { status: pending.length < batchSize ? 'exhausted' : 'more', rendered };
}

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

  const finished = await db
    .transaction(async (txn) => {
      const tx = txn as unknown as Db;
      const [updated] = await tx
        .update(runs)
        .set({
          ...(counters ?? {}),
          a11y_phase: 'done',
          heartbeat_at: now,
          ...(standalone ? { state: run.error === null ? 'completed' : 'failed', finished_at: now } : {}),
        })
        .where(and(eq(runs.id, runId), eq(runs.a11y_phase, 'finalizing')))
        .returning();
      // Another finalize committed first: leave its results untouched.
      if (!updated) txn.rollback();
      await writeLedger(tx, updated as Run, site?.hostname ?? '', rendered, now);
      // The chained crawl's summary waited for its accessibility results (lib/crawl/summary-notification.ts).
      if (!standalone) await queueCrawlSummary(tx, updated as Run, site?.hostname ?? '', now);
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
async function writeLedger(db: Db, run: Run, hostname: string, rendered: number, now: number): Promise<void> {
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
