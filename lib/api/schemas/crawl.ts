import { z } from 'zod';
import { MAX_LISTED_CHANGES } from '@/lib/crawl/views/history';
import { DEFAULT_SEO_PAGES, MAX_SEO_PAGES, type SeoReportResponse } from '@/lib/crawl/views/seo-report';
import { SEO_CHECKS } from '@/lib/seo/checks';
import { type Holds, type Same, strictBoolean } from './common';
import { cursor, queryInt } from './history';
import { previousRunIdSchema, runSchema } from './resources';

/**
 * POST /v1/sites/{id}/crawl. The body is optional: the default is a full scan that chains the
 * accessibility pass when that app is on; `chainA11y: false` gives a links-only run.
 */
export const triggerCrawlBody = z
  .object({
    chainA11y: strictBoolean()
      .optional()
      .describe('false: a links-only run; default: chain the accessibility pass when that app is on'),
  })
  .strict()
  .optional();
export type TriggerCrawlBody = z.infer<typeof triggerCrawlBody>;

const count = z.int().min(0);
const impact = z.enum(['critical', 'serious', 'moderate', 'minor']);
const checkId = z.enum(SEO_CHECKS.map((c) => c.id));

const seoIssueKey = z
  .object({
    check: checkId.describe('the check failing'),
    pageUrl: z.string().describe('the page it fails on'),
  })
  .meta({ id: 'SeoIssueKey', description: "An SEO issue's identity across runs: a check failing on a page" });

const issuesOf = (impact: string) => count.describe(`issues of ${impact} impact`);

/** GET /v1/sites/{id}/seo-report and /runs/{runId}/seo-report: the whole report, or one check's next pages. */
export const seoReportQuery = z.object({
  pagesPerCheck: queryInt(1, MAX_SEO_PAGES)
    .optional()
    .describe(`pages listed per failing check, default ${DEFAULT_SEO_PAGES} (not with check)`),
  check: checkId
    .optional()
    .describe("only this check, with the next page of its pages (cursor: the check's nextCursor)"),
  cursor: cursor.optional().describe("with check: that check's nextCursor; omitted: its first pages"),
  limit: queryInt(1, MAX_SEO_PAGES)
    .optional()
    .describe(`with check: pages per page, default ${DEFAULT_SEO_PAGES}`),
});

/** GET /v1/sites/{id}/seo-report: the latest crawl's SEO issues grouped by check. */
export const seoReportResponse = z
  .object({
    run: runSchema.describe("the report's crawl run"),
    score: z.int().min(0).max(100).nullable().describe('SEO score 0-100 after the current excludePaths'),
    pagesScanned: count.describe('pages whose SEO facts were extracted, after the current excludePaths'),
    summary: z
      .object({
        issueCount: count.describe('(check, page) issues'),
        pagesAffected: count.describe('distinct pages with at least one issue'),
        checksFailing: count.describe('distinct checks with at least one failing page'),
        critical: issuesOf('critical'),
        serious: issuesOf('serious'),
        moderate: issuesOf('moderate'),
        minor: issuesOf('minor'),
      })
      .describe('the headline counts'),
    checks: z
      .array(
        z
          .object({
            check: checkId.describe("the check's id"),
            title: z.string().describe("the check's name"),
            impact: impact.describe('how much a failure of this check matters'),
            help: z.string().describe('what the check looks for and how to fix a failure'),
            pages: z
              .array(
                z
                  .object({
                    pageUrl: z.string().describe('the page'),
                    detail: z.string().describe('what is wrong on it, in plain words'),
                    value: z
                      .union([z.string(), z.number()])
                      .optional()
                      .describe(
                        'the measured value behind the detail, when there is one: a length, a count, a URL',
                      ),
                  })
                  .describe('one failing page'),
              )
              .describe('a page of the pages failing the check, by URL (see nextCursor)'),
            count: count.describe('pages failing the check, in all'),
            nextCursor: z
              .string()
              .nullable()
              .describe(
                "pass as ?cursor= with ?check= for the check's next pages; null: pages ends the list",
              ),
          })
          .meta({ id: 'SeoCheck', description: 'One SEO check and the pages failing it' }),
      )
      .describe('failing checks, most severe impact first, then those failing on the most pages'),
    sincePreviousRun: z
      .object({
        previousRunId: previousRunIdSchema,
        newIssues: z
          .array(seoIssueKey)
          .describe(
            `the first ${MAX_LISTED_CHANGES} issues the previous run did not have, by page then check`,
          ),
        fixedIssues: z
          .array(seoIssueKey)
          .describe(
            `the first ${MAX_LISTED_CHANGES} issues of the previous run gone in this one, by page then check`,
          ),
        newIssueCount: count.describe('new issues in all (newIssues lists the first of them)'),
        fixedIssueCount: count.describe('fixed issues in all (fixedIssues lists the first of them)'),
      })
      .describe(
        '(check, page) issues that appeared or went away since the previous run, current excludePaths applied',
      ),
  })
  .meta({
    id: 'SeoReport',
    description:
      "The SEO issues of one crawl, grouped by check, with the site's current excludePaths applied",
  });

/** What the report service answers is exactly this schema's output: typecheck fails on drift. */
export type SeoReportMatchesSchema = Holds<Same<SeoReportResponse, z.output<typeof seoReportResponse>>>;
