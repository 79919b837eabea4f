import { and, eq, gte, lt, ne, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { billingPeriod, periodBounds } from '@/lib/billing/period';
import { type OverageState, overageColumns, overageState } from '@/lib/billing/settings';
import { config } from '@/lib/config';
import { activePassOf } from '@/lib/db/active-pass';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import { runningCrawlOf } from '@/lib/db/running-crawl';
import { a11yPages, appPauses, runs, sites, usageLedger } from '@/lib/db/schema';
import { enqueueNotification } from '@/lib/notify/outbox';

/**
 * Allowances with the pause-by-default overage model (spec "Limits"): with overage off an app
 * pauses at its allowance for the rest of the UTC month and the tenant is told once; with overage
 * on nothing pauses and the excess is metered.
 */

export type PausableApp = 'crawl' | 'a11y';

/**
 * One site's usage in one billing period: its ids, or (in the SQL readers) an outer query's site
 * columns to read it per listed site. One object, so the three never swap places.
 */
export interface SitePeriod<Id = string> {
  tenantId: Id;
  siteId: Id;
  /** YYYY-MM. */
  period: string;
}
type SitePeriodSql = SitePeriod<string | AnyPgColumn>;

/** The columns of `sites` as a SitePeriod: each listed site's usage in `period`. */
const listedSites = (period: string): SitePeriodSql => ({
  tenantId: sites.tenant_id,
  siteId: sites.id,
  period,
});

/** A site's ledger rows of a period. */
function ledgerRowsOf({ tenantId, siteId, period }: SitePeriodSql) {
  return and(
    eq(usageLedger.tenant_id, tenantId),
    eq(usageLedger.site_id, siteId),
    eq(usageLedger.billing_period, period),
  );
}

/**
 * Pages crawled for a site in a period, as one SQL value: finished runs from the ledger plus crawls
 * still running that started in the period (their counters move per batch), so a decision taken
 * mid-crawl sees the whole month. Ids, or an outer query's site columns to read it per listed site.
 */
export function pagesCrawledSql(of: SitePeriodSql, options: { excludeRunId?: string } = {}): SQL<number> {
  const { start, end } = periodBounds(of.period);
  const running = and(
    runningCrawlOf(of.tenantId, of.siteId),
    gte(runs.started_at, start),
    lt(runs.started_at, end),
    options.excludeRunId === undefined ? undefined : ne(runs.id, options.excludeRunId),
  );
  const ledger = ledgerRowsOf(of);
  return sql<number>`((select coalesce(sum(${usageLedger.pages_crawled}), 0) from ${usageLedger} where ${ledger})
    + (select coalesce(sum(${runs.pages_crawled}), 0) from ${runs} where ${running}))`.mapWith(Number);
}

export async function pagesCrawledInPeriod(
  db: Db,
  of: SitePeriod,
  options: { excludeRunId?: string } = {},
): Promise<number> {
  return pagesUsedInPeriod(db, 'crawl', of, options);
}

/** Pages a crawl starting now may crawl before the monthly allowance is used up; null with overage on. */
export function crawlAllowanceLeft(overage: OverageState, used: number): number | null {
  return allowanceLeft('crawl', overage, used);
}

/**
 * How many pages a crawl starting now may crawl before the site's monthly allowance is used up;
 * null when overage is on (no cap beyond maxPages). Never negative.
 */
export async function crawlAllowanceRemaining(
  db: Db,
  site: { tenant_id: string; id: string },
  now: number,
  options: { excludeRunId?: string } = {},
): Promise<number | null> {
  return allowanceRemaining(db, 'crawl', site, now, options);
}

/**
 * Pages rendered for a site in a period, as one SQL value: finished passes from the ledger plus the
 * pages already rendered by passes still in progress that started in the period (their page rows
 * turn from pending as they are stored), so a pass starting mid-month sees the whole month.
 */
export function pagesRenderedSql(of: SitePeriodSql, options: { excludeRunId?: string } = {}): SQL<number> {
  const { start, end } = periodBounds(of.period);
  const active = and(
    activePassOf(of.tenantId, of.siteId),
    gte(runs.started_at, start),
    lt(runs.started_at, end),
    options.excludeRunId === undefined ? undefined : ne(runs.id, options.excludeRunId),
  );
  const ledger = ledgerRowsOf(of);
  return sql<number>`((select coalesce(sum(${usageLedger.pages_rendered}), 0) from ${usageLedger} where ${ledger})
    + (select count(*) from ${a11yPages} join ${runs} on ${runs.id} = ${a11yPages.run_id} and ${runs.tenant_id} = ${a11yPages.tenant_id}
       where ${active} and ${a11yPages.status} <> 'pending'))`.mapWith(Number);
}

export async function pagesRenderedInPeriod(
  db: Db,
  of: SitePeriod,
  options: { excludeRunId?: string } = {},
): Promise<number> {
  return pagesUsedInPeriod(db, 'a11y', of, options);
}

/** Pages a render pass starting now may render before the monthly allowance is used up; null with overage on. */
export function renderAllowanceLeft(overage: OverageState, used: number): number | null {
  return allowanceLeft('a11y', overage, used);
}

/** The same read for one site: null when overage is on. Never negative. */
export async function renderAllowanceRemaining(
  db: Db,
  site: { tenant_id: string; id: string },
  now: number,
  options: { excludeRunId?: string } = {},
): Promise<number | null> {
  return allowanceRemaining(db, 'a11y', site, now, options);
}

/**
 * Each pausable app's metered count and its monthly allowance: the crawl and render reads differ
 * only here, so the period read, the remaining allowance and the pause decision are written once.
 */
const METERED: Record<PausableApp, { usedSql: typeof pagesCrawledSql; allowance: () => number }> = {
  crawl: { usedSql: pagesCrawledSql, allowance: () => config().ALLOWANCE_PAGES_CRAWLED },
  a11y: { usedSql: pagesRenderedSql, allowance: () => config().ALLOWANCE_PAGES_RENDERED },
};

async function pagesUsedInPeriod(
  db: Db,
  app: PausableApp,
  of: SitePeriod,
  options: { excludeRunId?: string },
): Promise<number> {
  const [row] = await queryRows<{ pages: string | number }>(
    db,
    sql`select ${METERED[app].usedSql(of, options)} as pages`,
  );
  return Number(row?.pages ?? 0);
}

function allowanceLeft(app: PausableApp, overage: OverageState, used: number): number | null {
  return overage.enabled ? null : Math.max(0, METERED[app].allowance() - used);
}

async function allowanceRemaining(
  db: Db,
  app: PausableApp,
  site: { tenant_id: string; id: string },
  now: number,
  options: { excludeRunId?: string },
): Promise<number | null> {
  const overage = await overageState(db, site.tenant_id);
  if (overage.enabled) return null;
  const used = await pagesUsedInPeriod(
    db,
    app,
    { tenantId: site.tenant_id, siteId: site.id, period: billingPeriod(now) },
    options,
  );
  return allowanceLeft(app, overage, used);
}

/** Whether a pause row holds the app in the period; it counts only with overage off. */
function pauseRowOf({ tenantId, siteId, period }: SitePeriodSql, app: PausableApp) {
  return and(
    eq(appPauses.tenant_id, tenantId),
    eq(appPauses.site_id, siteId),
    eq(appPauses.app, app),
    eq(appPauses.billing_period, period),
  );
}

/** Whether each listed site (an outer query over `sites`) has a pause row for the app in the period. */
function pauseRowExists(app: PausableApp, period: string) {
  return sql<boolean>`exists (select 1 from ${appPauses} where ${pauseRowOf(listedSites(period), app)})`;
}

/**
 * What the scheduler needs to know of each due site's crawl allowance, as columns of a query over
 * `sites` left-joined to `billing_settings` on the tenant: one query for every due site instead of
 * a handful per site.
 */
export function crawlAllowanceColumns(period: string) {
  return {
    overage: overageColumns,
    pauseRow: pauseRowExists('crawl', period),
    pagesCrawled: pagesCrawledSql(listedSites(period)),
  };
}

/** The same for the accessibility scheduler: each due site's a11y pause and pages rendered this month. */
export function renderAllowanceColumns(period: string) {
  return {
    overage: overageColumns,
    pauseRow: pauseRowExists('a11y', period),
    pagesRendered: pagesRenderedSql(listedSites(period)),
  };
}

/** Whether the app is paused for the period containing `now`. A pause never holds with overage on. */
export async function isAppPaused(
  db: Db,
  site: { tenant_id: string; id: string },
  app: PausableApp,
  now: number,
): Promise<boolean> {
  const overage = await overageState(db, site.tenant_id);
  if (overage.enabled) return false;
  const [row] = await db
    .select({ app: appPauses.app })
    .from(appPauses)
    .where(pauseRowOf({ tenantId: site.tenant_id, siteId: site.id, period: billingPeriod(now) }, app))
    .limit(1);
  return row !== undefined;
}

export interface AllowanceReached {
  tenantId: string;
  siteId: string;
  hostname: string;
  app: PausableApp;
  period: string;
  allowance: number;
  used: number;
  now: number;
}

/**
 * Pauses the app for the rest of the period and queues the "allowance reached" notification.
 * Idempotent: the pause row is keyed on (site, app, period) and the notification on
 * (site, app, period, overage re-arm time). Returns whether the notification was newly queued.
 */
export async function pauseAtAllowance(db: Db, reached: AllowanceReached): Promise<boolean> {
  const overage = await overageState(db, reached.tenantId);
  if (overage.enabled) return false;
  await db
    .insert(appPauses)
    .values({
      tenant_id: reached.tenantId,
      site_id: reached.siteId,
      app: reached.app,
      billing_period: reached.period,
      paused_at: reached.now,
    })
    .onConflictDoNothing();
  return enqueueNotification(db, {
    tenantId: reached.tenantId,
    siteId: reached.siteId,
    kind: 'allowance-reached',
    dedupeKey: `allowance-reached:${reached.siteId}:${reached.app}:${reached.period}:${overage.armedAt}`,
    payload: {
      app: reached.app,
      hostname: reached.hostname,
      period: reached.period,
      allowance: reached.allowance,
      used: reached.used,
    },
    now: reached.now,
  });
}

/**
 * After a run of the app ends: when the site's month has now used the app's allowance, pauses the
 * app for the rest of it and queues the notification (crawl and render pass finalization alike).
 * Callers skip it for runs started with overage on; overage turned on meanwhile wins, as
 * `pauseAtAllowance` reads the current setting. Returns whether the notification was newly queued.
 */
export async function pauseIfAllowanceUsed(
  db: Db,
  site: { tenant_id: string; id: string; hostname: string },
  app: PausableApp,
  period: string,
  now: number,
): Promise<boolean> {
  const allowance = METERED[app].allowance();
  const used = await pagesUsedInPeriod(db, app, { tenantId: site.tenant_id, siteId: site.id, period }, {});
  if (used < allowance) return false;
  return pauseAtAllowance(db, {
    tenantId: site.tenant_id,
    siteId: site.id,
    hostname: site.hostname,
    app,
    period,
    allowance,
    used,
    now,
  });
}

/**
 * A scheduler's pause decision for a due site: paused for this month when a pause row holds
 * (ignored while overage is on), or when the allowance is already used up with overage off and no
 * pause yet (overage was turned off again mid-month: pause-and-notify re-armed, so it pauses now).
 */
export async function pausedForPeriod(
  db: Db,
  site: { tenant_id: string; id: string; hostname: string },
  app: PausableApp,
  state: { pauseRow: boolean; allowanceRemaining: number | null; used: number },
  period: string,
  now: number,
): Promise<boolean> {
  if (state.allowanceRemaining === null) return false;
  if (state.pauseRow) return true;
  if (state.allowanceRemaining > 0) return false;
  await pauseAtAllowance(db, {
    tenantId: site.tenant_id,
    siteId: site.id,
    hostname: site.hostname,
    app,
    period,
    allowance: METERED[app].allowance(),
    used: state.used,
    now,
  });
  return true;
}
