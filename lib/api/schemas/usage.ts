import { z } from 'zod';
import type { OrgUsage, SiteUsage } from '@/lib/usage/service';
import type { Holds, Same } from './common';

/** GET /v1/usage?period=YYYY-MM; the current UTC month when omitted. */
export const orgUsageQuery = z.object({
  period: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month written YYYY-MM, e.g. 2026-03')
    .optional()
    .describe('the billing period, YYYY-MM (UTC month); omitted: the current one'),
});

const count = z.int().min(0);
const period = z.string().describe('billing period YYYY-MM (UTC month)');
const allowances = z
  .object({
    pagesCrawled: count.describe('pages crawled per site and period'),
    pagesRendered: count.describe('pages rendered (accessibility) per site and period'),
    monitors: count.describe('uptime monitors per site'),
  })
  .describe('the allowances');

/** GET /v1/sites/{id}/usage. */
export const siteUsageResponse = z
  .object({
    byMonth: z
      .array(
        z
          .object({
            billing_period: period,
            runs: count.describe('runs finished in the period'),
            pages_crawled: count.describe('pages crawled in the period'),
            links_checked: count.describe('links checked in the period'),
          })
          .describe("one period's ledger totals"),
      )
      .describe('the ledger by month, oldest first'),
    current: z
      .object({
        period,
        pagesCrawled: count.describe('pages crawled this period'),
        pagesRendered: count.describe('pages rendered this period'),
        monitors: count.describe('uptime monitors configured on the site now'),
        allowances,
      })
      .describe('this period against the allowances'),
  })
  .meta({ id: 'SiteUsage', description: "The site's usage by month and against this period's allowances" });

/** GET /v1/usage: the organization's ledger for one period, per site (deleted sites by hostname). */
export const orgUsageResponse = z
  .object({
    period,
    periods: z.array(period).describe('periods with usage plus the current one, newest first'),
    totals: z
      .object({
        runs: count.describe('runs finished in the period'),
        pages_crawled: count.describe('pages crawled'),
        pages_rendered: count.describe('pages rendered'),
        links_checked: count.describe('links checked'),
      })
      .describe("the organization's totals for the period"),
    allowances: allowances.describe('per site and period'),
    sites: z
      .array(
        z
          .object({
            site_id: z.uuid().describe('the site'),
            hostname: z.string().describe("the site's hostname, kept after it is deleted"),
            deleted: z.boolean().describe('whether the site has been deleted since'),
            runs: count.describe('runs finished in the period'),
            pages_crawled: count.describe('pages crawled'),
            pages_rendered: count.describe('pages rendered'),
            links_checked: count.describe('links checked'),
            over_allowance: z
              .object({
                pages_crawled: count.describe('pages crawled beyond the allowance'),
                pages_rendered: count.describe('pages rendered beyond the allowance'),
              })
              .describe('usage beyond the allowances (billed with overage on)'),
            in_progress: z
              .object({
                pages_crawled: count.describe('pages crawled by the running crawl so far'),
                pages_rendered: count.describe('pages rendered by the running accessibility pass so far'),
              })
              .describe(
                'pages of crawls and render passes still running that started in the period: not in the ledger until they finish, but counted by the allowance (0 for a deleted site)',
              ),
            monitors: count.describe('uptime monitors configured on the site now (0 for a deleted site)'),
          })
          .describe("one site's usage in the period"),
      )
      .describe('per site, deleted sites included'),
  })
  .meta({ id: 'OrgUsage', description: "The organization's usage for one billing period, per site" });

/** What the usage service answers is exactly these schemas' output: typecheck fails on drift. */
export type UsageServiceMatchesSchemas = [
  Holds<Same<SiteUsage, z.output<typeof siteUsageResponse>>>,
  Holds<Same<OrgUsage, z.output<typeof orgUsageResponse>>>,
];
