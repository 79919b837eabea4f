import { and, asc, eq, sql, sum } from 'drizzle-orm';
import { config } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { appPauses, sites, usageLedger } from '@/lib/db/schema';
import { monitorPool, monitorsHeldAtAllowance } from './monitors';
import { billingPeriod } from './period';
import { overAllowance, overagePrices, type PriceKey, plan, priceOf } from './pricing';
import { includedSites, overageState, setOverage } from './settings';

export type PausedApp = { siteId: string; hostname: string; app: 'crawl' | 'a11y'; pausedAt: number };

export type BillLine = {
  item: 'extra-site' | 'pages-crawled' | 'pages-rendered' | 'extra-monitors';
  description: string;
  /** The site the line is about; null for organization-wide lines (pooled monitors). */
  siteId: string | null;
  hostname: string | null;
  quantity: number;
  unit: string;
  /** Price per `per` units of `unit`. */
  unitPriceCents: number;
  per: number;
  /** 0 with overage off: nothing is billed beyond the subscription (spec). */
  amountCents: number;
};

export type BillItem = BillLine['item'];

/** What overage charges for each item, per `per` units of `unit`: the price list the page shows. */
export type OverageListPrice = { item: BillItem; unit: string; unitPriceCents: number; per: number };

export type Billing = {
  overageEnabled: boolean;
  /** Some site's crawl (or accessibility scan) is paused at its allowance for the rest of the period. */
  crawlPaused: boolean;
  a11yPaused: boolean;
  pausedSites: PausedApp[];
  /**
   * Uptime monitors held at the pooled allowance: with overage off, the newest past it are not
   * probed (./monitors.ts). Held, not paused for the period: they probe again as soon as overage
   * is on, a monitor is deleted or a site added. 0 with overage on.
   */
  monitorsHeld: number;
  /** The subscription: its plan, monthly price and what it includes. */
  subscription: {
    plan: string;
    priceCents: number;
    includedSites: number;
    allowances: { pagesCrawled: number; pagesRendered: number; monitors: number };
  };
  /** The overage price list, whether overage is on or off. */
  prices: OverageListPrice[];
  projected: {
    period: string;
    currency: 'USD';
    lines: BillLine[];
    /** The overage lines' sum (0 with overage off). */
    totalCents: number;
    subscriptionCents: number;
    /** The subscription and the overage lines: the month's bill at its usage so far. */
    billCents: number;
    /** The same bill had overage the other setting: what turning it on (or off) would make it. */
    ifSwitched: { overageEnabled: boolean; totalCents: number; billCents: number };
  };
};

const PRICE_ITEMS: readonly [PriceKey, BillItem][] = [
  ['extraSite', 'extra-site'],
  ['pagesCrawled', 'pages-crawled'],
  ['pagesRendered', 'pages-rendered'],
  ['extraMonitor', 'extra-monitors'],
];

/** Overage lines charged with overage on or off (off: nothing beyond the subscription, spec). */
function billed(lines: BillLine[], overageEnabled: boolean, subscriptionCents: number) {
  const charged = lines.map((line) => ({ ...line, amountCents: overageEnabled ? line.amountCents : 0 }));
  const totalCents = charged.reduce((total, line) => total + line.amountCents, 0);
  return { charged, totalCents, billCents: subscriptionCents + totalCents };
}

/**
 * The billing resource: the overage switch, which apps are paused at their allowance this period,
 * how many uptime monitors are held at theirs, and the bill projected from this period's metered usage. The usage ledger keeps deleted sites'
 * rows, so their pages still count; a deleted site no longer takes a site slot.
 */
export async function getBilling(db: Db, tenantId: string, now = Date.now()): Promise<Billing> {
  const period = billingPeriod(now);
  const overageEnabled = (await overageState(db, tenantId)).enabled;

  // Overage on lifts every pause from the next scheduler tick, so none is reported then. The join
  // drops pauses left behind by a deleted site.
  const pausedSites: PausedApp[] = overageEnabled
    ? []
    : await db
        .select({
          siteId: appPauses.site_id,
          hostname: sites.hostname,
          app: appPauses.app,
          pausedAt: appPauses.paused_at,
        })
        .from(appPauses)
        .innerJoin(sites, and(eq(sites.id, appPauses.site_id), eq(sites.tenant_id, appPauses.tenant_id)))
        .where(and(eq(appPauses.tenant_id, tenantId), eq(appPauses.billing_period, period)))
        .orderBy(asc(sites.hostname), asc(appPauses.app));

  const monitorsHeld = overageEnabled ? 0 : (await monitorsHeldAtAllowance(db, tenantId)).size;
  const lines = await projectedLines(db, tenantId, period);
  const c = config();
  const subscription = plan();
  const current = billed(lines, overageEnabled, subscription.priceCents);
  const switched = billed(lines, !overageEnabled, subscription.priceCents);
  const prices = overagePrices();
  return {
    overageEnabled,
    crawlPaused: pausedSites.some((p) => p.app === 'crawl'),
    a11yPaused: pausedSites.some((p) => p.app === 'a11y'),
    pausedSites,
    monitorsHeld,
    subscription: {
      plan: subscription.name,
      priceCents: subscription.priceCents,
      includedSites: includedSites(),
      allowances: {
        pagesCrawled: c.ALLOWANCE_PAGES_CRAWLED,
        pagesRendered: c.ALLOWANCE_PAGES_RENDERED,
        monitors: c.ALLOWANCE_MONITORS,
      },
    },
    prices: PRICE_ITEMS.map(([key, item]) => ({ item, ...prices[key] })),
    projected: {
      period,
      currency: 'USD',
      lines: current.charged,
      totalCents: current.totalCents,
      subscriptionCents: subscription.priceCents,
      billCents: current.billCents,
      ifSwitched: {
        overageEnabled: !overageEnabled,
        totalCents: switched.totalCents,
        billCents: switched.billCents,
      },
    },
  };
}

/** Everything metered beyond the subscription this period, priced as if overage were on. */
async function projectedLines(db: Db, tenantId: string, period: string): Promise<BillLine[]> {
  const c = config();
  const included = includedSites();
  const prices = overagePrices();
  const lines: BillLine[] = [];
  const line = (
    key: PriceKey,
    item: BillLine['item'],
    description: string,
    site: { siteId: string; hostname: string } | null,
    quantity: number,
  ): BillLine => ({
    item,
    description,
    siteId: site?.siteId ?? null,
    hostname: site?.hostname ?? null,
    quantity,
    unit: prices[key].unit,
    unitPriceCents: prices[key].unitPriceCents,
    per: prices[key].per,
    amountCents: priceOf(prices[key], quantity),
  });

  // The oldest sites are the included ones; each later one is an extra site.
  const tenantSites = await db
    .select({ siteId: sites.id, hostname: sites.hostname })
    .from(sites)
    .where(eq(sites.tenant_id, tenantId))
    .orderBy(asc(sites.created_at), asc(sites.id));
  for (const site of tenantSites.slice(included)) {
    lines.push(
      line('extraSite', 'extra-site', `${site.hostname}: site beyond the ${included} included`, site, 1),
    );
  }

  const usage = await db
    .select({
      siteId: usageLedger.site_id,
      hostname: sql<string>`max(${usageLedger.hostname})`,
      pagesCrawled: sum(usageLedger.pages_crawled),
      pagesRendered: sum(usageLedger.pages_rendered),
    })
    .from(usageLedger)
    .where(and(eq(usageLedger.tenant_id, tenantId), eq(usageLedger.billing_period, period)))
    .groupBy(usageLedger.site_id)
    .orderBy(sql`max(${usageLedger.hostname})`);
  for (const row of usage) {
    const site = { siteId: row.siteId, hostname: row.hostname };
    const meters = [
      ['pagesCrawled', 'pages-crawled', 'crawled', row.pagesCrawled, c.ALLOWANCE_PAGES_CRAWLED],
      ['pagesRendered', 'pages-rendered', 'rendered', row.pagesRendered, c.ALLOWANCE_PAGES_RENDERED],
    ] as const;
    for (const [key, code, verb, used, allowance] of meters) {
      const beyond = overAllowance(Number(used ?? 0), allowance);
      if (beyond === 0) continue;
      lines.push(
        line(
          key,
          code,
          `${site.hostname}: ${beyond} pages ${verb} beyond the ${allowance} allowance`,
          site,
          beyond,
        ),
      );
    }
  }

  // Monitors are pooled: the allowance per site times the sites the organization has.
  const { used, pool } = await monitorPool(db, tenantId);
  const extraMonitors = overAllowance(used, pool);
  if (extraMonitors > 0) {
    lines.push(
      line(
        'extraMonitor',
        'extra-monitors',
        `${extraMonitors} uptime monitors beyond the pooled allowance of ${pool}`,
        null,
        extraMonitors,
      ),
    );
  }
  return lines;
}

export { includedSites, overageState, setOverage } from './settings';

/** PATCH /v1/billing: turns overage on or off and answers the billing resource as it now stands. */
export async function updateBilling(
  db: Db,
  tenantId: string,
  input: { overageEnabled: boolean },
): Promise<Billing> {
  await setOverage(db, tenantId, input.overageEnabled);
  return getBilling(db, tenantId);
}
