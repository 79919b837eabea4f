/**
 * Starting a standalone accessibility run: a `kind: a11y` run renders the last completed crawl's
 * page set, at most one runs per site, and with no completed crawl the run is recorded at once as
 * failed with the reason. The pass then goes through `pass.ts` (seed, batches) and `finalize.ts`.
 */
import { desc, sql } from 'drizzle-orm';
import { config } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { completedCrawlOf, siteRunsOf } from '@/lib/db/running-crawl';
import { type A11yPassSettings, type Run, runs, type Site } from '@/lib/db/schema';
import type { A11yEvents } from './events';
import { writeLedger } from './finalize';

export const NO_CRAWL_MESSAGE =
  'no completed crawl of the site to render yet: the accessibility scan renders the pages of the last crawl';
export const NO_PAGES_MESSAGE = 'the last crawl found no HTML page that answered 2xx to render';

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
      await writeLedger(tx, row as Run, site.hostname, 0, now);
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
