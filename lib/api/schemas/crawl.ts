import { z } from 'zod';
import type { SeoReportResponse } from '@/lib/crawl/report';
import { SEO_CHECKS } from '@/lib/seo/checks';
import { type Holds, type Same, strictBoolean } from './common';
import { previousRunIdSchema, runSchema } from './resources';

/**
 * POST /v1/sites/{id}/crawl. The body is optional: the default is a full scan that chains the
 * accessibility pass when that app is on; `chainA11y: false` gives a links-only run.
 */
export const triggerCrawlBody = z.object({ chainA11y: strictBoolean().optional() }).strict().optional();
export type TriggerCrawlBody = z.infer<typeof triggerCrawlBody>;

const count = z.int().min(0);
const impact = z.enum(['critical', 'serious', 'moderate', 'minor']);

const seoIssueKey = z.object({ check: z.enum(SEO_CHECKS.map((c) => c.id)), pageUrl: z.string() });

/** GET /v1/sites/{id}/seo-report: the latest crawl's SEO issues grouped by check. */
export const seoReportResponse = z.object({
  run: runSchema,
  score: z.int().min(0).max(100).nullable().describe('after the current excludePaths'),
  pagesScanned: count,
  summary: z.object({
    issueCount: count,
    pagesAffected: count,
    checksFailing: count,
    critical: count,
    serious: count,
    moderate: count,
    minor: count,
  }),
  checks: z.array(
    z.object({
      check: z.enum(SEO_CHECKS.map((c) => c.id)),
      title: z.string(),
      impact,
      help: z.string(),
      pages: z.array(
        z.object({
          pageUrl: z.string(),
          detail: z.string(),
          value: z.union([z.string(), z.number()]).optional(),
        }),
      ),
      count,
    }),
  ),
  sincePreviousRun: z
    .object({
      previousRunId: previousRunIdSchema,
      newIssues: z.array(seoIssueKey).describe('issues the previous run did not have, by page then check'),
      fixedIssues: z
        .array(seoIssueKey)
        .describe('issues of the previous run gone in this one, by page then check'),
    })
    .describe(
      '(check, page) issues that appeared or went away since the previous run, current excludePaths applied',
    ),
});

/** What the report service answers is exactly this schema's output: typecheck fails on drift. */
export type SeoReportMatchesSchema = Holds<Same<SeoReportResponse, z.output<typeof seoReportResponse>>>;
