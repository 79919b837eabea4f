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
import { and, asc, eq, sql } from 'drizzle-orm';
import { compileExcludes } from '@/lib/crawl/engine/url';
import { recordLimitHit } from '@/lib/crawl/runs/limits';
import { loadRun } from '@/lib/crawl/runs/run';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import { type A11yPassSettings, a11yPages, runs, type Site, sites } from '@/lib/db/schema';
import { effectiveA11yCadence } from '@/lib/sites/schedule';
import { renderAllowanceRemaining } from '@/lib/usage/allowance';
import type { BrowserHolder } from '../engine/browser';
import { type RenderOptions, renderPages } from '../engine/render';
import { storePageScans } from '../engine/store';
import { loadSite } from './finalize';
import { NO_CRAWL_MESSAGE, NO_PAGES_MESSAGE, renderAllowanceMessage } from './start';

const MINUTE_MS = 60_000;
/** Pending rows per INSERT when seeding: 4 parameters each, far under Postgres's bound. */
const SEED_ROWS_PER_INSERT = 1000;

/**
 * Pages per batch (one bounded job step). At the default 4 pages at once and a 30 s worst case per
 * page, a batch of 16 ends within about 2 minutes even when every page hangs: inside a hosted
 * function's duration, and a crash costs at most the pages of one batch not yet stored.
 */
export const DEFAULT_PASS_BATCH = 16;

/** The source crawl's pages to render, in crawl order, without those excludePaths match now. */
async function pageSet(db: Db, sourceRunId: string, site: Site): Promise<string[]> {
  const rows = await queryRows<{ url: string }>(
    db,
    sql`select url from crawl_urls
        where run_id = ${sourceRunId}::uuid and kind = 'internal' and is_page = 1
          and status_code between 200 and 299
        order by seq`,
  );
  const isExcluded = compileExcludes(site.exclude_paths);
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

  await db.transaction(async (tx) => {
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
  render?: Omit<RenderOptions, 'browsers' | 'runKey' | 'tenantKey'>;
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
    { ...options.render, browsers: options.browsers, runKey: runId, tenantKey: run.tenant_id },
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
