import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { runningCrawlOf } from '@/lib/db/running-crawl';
import { type Run, type RunSettings, runs, type Site } from '@/lib/db/schema';
import { crawlAllowanceRemaining } from '@/lib/usage/allowance';
import type { CrawlEvents } from './events';

export type CrawlTrigger = 'schedule' | 'manual';

export interface StartCrawlOptions {
  trigger: CrawlTrigger;
  /** Chain the accessibility render pass after the crawl (only meaningful with the app on). */
  chainA11y: boolean;
  /** Where the new run is handed over to be worked. */
  events: CrawlEvents;
  now?: number;
  /**
   * The site's crawl allowance left this month (null: no cap, overage on), when the caller has read
   * it already: the scheduler reads it for all due sites in one query. Read here when absent.
   */
  allowanceRemaining?: number | null;
}

export interface StartCrawlResult {
  /** false when a crawl of the site was already running: `run` is that crawl. */
  started: boolean;
  run: Run;
}

/** The rules a run is judged by, captured when it starts: later site edits do not move a crawl. */
export async function captureSettings(
  db: Db,
  site: Site,
  now: number,
  allowanceRemaining?: number | null,
): Promise<RunSettings> {
  return {
    rootUrl: site.root_url,
    hostname: site.hostname,
    maxPages: site.max_pages,
    maxConcurrency: site.max_concurrency,
    excludePaths: site.exclude_paths,
    stripParams: site.strip_params,
    seoEnabled: site.seo_enabled === 1,
    scannerEnabled: site.scanner_enabled === 1,
    allowanceRemaining:
      allowanceRemaining === undefined ? await crawlAllowanceRemaining(db, site, now) : allowanceRemaining,
  };
}

/**
 * Creates the run row of a crawl and asks the job runtime (`options.events`) to work it. At most one crawl runs per
 * site: the partial unique index on running crawls settles simultaneous triggers inside Postgres,
 * and the loser gets the running crawl back with `started: false`.
 *
 * The event is sent after the row exists. If sending fails the run stays `running` in phase
 * `seeding`, and the resume sweep (scheduler tick, runner boot) picks it up, so a start is never lost.
 */
export async function startCrawl(db: Db, site: Site, options: StartCrawlOptions): Promise<StartCrawlResult> {
  const now = options.now ?? Date.now();
  const settings = await captureSettings(db, site, now, options.allowanceRemaining);
  const [created] = await db
    .insert(runs)
    .values({
      site_id: site.id,
      tenant_id: site.tenant_id,
      started_at: now,
      state: 'running',
      kind: 'crawl',
      trigger: options.trigger,
      chain_a11y: options.chainA11y ? 1 : 0,
      phase: 'seeding',
      window: Math.min(2, site.max_concurrency),
      settings,
      heartbeat_at: now,
    })
    .onConflictDoNothing({
      target: runs.site_id,
      where: sql`${runs.state} = 'running' and ${runs.kind} = 'crawl'`,
    })
    .returning();

  if (!created) {
    const running = await runningCrawl(db, { tenantId: site.tenant_id, siteId: site.id });
    // The running crawl finished between our insert and this read: the caller may simply retry.
    if (!running) return startCrawl(db, site, options);
    return { started: false, run: running };
  }

  try {
    await options.events.requested({
      runId: created.id,
      siteId: site.id,
      tenantId: site.tenant_id,
      chainA11y: options.chainA11y,
    });
  } catch (error) {
    console.error(
      `crawl ${created.id}: could not hand the crawl to the job runtime; the resume sweep will`,
      error,
    );
  }
  return { started: true, run: created };
}

export async function runningCrawl(
  db: Db,
  { tenantId, siteId }: { tenantId: string; siteId: string },
): Promise<Run | undefined> {
  const [run] = await db.select().from(runs).where(runningCrawlOf(tenantId, siteId)).limit(1);
  return run;
}

export async function loadRun(db: Db, runId: string): Promise<Run | undefined> {
  const [run] = await db.select().from(runs).where(eq(runs.id, runId)).limit(1);
  return run;
}
