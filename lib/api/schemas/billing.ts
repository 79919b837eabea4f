import { z } from 'zod';
import type { Billing } from '@/lib/billing/service';
import { type Holds, type Same, strictBoolean } from './common';

/** PATCH /v1/billing: the overage switch is the one setting a tenant controls. */
export const updateBillingBody = z.strictObject({
  overageEnabled: strictBoolean(),
});
export type UpdateBillingInput = z.output<typeof updateBillingBody>;

const count = z.int().min(0);
const cents = z.int().min(0);

const billLine = z
  .object({
    item: z.enum(['extra-site', 'pages-crawled', 'pages-rendered', 'extra-monitors']),
    description: z.string(),
    siteId: z.uuid().nullable().describe('null for organization-wide lines (pooled monitors)'),
    hostname: z.string().nullable(),
    quantity: count,
    unit: z.string(),
    unitPriceCents: cents.describe('price per `per` units of `unit`'),
    per: z.int().min(1),
    amountCents: cents.describe('0 with overage off: nothing is billed beyond the subscription'),
  })
  .strict()
  .meta({ title: 'BillLine' });

/**
 * GET and PATCH /v1/billing: the overage switch, the apps paused at their allowance this period and
 * the bill projected from this period's metered usage.
 */
export const billingResponse = z
  .object({
    overageEnabled: z.boolean(),
    crawlPaused: z.boolean().describe("some site's crawl is paused at its allowance for the period"),
    a11yPaused: z.boolean().describe("some site's accessibility scan is paused at its allowance"),
    pausedSites: z.array(
      z
        .object({
          siteId: z.uuid(),
          hostname: z.string(),
          app: z.enum(['crawl', 'a11y']),
          pausedAt: z.int().describe('epoch milliseconds'),
        })
        .strict(),
    ),
    projected: z
      .object({
        period: z.string().describe('billing period YYYY-MM (UTC month)'),
        currency: z.literal('USD'),
        lines: z.array(billLine),
        totalCents: cents,
      })
      .strict(),
  })
  .strict()
  .meta({ title: 'Billing' });

/** What the billing service answers is exactly this schema's output: typecheck fails on drift. */
export type BillingMatchesSchema = Holds<Same<Billing, z.output<typeof billingResponse>>>;
