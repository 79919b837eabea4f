import { z } from 'zod';
import type { A11yLiveState } from '@/lib/a11y/runs/live';
import type { TriggerCrawlResult } from '@/lib/crawl/service';
import { MAX_LISTED_CHANGES } from '@/lib/crawl/views/history';
import type { LiveCrawlState } from '@/lib/crawl/views/live';
import type { BrokenLinkReport, BrokenLinkResource } from '@/lib/crawl/views/report';
import { RUN_LIMITS } from '@/lib/db/schema';
import type { SiteQuota } from '@/lib/sites/quota';
import type { RunResource, SiteResource } from '@/lib/sites/resource';
import type { SiteStatus } from '@/lib/status/service';
import type { Holds, Same } from './common';
import { siteCrawlsSchema } from './site-crawls';

/*
 * The spec's persisted resources as they appear in responses: snake_case, 0/1 flags, epoch
 * milliseconds. They document the API (OpenAPI) and, under test, every response is checked
 * against them, so a field that drifts fails a test rather than a customer's integration.
 */

const flag = z.literal([0, 1]);
const ms = z.int().describe('epoch milliseconds');
const count = z.int().min(0);
const uuid = (description: string) => z.uuid().describe(description);
const tenantId = z.string().describe('the owning organization');
/** An integer epoch-milliseconds time, or null, saying what it is and what null means. */
const timeOrNull = (what: string) => z.int().nullable().describe(`${what} (epoch milliseconds)`);

export const siteSchema = z
  .object({
    id: uuid("the site's id"),
    tenant_id: tenantId,
    hostname: z.string().describe('derived from root_url; the crawl whitelist'),
    root_url: z.url().describe('the http(s) URL the crawl starts from'),
    cadence_minutes: z.int().describe('minutes between scheduled crawls'),
    max_pages: z.int().describe('pages a crawl fetches at most; set at creation'),
    max_concurrency: z.int().describe("ceiling of the crawl's adaptive in-flight window; set at creation"),
    enabled: flag.describe('1 if actively scheduled'),
    last_run_at: timeOrNull('when the last crawl of any origin started; null: never crawled'),
    next_run_at: timeOrNull('when the next scheduled crawl is due; null: no crawl app on'),
    created_at: ms.describe('when the site was registered (epoch milliseconds)'),
    scanner_enabled: flag.describe('1: the Broken Links app is on'),
    a11y_enabled: flag.describe('1: the Accessibility app is on'),
    a11y_cadence_minutes: z
      .int()
      .nullable()
      .describe('minutes between accessibility scans; null falls back to cadence_minutes'),
    a11y_next_run_at: timeOrNull('when the next standalone accessibility scan is due; null: none scheduled'),
    performance_enabled: flag.describe('1: the Performance app (field data) is on'),
    uptime_enabled: flag.describe("1: the Uptime app is on; 0 stops probing but keeps the site's monitors"),
    seo_enabled: flag.describe('1: the SEO app is on'),
    fielddata_status: z
      .enum(['ok', 'no-data'])
      .nullable()
      .describe(
        'null: never checked; ok: the origin has field data; no-data: the origin is not in the dataset',
      ),
    fielddata_checked_at: timeOrNull('the last field-data sync; null: never'),
    exclude_paths: z
      .string()
      .describe('JSON-encoded array of glob patterns for internal paths never crawled'),
    strip_params: z.string().describe('JSON-encoded array of query-parameter names dropped before crawling'),
  })
  .strict()
  .meta({ id: 'Site', description: 'A registered website, its schedule and its apps' });

const impactCount = (app: string, impact: string) => count.describe(`${app} issues of ${impact} impact`);

export const runSchema = z
  .object({
    id: uuid("the run's id"),
    site_id: uuid('the site crawled or scanned'),
    tenant_id: tenantId,
    started_at: ms.describe('when the run started (epoch milliseconds)'),
    finished_at: timeOrNull('when the run ended; null while it runs'),
    state: z.enum(['running', 'completed', 'failed']).describe('failed: see error'),
    kind: z
      .enum(['crawl', 'a11y'])
      .describe(
        'crawl: a broken-link crawl (with SEO, and possibly the accessibility pass chained); a11y: a standalone accessibility scan',
      ),
    pages_crawled: count.describe('pages fetched and parsed'),
    links_checked: count.describe('distinct URLs checked'),
    broken_count: count.describe('distinct broken targets'),
    pages_with_broken_count: count.describe('distinct source pages with at least one broken link'),
    internal_broken: count.describe('distinct broken targets on the site hostname'),
    external_broken: count.describe('distinct broken targets on other hosts'),
    a11y_score: z
      .int()
      .min(0)
      .max(100)
      .nullable()
      .describe(
        "accessibility score 0-100; null when the run did not scan. The latest scanning run's is recomputed when suppressions or excludePaths change, so it agrees with the report",
      ),
    a11y_scan_score: z
      .int()
      .min(0)
      .max(100)
      .nullable()
      .describe(
        'the accessibility score as the run finished (the suppressions and excludePaths of that moment), never recomputed: what History shows; null when the run did not scan. Not in the spec',
      ),
    a11y_critical: impactCount('confirmed accessibility', 'critical'),
    a11y_serious: impactCount('confirmed accessibility', 'serious'),
    a11y_moderate: impactCount('confirmed accessibility', 'moderate'),
    a11y_minor: impactCount('confirmed accessibility', 'minor'),
    a11y_pages_scanned: count.describe('pages the accessibility scan rendered and checked'),
    a11y_issue_count: count.describe(
      'distinct confirmed (page, rule) violations of a standalone accessibility run; always 0 for crawl runs (the spec fixes it): a crawl that chained the accessibility pass counts its violations in a11y_critical + a11y_serious + a11y_moderate + a11y_minor, and GET /v1/sites/{id}/a11y-report lists them',
    ),
    a11y_resolved: count.describe(
      'violations present in the previous accessibility run and gone in this one',
    ),
    seo_score: z
      .int()
      .min(0)
      .max(100)
      .nullable()
      .describe('SEO score 0-100; null when no SEO data was extracted'),
    seo_critical: impactCount('SEO', 'critical'),
    seo_serious: impactCount('SEO', 'serious'),
    seo_moderate: impactCount('SEO', 'moderate'),
    seo_minor: impactCount('SEO', 'minor'),
    seo_pages_scanned: count.describe('pages whose SEO facts were extracted (at most pages_crawled)'),
    seo_issue_count: count.describe('SEO issues derived when the run finalized'),
    error: z.string().nullable().describe('the failure reason when state is failed, else null'),
    cut_short: flag.describe(
      '1 when a limit stopped part of the run (see limits_hit): the result is partial',
    ),
    limits_hit: z
      .array(
        z
          .object({
            limit: z.enum(RUN_LIMITS).describe('which limit'),
            detail: z.string().describe('what was left out, in plain words'),
          })
          .strict()
          .describe('a limit the run hit'),
      )
      .describe('each limit the run hit, once, in the order hit'),
  })
  .strict()
  .meta({
    id: 'Run',
    description: 'One crawl run or standalone accessibility scan of a site, with its headline counts',
  });

export const liveCrawlStateSchema = z
  .object({
    state: z
      .enum(['seeding', 'crawling', 'idle'])
      .describe(
        'seeding: reading robots.txt and sitemaps; crawling: working the frontier; idle: no crawl running',
      ),
    runId: z.uuid().nullable().describe('the running crawl; null when idle'),
    pagesCrawled: count.describe('pages fetched and parsed so far'),
    linksChecked: count.describe('distinct URLs checked so far'),
    brokenCount: count.describe('broken targets found so far'),
    inFlight: count.describe('URLs currently leased and being checked'),
    pending: count.describe('URLs waiting in the frontier'),
    window: count.describe('adaptive in-flight window size'),
  })
  .strict()
  .meta({ id: 'LiveCrawlState', description: "The site's crawl as it runs (camelCase, not persisted)" });

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
  .meta({
    id: 'A11yLiveState',
    description: 'The accessibility render pass as it runs, shaped like LiveCrawlState',
  });

export const brokenLinkSchema = z
  .object({
    id: uuid("the row's id"),
    run_id: uuid('the crawl run that found it'),
    tenant_id: tenantId,
    source_url: z.string().describe('the page that contained the link'),
    target_url: z
      .string()
      .describe('the broken target, as linked (a link that is not a URL is kept as written)'),
    status: z
      .enum(['broken', 'error'])
      .describe('broken: a definitive failure status; error: the target could not be reached'),
    status_code: z.int().nullable().describe('the final HTTP status; null if no response'),
    kind: z.enum(['internal', 'external']).describe('internal: on the site hostname'),
    redirect_chain: z.string().nullable().describe('JSON array of {status, url} hops; null: no redirect'),
    detail: z.string().nullable().describe('the reason in plain words'),
    created_at: ms.describe('when the row was recorded (epoch milliseconds)'),
    link_text: z.string().nullable().describe('anchor text, else alt, aria-label or title (best effort)'),
    link_selector: z
      .string()
      .nullable()
      .describe('positional CSS selector of the linking element (best effort)'),
    link_attrs: z.string().nullable().describe('JSON of id, class, rel, title, aria-label'),
  })
  .strict()
  .meta({ id: 'BrokenLink', description: 'One broken target as linked from one page' });

/*
 * These schemas are the one description of each resource: the dashboard's types are their
 * `z.output`, and the domain code that shapes them (the pickers in lib/sites/resource.ts and
 * lib/crawl/views/report.ts, the live crawl state, the site quota) must produce exactly their output. A
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

export const siteResponse = z.object({ site: siteSchema.describe('the site') }).describe('The site');
export const siteQuotaSchema = z
  .object({
    count: count.describe('sites the organization has registered'),
    included: count.describe('sites included in the subscription'),
    overageEnabled: z.boolean().describe('whether sites beyond the included ones may be added (billed)'),
  })
  .strict()
  .meta({ id: 'SiteQuota', description: "The organization's site slots" });
export const listSitesResponse = z
  .object({
    sites: z.array(siteSchema).describe('the sites visible to the caller'),
    quota: siteQuotaSchema.describe("the organization's site slots"),
    crawls: z.array(siteCrawlsSchema).describe("each listed site's crawls at a glance, by siteId"),
  })
  .describe('The sites, the quota and their crawls at a glance');
export const deleteSiteResponse = z
  .object({ deleted: z.literal(true).describe('always true') })
  .describe('The site was deleted');
export const siteStatusResponse = z
  .object({
    site: siteSchema.describe('the site'),
    live: liveCrawlStateSchema.describe('the crawl as it runs'),
    a11yLive: a11yLiveStateSchema.describe('the accessibility render pass as it runs'),
    latestRun: runSchema.nullable().describe('the latest crawl run'),
    latestA11yRun: runSchema
      .nullable()
      .describe(
        'the latest run that scanned or is scanning accessibility: an a11y run or a crawl chaining the pass',
      ),
  })
  .meta({ id: 'SiteStatus', description: 'The site, its live states and its latest runs' });
export const crawlTriggerResponse = z
  .object({
    started: z.boolean().describe('true: this request started a crawl; false: one was already running'),
    status: liveCrawlStateSchema.describe('the crawl as it now stands'),
  })
  .meta({ id: 'CrawlTrigger', description: 'Whether a crawl started, and the live crawl state' });
/** The run both reports' new/fixed lists compare with (lib/crawl/views/history.ts previousCompletedRun). */
export const previousRunIdSchema = z
  .uuid()
  .nullable()
  .describe('the latest completed crawl of the site started before this one; null: none, nothing compared');
/** New and fixed broken targets since the previous run: the report's and the grouped list's. */
export const brokenTargetChangesSchema = z
  .object({
    previousRunId: previousRunIdSchema,
    newTargets: z
      .array(z.string())
      .describe(
        `the first ${MAX_LISTED_CHANGES} broken targets of this report the previous run did not report broken, in code-unit order`,
      ),
    fixedTargets: z
      .array(z.string())
      .describe(
        `the first ${MAX_LISTED_CHANGES} targets the previous run reported broken that this run does not, in code-unit order`,
      ),
    newTargetCount: count.describe('new targets in all (newTargets lists the first of them)'),
    fixedTargetCount: count.describe('fixed targets in all (fixedTargets lists the first of them)'),
  })
  .describe("what changed since the previous run, with the site's current excludePaths applied to both");

export const brokenLinkReportResponse = z
  .object({
    run: runSchema.describe("the report's crawl run, its headline counts after the current excludePaths"),
    brokenLinks: z
      .array(brokenLinkSchema)
      .describe('one row per (broken target, linking page), ordered by target then source URL'),
    sincePreviousRun: brokenTargetChangesSchema,
  })
  .meta({
    id: 'BrokenLinkReport',
    description: "The dead-link report of one crawl, with the site's current excludePaths applied",
  });

/** The composed responses, likewise: typecheck fails if a service's result drifts from its schema. */
export type ServiceResultsMatchSchemas = [
  Holds<Same<SiteStatus, z.output<typeof siteStatusResponse>>>,
  Holds<Same<TriggerCrawlResult, z.output<typeof crawlTriggerResponse>>>,
  Holds<Same<BrokenLinkReport, z.output<typeof brokenLinkReportResponse>>>,
];
