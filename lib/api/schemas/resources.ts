import { z } from 'zod';
import type { A11yLiveState } from '@/lib/a11y/live';
import type { LiveCrawlState } from '@/lib/crawl/live';
import type { BrokenLinkReport, BrokenLinkResource } from '@/lib/crawl/report';
import type { TriggerCrawlResult } from '@/lib/crawl/service';
import { RUN_LIMITS } from '@/lib/db/schema';
import type { SiteQuota } from '@/lib/sites/quota';
import type { RunResource, SiteResource } from '@/lib/sites/resource';
import type { SiteStatus } from '@/lib/status/service';
import type { Holds, Same } from './common';

/*
 * The spec's persisted resources as they appear in responses: snake_case, 0/1 flags, epoch
 * milliseconds. They document the API (OpenAPI) and, under test, every response is checked
 * against them, so a field that drifts fails a test rather than a customer's integration.
 */

const flag = z.union([z.literal(0), z.literal(1)]);
const ms = z.int().describe('epoch milliseconds');
const msOrNull = ms.nullable();
const count = z.int().min(0);

export const siteSchema = z
  .object({
    id: z.uuid(),
    tenant_id: z.string(),
    hostname: z.string().describe('derived from root_url; the crawl whitelist'),
    root_url: z.url(),
    cadence_minutes: z.int(),
    max_pages: z.int(),
    max_concurrency: z.int(),
    enabled: flag.describe('1 if actively scheduled'),
    last_run_at: msOrNull,
    next_run_at: msOrNull,
    created_at: ms,
    scanner_enabled: flag,
    a11y_enabled: flag,
    a11y_cadence_minutes: z.int().nullable().describe('null falls back to cadence_minutes'),
    a11y_next_run_at: msOrNull,
    performance_enabled: flag,
    uptime_enabled: flag,
    seo_enabled: flag,
    fielddata_status: z.enum(['ok', 'no-data']).nullable(),
    fielddata_checked_at: msOrNull,
    exclude_paths: z.string().describe('JSON-encoded array of glob patterns'),
    strip_params: z.string().describe('JSON-encoded array of query-parameter names'),
  })
  .strict()
  .meta({ title: 'Site' });

export const runSchema = z
  .object({
    id: z.uuid(),
    site_id: z.uuid(),
    tenant_id: z.string(),
    started_at: ms,
    finished_at: msOrNull,
    state: z.enum(['running', 'completed', 'failed']),
    kind: z.enum(['crawl', 'a11y']),
    pages_crawled: count,
    links_checked: count,
    broken_count: count.describe('distinct broken targets'),
    pages_with_broken_count: count,
    internal_broken: count,
    external_broken: count,
    a11y_score: z.int().min(0).max(100).nullable(),
    a11y_critical: count,
    a11y_serious: count,
    a11y_moderate: count,
    a11y_minor: count,
    a11y_pages_scanned: count,
    a11y_issue_count: count,
    a11y_resolved: count,
    seo_score: z.int().min(0).max(100).nullable(),
    seo_critical: count,
    seo_serious: count,
    seo_moderate: count,
    seo_minor: count,
    seo_pages_scanned: count,
    seo_issue_count: count,
    error: z.string().nullable(),
    cut_short: flag.describe(
      '1 when a limit stopped part of the run (see limits_hit): the result is partial',
    ),
    limits_hit: z
      .array(
        z
          .object({
            limit: z.enum(RUN_LIMITS),
            detail: z.string().describe('what was left out, in plain words'),
          })
          .strict(),
      )
      .describe('each limit the run hit, once, in the order hit'),
  })
  .strict()
  .meta({ title: 'Run' });

export const liveCrawlStateSchema = z
  .object({
    state: z.enum(['seeding', 'crawling', 'idle']),
    runId: z.uuid().nullable(),
    pagesCrawled: count,
    linksChecked: count,
    brokenCount: count,
    inFlight: count,
    pending: count,
    window: count,
  })
  .strict()
  .meta({ title: 'LiveCrawlState' });

export const a11yLiveStateSchema = z
  .object({
    state: z
      .enum(['idle', 'rendering'])
      .describe('rendering from the pass seeding its pages until its run is finalized'),
    runId: z.uuid().nullable().describe('the run whose pass renders: an a11y run or the chained crawl'),
    pagesRendered: count.describe('pages of the pass done so far, scanned or recorded as not scanned'),
    pagesTotal: count.describe('pages the pass renders (0 until it has seeded them)'),
  })
  .strict()
  .meta({ title: 'A11yLiveState' });

export const brokenLinkSchema = z
  .object({
    id: z.uuid(),
    run_id: z.uuid(),
    tenant_id: z.string(),
    source_url: z.string(),
    target_url: z.string(),
    status: z.enum(['broken', 'error']),
    status_code: z.int().nullable(),
    kind: z.enum(['internal', 'external']),
    redirect_chain: z.string().nullable().describe('JSON array of {status, url} hops'),
    detail: z.string().nullable(),
    created_at: ms,
    link_text: z.string().nullable(),
    link_selector: z.string().nullable(),
    link_attrs: z.string().nullable().describe('JSON of id, class, rel, title, aria-label'),
  })
  .strict()
  .meta({ title: 'BrokenLink' });

/*
 * These schemas are the one description of each resource: the dashboard's types are their
 * `z.output`, and the domain code that shapes them (the pickers in lib/sites/resource.ts and
 * lib/crawl/report.ts, the live crawl state, the site quota) must produce exactly their output. A
 * field added to, dropped from or retyped in one and not the other fails typecheck on the lines
 * below.
 */
export type DomainResultsMatchSchemas = [
  Holds<Same<SiteResource, z.output<typeof siteSchema>>>,
  Holds<Same<RunResource, z.output<typeof runSchema>>>,
  Holds<Same<BrokenLinkResource, z.output<typeof brokenLinkSchema>>>,
  Holds<Same<LiveCrawlState, z.output<typeof liveCrawlStateSchema>>>,
  Holds<Same<A11yLiveState, z.output<typeof a11yLiveStateSchema>>>,
  Holds<Same<SiteQuota, z.output<typeof siteQuotaSchema>>>,
];

export const siteResponse = z.object({ site: siteSchema });
export const siteQuotaSchema = z.object({ count, included: count, overageEnabled: z.boolean() }).strict();
export const listSitesResponse = z.object({ sites: z.array(siteSchema), quota: siteQuotaSchema });
export const deleteSiteResponse = z.object({ deleted: z.literal(true) });
export const siteStatusResponse = z.object({
  site: siteSchema,
  live: liveCrawlStateSchema,
  a11yLive: a11yLiveStateSchema,
  latestRun: runSchema.nullable().describe('the latest crawl run'),
  latestA11yRun: runSchema
    .nullable()
    .describe(
      'the latest run that scanned or is scanning accessibility: an a11y run or a crawl chaining the pass',
    ),
});
export const crawlTriggerResponse = z.object({ started: z.boolean(), status: liveCrawlStateSchema });
/** The run both reports' new/fixed lists compare with (lib/crawl/history.ts previousCompletedRun). */
export const previousRunIdSchema = z
  .uuid()
  .nullable()
  .describe('the latest completed crawl of the site started before this one; null: none, nothing compared');
export const brokenLinkReportResponse = z.object({
  run: runSchema,
  brokenLinks: z.array(brokenLinkSchema),
  sincePreviousRun: z
    .object({
      previousRunId: previousRunIdSchema,
      newTargets: z
        .array(z.string())
        .describe('broken targets of this report the previous run did not report broken, in code-unit order'),
      fixedTargets: z
        .array(z.string())
        .describe('targets the previous run reported broken that this run does not, in code-unit order'),
    })
    .describe("what changed since the previous run, with the site's current excludePaths applied to both"),
});

/** The composed responses, likewise: typecheck fails if a service's result drifts from its schema. */
export type ServiceResultsMatchSchemas = [
  Holds<Same<SiteStatus, z.output<typeof siteStatusResponse>>>,
  Holds<Same<TriggerCrawlResult, z.output<typeof crawlTriggerResponse>>>,
  Holds<Same<BrokenLinkReport, z.output<typeof brokenLinkReportResponse>>>,
];
