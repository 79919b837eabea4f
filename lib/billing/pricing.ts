/**
 * The subscription and the overage list prices, in US cents, from the environment (PLAN_NAME,
 * PLAN_PRICE_CENTS, PRICE_* in lib/config.ts; the README's configuration table has the defaults).
 * The spec names no prices; these are the deployment's, read in one place so the billing page, the
 * projected bill and the overage confirmation agree. Each overage price is per `per` units.
 */
import { config } from '@/lib/config';

export type PriceKey = 'extraSite' | 'pagesCrawled' | 'pagesRendered' | 'extraMonitor';

export interface OveragePrice {
  unitPriceCents: number;
  per: number;
  unit: string;
}

export function overagePrices(): Record<PriceKey, OveragePrice> {
  const c = config();
  return {
    /** Each registered site beyond the included count, per billing period. */
    extraSite: { unitPriceCents: c.PRICE_EXTRA_SITE_CENTS, per: 1, unit: 'site' },
    /** Pages crawled beyond a site's monthly allowance. */
    pagesCrawled: { unitPriceCents: c.PRICE_1000_PAGES_CRAWLED_CENTS, per: 1000, unit: '1000 pages crawled' },
    /** Pages rendered (accessibility) beyond a site's monthly allowance; a browser render costs more. */
    pagesRendered: {
      unitPriceCents: c.PRICE_1000_PAGES_RENDERED_CENTS,
      per: 1000,
      unit: '1000 pages rendered',
    },
    /** Uptime monitors beyond the organization's pooled allowance. */
    extraMonitor: { unitPriceCents: c.PRICE_EXTRA_MONITOR_CENTS, per: 1, unit: 'monitor' },
  };
}

/** The subscription: its name and monthly price. */
export function plan(): { name: string; priceCents: number } {
  const c = config();
  return { name: c.PLAN_NAME, priceCents: c.PLAN_PRICE_CENTS };
}

/** The charge for `quantity` units, rounded up to the cent (a partial thousand pages is charged pro rata). */
export function priceOf(price: OveragePrice, quantity: number): number {
  return Math.ceil((quantity * price.unitPriceCents) / price.per);
}

/** What a meter used beyond its allowance, the quantity that overage bills: never negative. */
export function overAllowance(used: number, allowance: number): number {
  return Math.max(0, used - allowance);
}
