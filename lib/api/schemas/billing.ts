import { z } from 'zod';
import type { Billing } from '@/lib/billing/service';
import { type Holds, type Same, strictBoolean } from './common';

/** PATCH /v1/billing: the overage switch is the one setting a tenant controls. */
export const updateBillingBody = z.strictObject({
  overageEnabled: strictBoolean().describe(
    'true: usage beyond the allowances and extra sites are billed; false: apps pause at their allowance',
  ),
});
export type UpdateBillingInput = z.output<typeof updateBillingBody>;

const count = z.int().min(0);
const cents = z.int().min(0);

const billItem = z
  .enum(['extra-site', 'pages-crawled', 'pages-rendered', 'extra-monitors'])
  .describe('what is billed');

const billLine = z
  .object({
    item: billItem,
    description: z.string().describe('the line in plain words'),
    siteId: z.uuid().nullable().describe('null for organization-wide lines (pooled monitors)'),
    hostname: z.string().nullable().describe("the site's hostname; null for organization-wide lines"),
    quantity: count.describe('what is billed beyond the subscription: extra sites, pages or monitors'),
    unit: z.string().describe("the price's unit in plain words (site, 1000 pages crawled, monitor)"),
    unitPriceCents: cents.describe('price per `per` units of `unit`'),
    per: z.int().min(1).describe('how many of quantity the unit price is for (1000 for pages)'),
    amountCents: cents.describe('0 with overage off: nothing is billed beyond the subscription'),
  })
  .strict()
  .meta({ id: 'BillLine', description: 'One line of the projected bill' });

/**
 * GET and PATCH /v1/billing: the overage switch, the apps paused at their allowance this period and
 * the bill projected from this period's metered usage.
 */
export const billingResponse = z
  .object({
    overageEnabled: z.boolean().describe('whether usage beyond the allowances is billed instead of paused'),
    crawlPaused: z.boolean().describe("some site's crawl is paused at its allowance for the period"),
    a11yPaused: z.boolean().describe("some site's accessibility scan is paused at its allowance"),
    pausedSites: z
      .array(
        z
          .object({
            siteId: z.uuid().describe('the site'),
            hostname: z.string().describe("the site's hostname"),
            app: z.enum(['crawl', 'a11y']).describe('the app paused'),
            pausedAt: z.int().describe('epoch milliseconds'),
          })
          .strict()
          .describe('one app paused on one site'),
      )
      .describe('the apps paused at their allowance this period'),
    monitorsHeld: count.describe(
      "uptime monitors held at the organization's pooled monitor allowance (ALLOWANCE_MONITORS per site) with overage off: the newest past it are not probed until overage is turned on, a monitor is deleted or a site added; 0 with overage on",
    ),
    subscription: z
      .object({
        plan: z.string().describe("the plan's name (PLAN_NAME)"),
        priceCents: cents.describe('its price per billing period, in USD cents (PLAN_PRICE_CENTS)'),
        includedSites: count.describe('sites it includes (INCLUDED_SITES)'),
        allowances: z
          .object({
            pagesCrawled: count.describe('pages crawled per site per period'),
            pagesRendered: count.describe('pages rendered per site per period'),
            monitors: count.describe('uptime monitors per site, pooled across the organization'),
          })
          .strict()
          .describe('what each site may use per period before overage'),
      })
      .strict()
      .describe('the subscription: plan, price and what it includes. Not in the specification.'),
    prices: z
      .array(
        z
          .object({
            item: billItem,
            unit: z.string().describe("the price's unit in plain words"),
            unitPriceCents: cents.describe('price per `per` units of `unit`, in USD cents'),
            per: z.int().min(1).describe('how many units the price is for (1000 for pages)'),
          })
          .strict()
          .describe('the price of one overage item'),
      )
      .describe(
        'the overage price list (PRICE_* settings), whether overage is on or off. Not in the specification.',
      ),
    projected: z
      .object({
        period: z.string().describe('billing period YYYY-MM (UTC month)'),
        currency: z.literal('USD').describe('the currency of every amount'),
        lines: z.array(billLine).describe('one line per billed item'),
        totalCents: cents.describe('the sum of the lines (overage only; 0 with overage off)'),
        subscriptionCents: cents.describe(
          "the subscription's price for the period. Not in the specification.",
        ),
        billCents: cents.describe(
          "subscriptionCents + totalCents: the period's bill at its usage so far. Not in the specification.",
        ),
        ifSwitched: z
          .object({
            overageEnabled: z.boolean().describe('the other setting of the overage switch'),
            totalCents: cents.describe('the overage lines charged under that setting'),
            billCents: cents.describe('the bill under that setting'),
          })
          .strict()
          .describe(
            "the same period's bill at its usage so far had overage the other setting: what turning it on (or off) makes it. Not in the specification.",
          ),
      })
      .strict()
      .describe("the bill projected from this period's metered usage"),
  })
  .strict()
  .meta({ id: 'Billing', description: 'Overage setting, paused apps and the projected bill' });

/** What the billing service answers is exactly this schema's output: typecheck fails on drift. */
export type BillingMatchesSchema = Holds<Same<Billing, z.output<typeof billingResponse>>>;
