import { and, eq, sql } from 'drizzle-orm';
import { billingPeriod } from '@/lib/billing/period';
import { config } from '@/lib/config';
import { runningCrawlOf } from '@/lib/crawl/running';
import type { Db } from '@/lib/db/client';
import { appPauses, billingSettings, runs, usageLedger } from '@/lib/db/schema';
import { enqueueNotification } from '@/lib/notify/outbox';

/**
 * Allowances with the pause-by-default overage model (spec "Limits"): with overage off an app
 * pauses at its allowance for the rest of the UTC month and the tenant is told once; with overage
 * on nothing pauses and the excess is metered.
 */

export type PausableApp = 'crawl' | 'a11y';

export interface OverageState {
  enabled: boolean;
  /**
   * When the overage setting last changed. Turning overage off re-arms pause-and-notify: the
   * notification's dedupe key includes this, so a pause after re-arming notifies again.
   */
  armedAt: number;
}

export async function overageState(db: Db, tenantId: string): Promise<OverageState> {
  const [row] = await db
    .select({ enabled: billingSettings.overage_enabled, updatedAt: billingSettings.updated_at })
    .from(billingSettings)
    .where(eq(billingSettings.tenant_id, tenantId))
    .limit(1);
  return { enabled: row?.enabled === 1, armedAt: row?.updatedAt ?? 0 };
}

/**
 * Pages crawled for a site in a period: finished runs from the ledger plus crawls still running
 * (their counters move per batch), so a decision taken mid-crawl sees the whole month.
 */
export async function pagesCrawledInPeriod(
  db: Db,
  tenantId: string,
  siteId: string,
  period: string,
  options: { excludeRunId?: string } = {},
): Promise<number> {
  const [ledger] = await db
    .select({ pages: sql<string>`coalesce(sum(${usageLedger.pages_crawled}), 0)` })
    .from(usageLedger)
    .where(
      and(
        eq(usageLedger.tenant_id, tenantId),
        eq(usageLedger.site_id, siteId),
        eq(usageLedger.billing_period, period),
      ),
    );
  const running = await db
    .select({ id: runs.id, pages: runs.pages_crawled, startedAt: runs.started_at })
    .from(runs)
    .where(runningCrawlOf(tenantId, siteId));
  const live = running
    .filter((r) => r.id !== options.excludeRunId && billingPeriod(r.startedAt) === period)
    .reduce((sum, r) => sum + r.pages, 0);
  return Number(ledger?.pages ?? 0) + live;
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
  const overage = await overageState(db, site.tenant_id);
  if (overage.enabled) return null;
  const used = await pagesCrawledInPeriod(db, site.tenant_id, site.id, billingPeriod(now), options);
  return Math.max(0, config().ALLOWANCE_PAGES_CRAWLED - used);
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
    .where(
      and(
        eq(appPauses.tenant_id, site.tenant_id),
        eq(appPauses.site_id, site.id),
        eq(appPauses.app, app),
        eq(appPauses.billing_period, billingPeriod(now)),
      ),
    )
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
