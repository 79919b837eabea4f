import { type AnyColumn, and, asc, count, eq, sql } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import { billingPeriod } from '@/lib/billing/period';
import { overAllowance } from '@/lib/billing/pricing';
import { config } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import { sites, uptimeMonitors, usageLedger } from '@/lib/db/schema';
import { getVisibleSite } from '@/lib/sites/access';
import { pagesCrawledInPeriod, pagesCrawledSql, pagesRenderedSql } from './allowance';

export interface UsageMonth {
  billing_period: string;
  runs: number;
  pages_crawled: number;
  links_checked: number;
}

export interface Allowances {
  pagesCrawled: number;
  pagesRendered: number;
  monitors: number;
}

export interface SiteUsage {
  byMonth: UsageMonth[];
  current: {
    period: string;
    pagesCrawled: number;
    pagesRendered: number;
    monitors: number;
    allowances: Allowances;
  };
}

/** Per-site allowances for one billing period (spec "Limits"), from the configuration. */
export function allowances(): Allowances {
  const c = config();
  return {
    pagesCrawled: c.ALLOWANCE_PAGES_CRAWLED,
    pagesRendered: c.ALLOWANCE_PAGES_RENDERED,
    monitors: c.ALLOWANCE_MONITORS,
  };
}

const sum = (column: AnyColumn) => sql<string>`coalesce(sum(${column}), 0)`;

/**
 * GET /v1/sites/{id}/usage. Months come from the ledger (finished runs), oldest first. The current
 * period's pages crawled also count a crawl still running, as the allowance does.
 */
export async function getSiteUsage(
  db: Db,
  principal: Principal,
  siteId: string,
  now = Date.now(),
): Promise<SiteUsage> {
  const site = await getVisibleSite(db, principal, siteId);
  const ofSite = and(eq(usageLedger.tenant_id, site.tenant_id), eq(usageLedger.site_id, site.id));
  const months = await db
    .select({
      period: usageLedger.billing_period,
      runs: count(),
      pages: sum(usageLedger.pages_crawled),
      links: sum(usageLedger.links_checked),
      rendered: sum(usageLedger.pages_rendered),
    })
    .from(usageLedger)
    .where(ofSite)
    .groupBy(usageLedger.billing_period)
    .orderBy(asc(usageLedger.billing_period));

  const period = billingPeriod(now);
  const current = months.find((m) => m.period === period);
  const [monitors] = await db
    .select({ n: count() })
    .from(uptimeMonitors)
    .where(and(eq(uptimeMonitors.tenant_id, site.tenant_id), eq(uptimeMonitors.site_id, site.id)));

  return {
    byMonth: months.map((m) => ({
      billing_period: m.period,
      runs: Number(m.runs),
      pages_crawled: Number(m.pages),
      links_checked: Number(m.links),
    })),
    current: {
      period,
      pagesCrawled: await pagesCrawledInPeriod(db, { tenantId: site.tenant_id, siteId: site.id, period }),
      pagesRendered: Number(current?.rendered ?? 0),
      monitors: Number(monitors?.n ?? 0),
      allowances: allowances(),
    },
  };
}

export interface OrgUsageSite {
  site_id: string;
  /** Copied into the ledger at each run, so a deleted site keeps its name. */
  hostname: string;
  deleted: boolean;
  runs: number;
  pages_crawled: number;
  pages_rendered: number;
  links_checked: number;
  /** Usage beyond the per-site allowances this period (billed only with overage on). */
  over_allowance: { pages_crawled: number; pages_rendered: number };
  /**
   * Pages of the site's crawl and render pass still running that started in the period: not in the
   * ledger until they finish, but counted by the allowance (0 for a deleted site).
   */
  in_progress: { pages_crawled: number; pages_rendered: number };
  /** Uptime monitors configured on the site now (0 for a deleted site). */
  monitors: number;
}

export interface OrgUsage {
  period: string;
  /** Periods with usage, plus the current one, newest first: what a period picker offers. */
  periods: string[];
  totals: { runs: number; pages_crawled: number; pages_rendered: number; links_checked: number };
  allowances: Allowances;
  /** Every current site (zero rows included) and every deleted site with usage, by hostname. */
  sites: OrgUsageSite[];
}

/**
 * GET /v1/usage?period=YYYY-MM (owner/admin sessions): the organization's ledger for one period,
 * per site. Ledger rows carry the hostname and no link to the site, so deleted sites still show.
 */
export async function getOrgUsage(
  db: Db,
  principal: Principal,
  period: string | undefined,
  now = Date.now(),
): Promise<OrgUsage> {
  const tenantId = principal.tenantId;
  const current = billingPeriod(now);
  const wanted = period ?? current;

  const perSite = await db
    .select({
      siteId: usageLedger.site_id,
      hostname: sql<string>`max(${usageLedger.hostname})`,
      runs: count(),
      pagesCrawled: sum(usageLedger.pages_crawled),
      pagesRendered: sum(usageLedger.pages_rendered),
      linksChecked: sum(usageLedger.links_checked),
    })
    .from(usageLedger)
    .where(and(eq(usageLedger.tenant_id, tenantId), eq(usageLedger.billing_period, wanted)))
    .groupBy(usageLedger.site_id);
  // What the allowance counts for each current site (the ledger plus work still running), beside
  // the ledger's own figures, so in_progress is their difference whatever the metering rule.
  // (Raw SQL: drizzle's single-table select leaves column names unqualified, and these subqueries
  // join tables that share them.)
  const monitorsOfSite = and(
    eq(uptimeMonitors.tenant_id, sites.tenant_id),
    eq(uptimeMonitors.site_id, sites.id),
  );
  const liveSites = (
    await queryRows<{
      id: string;
      hostname: string;
      crawled: number | string;
      rendered: number | string;
      monitors: number | string;
    }>(
      db,
      sql`select ${sites.id} as id, ${sites.hostname} as hostname,
                 ${pagesCrawledSql({ tenantId: sites.tenant_id, siteId: sites.id, period: wanted })} as crawled,
                 ${pagesRenderedSql({ tenantId: sites.tenant_id, siteId: sites.id, period: wanted })} as rendered,
                 (select count(*) from ${uptimeMonitors} where ${monitorsOfSite}) as monitors
          from ${sites} where ${eq(sites.tenant_id, tenantId)}`,
    )
  ).map((r) => ({
    id: r.id,
    hostname: r.hostname,
    meteredCrawled: Number(r.crawled),
    meteredRendered: Number(r.rendered),
    monitors: Number(r.monitors),
  }));
  const periods = await db
    .selectDistinct({ period: usageLedger.billing_period })
    .from(usageLedger)
    .where(eq(usageLedger.tenant_id, tenantId));

  const limits = allowances();
  const live = new Map(liveSites.map((s) => [s.id, s]));
  const rows = new Map<string, OrgUsageSite>();
  const row = (siteId: string, hostname: string, deleted: boolean): OrgUsageSite => ({
    site_id: siteId,
    hostname,
    deleted,
    runs: 0,
    pages_crawled: 0,
    pages_rendered: 0,
    links_checked: 0,
    over_allowance: { pages_crawled: 0, pages_rendered: 0 },
    in_progress: { pages_crawled: 0, pages_rendered: 0 },
    monitors: live.get(siteId)?.monitors ?? 0,
  });
  // The current period lists every site (most have usage coming); past periods list the sites that
  // used something then.
  if (wanted === current) for (const site of liveSites) rows.set(site.id, row(site.id, site.hostname, false));
  for (const u of perSite) {
    const entry =
      rows.get(u.siteId) ?? row(u.siteId, live.get(u.siteId)?.hostname ?? u.hostname, !live.has(u.siteId));
    entry.runs = Number(u.runs);
    entry.pages_crawled = Number(u.pagesCrawled);
    entry.pages_rendered = Number(u.pagesRendered);
    entry.links_checked = Number(u.linksChecked);
    entry.over_allowance = {
      pages_crawled: overAllowance(entry.pages_crawled, limits.pagesCrawled),
      pages_rendered: overAllowance(entry.pages_rendered, limits.pagesRendered),
    };
    rows.set(u.siteId, entry);
  }
  for (const entry of rows.values()) {
    const site = live.get(entry.site_id);
    if (!site) continue;
    entry.in_progress = {
      pages_crawled: Math.max(0, site.meteredCrawled - entry.pages_crawled),
      pages_rendered: Math.max(0, site.meteredRendered - entry.pages_rendered),
    };
  }
  const list = [...rows.values()].sort(
    (a, b) => a.hostname.localeCompare(b.hostname) || a.site_id.localeCompare(b.site_id),
  );

  return {
    period: wanted,
    periods: [...new Set([current, ...periods.map((p) => p.period)])].sort().reverse(),
    totals: {
      runs: list.reduce((n, s) => n + s.runs, 0),
      pages_crawled: list.reduce((n, s) => n + s.pages_crawled, 0),
      pages_rendered: list.reduce((n, s) => n + s.pages_rendered, 0),
      links_checked: list.reduce((n, s) => n + s.links_checked, 0),
    },
    allowances: limits,
    sites: list,
  };
}
