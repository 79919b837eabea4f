import { z } from 'zod';
import type { OrgUsage, SiteUsage } from '@/lib/usage/service';
import type { Holds, Same } from './common';

/** GET /v1/usage?period=YYYY-MM; the current UTC month when omitted. */
export const orgUsageQuery = z.object({
  period: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month written YYYY-MM, e.g. 2026-03')
    .optional(),
});

const count = z.int().min(0);
const period = z.string().describe('billing period YYYY-MM (UTC month)');
const allowances = z.object({ pagesCrawled: count, pagesRendered: count, monitors: count });

/** GET /v1/sites/{id}/usage. */
export const siteUsageResponse = z.object({
  byMonth: z.array(
    z.object({ billing_period: period, runs: count, pages_crawled: count, links_checked: count }),
  ),
  current: z.object({ period, pagesCrawled: count, pagesRendered: count, monitors: count, allowances }),
});

/** GET /v1/usage: the organization's ledger for one period, per site (deleted sites by hostname). */
export const orgUsageResponse = z.object({
  period,
  periods: z.array(period).describe('periods with usage plus the current one, newest first'),
  totals: z.object({ runs: count, pages_crawled: count, pages_rendered: count, links_checked: count }),
  allowances: allowances.describe('per site and period'),
  sites: z.array(
    z.object({
      site_id: z.uuid(),
      hostname: z.string(),
      deleted: z.boolean(),
      runs: count,
      pages_crawled: count,
      pages_rendered: count,
      links_checked: count,
      over_allowance: z.object({ pages_crawled: count, pages_rendered: count }),
    }),
  ),
});

/** What the usage service answers is exactly these schemas' output: typecheck fails on drift. */
export type UsageServiceMatchesSchemas = [
  Holds<Same<SiteUsage, z.output<typeof siteUsageResponse>>>,
  Holds<Same<OrgUsage, z.output<typeof orgUsageResponse>>>,
];
