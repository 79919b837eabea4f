/**
 * Overage list prices, in US cents, for what runs past the subscription with overage on. The spec
 * names no prices; these are this deployment's, kept in one table so the projected bill, the billing
 * page and any invoice export agree. Each price is per `per` units.
 */
export const OVERAGE_PRICES = {
  /** Each registered site beyond the included count, per billing period. */
  extraSite: { unitPriceCents: 1000, per: 1, unit: 'site' },
  /** Pages crawled beyond a site's monthly allowance. */
  pagesCrawled: { unitPriceCents: 100, per: 1000, unit: '1000 pages crawled' },
  /** Pages rendered (accessibility) beyond a site's monthly allowance; a browser render costs more. */
  pagesRendered: { unitPriceCents: 500, per: 1000, unit: '1000 pages rendered' },
  /** Uptime monitors beyond the organization's pooled allowance. */
  extraMonitor: { unitPriceCents: 200, per: 1, unit: 'monitor' },
} as const;

export type PriceKey = keyof typeof OVERAGE_PRICES;

/** The charge for `quantity` units, rounded up to the cent (a partial thousand pages is charged pro rata). */
export function priceOf(key: PriceKey, quantity: number): number {
  const price = OVERAGE_PRICES[key];
  return Math.ceil((quantity * price.unitPriceCents) / price.per);
}

/** What a meter used beyond its allowance, the quantity that overage bills: never negative. */
export function overAllowance(used: number, allowance: number): number {
  return Math.max(0, used - allowance);
}
