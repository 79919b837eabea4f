import { z } from 'zod';
import {
  BROKEN_STATUS_CLASSES,
  BROKEN_TARGET_SORTS,
  type BrokenTargetPage,
  DEFAULT_TARGETS_PAGE,
  MAX_TARGETS_PAGE,
  SOURCES_PER_TARGET,
} from '@/lib/crawl/views/broken-targets';
import {
  DEFAULT_REDIRECTS_PAGE,
  LINKING_PAGES_PER_REDIRECT,
  MAX_REDIRECTS_PAGE,
  REDIRECT_SORTS,
  type RedirectPage,
} from '@/lib/crawl/views/redirects';
import { DEFAULT_INLINKS_PAGE, MAX_INLINKS_PAGE, type UrlDetail } from '@/lib/crawl/views/url-detail';
import { SEO_CHECKS } from '@/lib/seo/checks';
import type { Holds, Same } from './common';
import { crawledUrlSchema, cursor, queryInt } from './history';
import { brokenTargetChangesSchema, runSchema } from './resources';

/*
 * The crawl's report views beyond the spec's flat report: broken links grouped by target, the
 * redirects, and one URL with its links and issues (issue 12).
 */

const kind = z.enum(['internal', 'external']);
const order = z.enum(['asc', 'desc']);
const search = z.string().min(1).max(200);

const linkSource = z
  .object({
    source_url: z.string().describe('the crawled page the link is on'),
    link_text: z.string().nullable().describe('anchor text, else alt, aria-label or title (best effort)'),
    link_selector: z
      .string()
      .nullable()
      .describe('positional CSS selector of the linking element; null when too deep to name'),
  })
  .strict()
  .meta({ id: 'LinkSource', description: 'A place a URL is linked from: the page and the element' });

/** GET /v1/sites/{id}/broken-targets and /runs/{runId}/broken-targets. */
export const brokenTargetsQuery = z.object({
  limit: queryInt(1, MAX_TARGETS_PAGE)
    .optional()
    .describe(`targets per page, default ${DEFAULT_TARGETS_PAGE}`),
  cursor: cursor.optional(),
  q: search.optional().describe('case-insensitive substring of the target URL or of a linking page URL'),
  kind: kind.optional().describe('internal: targets on the site hostname only; external: on other hosts'),
  status: z
    .enum(BROKEN_STATUS_CLASSES)
    .optional()
    .describe("class of the target's final status; error: no HTTP status (unreachable, not a URL)"),
  change: z
    .enum(['new'])
    .optional()
    .describe('new: only targets the previous completed crawl did not report broken'),
  sort: z
    .enum(BROKEN_TARGET_SORTS)
    .optional()
    .describe(
      'pages: linking pages (default, descending: sitewide problems first); status: status code (none lowest); kind: internal first; firstSeen; target: URL. Ties go by target URL',
    ),
  order: order.optional().describe('asc or desc; default desc for the default sort, asc for any sort named'),
});

const hopSchema = z
  .object({
    status: z.int().nullable().describe('the HTTP status of this response; null if unknown'),
    url: z.string().describe('the URL that answered'),
  })
  .strict()
  .meta({ id: 'RedirectHop', description: 'One response of a redirect chain' });

const brokenTargetSchema = z
  .object({
    target_url: z
      .string()
      .describe('the broken target as linked (a link that is not a URL is kept as written)'),
    kind: kind.describe('internal: on the site hostname'),
    status: z
      .enum(['broken', 'error'])
      .describe('broken: a definitive failure status; error: the target could not be reached'),
    status_code: z.int().nullable().describe('the final HTTP status; null if no response'),
    detail: z.string().nullable().describe('the reason in plain words'),
    hops: z
      .array(hopSchema)
      .describe("the redirect chain to the target's final answer, its own first; empty: no redirect"),
    linking_pages: z
      .int()
      .min(0)
      .describe("distinct pages linking to the target, after the site's excludePaths"),
    first_seen: z
      .int()
      .describe(
        'start (epoch milliseconds) of the earliest crawl in the unbroken series of completed crawls, up to this one, that reported the target broken',
      ),
    is_new: z.boolean().describe('broken now and not in the previous completed crawl; false without one'),
    sources: z
      .array(linkSource)
      .describe(`the first ${SOURCES_PER_TARGET} linking pages by URL (the flat report has every one)`),
  })
  .strict()
  .meta({ id: 'BrokenTarget', description: 'One broken target and the pages linking to it' });

export const brokenTargetsResponse = z
  .object({
    run: runSchema.describe("the report's crawl run, its headline counts after the current excludePaths"),
    matching: z
      .object({
        targets: z.int().min(0).describe('targets matching the filters, over every page'),
        rows: z.int().min(0).describe('(target, linking page) pairs of those targets'),
      })
      .describe('what the filters match in all'),
    targets: z.array(brokenTargetSchema).describe('this page of targets, in the sort asked for'),
    sincePreviousRun: brokenTargetChangesSchema,
    nextCursor: z
      .string()
      .nullable()
      .describe('pass as ?cursor= (same filters and sort) for the next page; null on the last page'),
  })
  .meta({
    id: 'BrokenTargetList',
    description: 'A page of the dead-link report grouped by target, filtered and sorted',
  });

/** GET /v1/sites/{id}/redirects. */
export const redirectsQuery = z.object({
  limit: queryInt(1, MAX_REDIRECTS_PAGE)
    .optional()
    .describe(`rows per page, default ${DEFAULT_REDIRECTS_PAGE}`),
  cursor: cursor.optional(),
  q: search.optional().describe('case-insensitive substring of the redirecting URL'),
  kind: kind.optional().describe('internal: redirects on the site hostname; external: links to other hosts'),
  sort: z
    .enum(REDIRECT_SORTS)
    .optional()
    .describe('inlinks: crawled pages linking to it (default, descending); url. Ties go by URL'),
  order: order.optional().describe('asc or desc; default desc for the default sort, asc for url'),
});

const redirectSchema = z
  .object({
    url: z.string().describe('the redirecting URL'),
    kind: kind.describe('internal: on the site hostname'),
    status_code: z.int().nullable().describe("the URL's own answer (301, 302, 307, 308, ...)"),
    final_status_code: z
      .int()
      .nullable()
      .describe('the status at the end of the chain; null: no final answer'),
    final_url: z.string().nullable().describe('where the chain ends'),
    verdict: crawledUrlSchema.shape.verdict,
    detail: z.string().nullable().describe('why the chain failed (a loop, too many hops), in plain words'),
    hops: z.array(hopSchema).describe("every response in order, the URL's own first"),
    inlinks: z.int().min(0).nullable().describe('distinct crawled pages linking to the URL'),
    found_on: z.string().nullable().describe('the page where the crawl first found the URL'),
    linking_pages: z
      .array(linkSource)
      .describe(
        `the first ${LINKING_PAGES_PER_REDIRECT} pages linking to it, by URL (url-details lists all)`,
      ),
  })
  .strict()
  .meta({
    id: 'Redirect',
    description: 'A URL that redirected: its chain, how it ended and who links to it',
  });

export const redirectsResponse = z
  .object({
    run: runSchema.describe('the crawl run listed'),
    redirects: z.array(redirectSchema).describe('this page of redirects, in the sort asked for'),
    nextCursor: z
      .string()
      .nullable()
      .describe('pass as ?cursor= (same filters and sort) for the next page; null on the last page'),
  })
  .meta({ id: 'RedirectList', description: 'A page of the redirecting URLs of the latest crawl' });

/** GET /v1/sites/{id}/url-details. */
export const urlDetailsQuery = z.object({
  url: z.string().min(1).max(8192).describe('the URL exactly as the pages list gives it'),
  inlinksLimit: queryInt(1, MAX_INLINKS_PAGE)
    .optional()
    .describe(`linking pages per page, default ${DEFAULT_INLINKS_PAGE}`),
  inlinksCursor: cursor
    .optional()
    .describe('inlinksNextCursor of the previous answer; omitted: the first page'),
});

const checkId = z.enum(SEO_CHECKS.map((c) => c.id));

export const urlDetailsResponse = z
  .object({
    run: runSchema.describe('the crawl run the URL belongs to'),
    page: crawledUrlSchema.describe('the URL as the pages list shows it'),
    hops: z.array(hopSchema).describe("the URL's redirect chain, its own answer first; empty: no redirect"),
    inlinks: z.array(linkSource).describe('crawled pages linking to the URL, by URL, a page at a time'),
    inlinksNextCursor: z
      .string()
      .nullable()
      .describe('pass as ?inlinksCursor= for the next linking pages; null on the last page'),
    outlinks: z
      .array(
        z
          .object({
            target_url: z.string().describe('where the link points'),
            link_text: z
              .string()
              .nullable()
              .describe('anchor text, else alt, aria-label or title (best effort)'),
            link_selector: z.string().nullable().describe('positional CSS selector of the link element'),
            kind: kind.nullable().describe('internal or external; null: the crawl never entered the target'),
            status_code: z.int().nullable().describe("the target's own answer; null: none"),
            final_status_code: z.int().nullable().describe('the status at the end of its redirect chain'),
            verdict: crawledUrlSchema.shape.verdict,
          })
          .strict()
          .meta({
            id: 'Outlink',
            description: 'A link on the page and what the crawl learned of its target',
          }),
      )
      .describe('the links on the page in document order; empty unless it was parsed as a page'),
    seoIssues: z
      .array(
        z
          .object({
            check: checkId.describe("the check's id"),
            title: z.string().describe("the check's name"),
            impact: z.enum(['critical', 'serious', 'moderate', 'minor']).describe('how much it matters'),
            detail: z.string().describe('what is wrong on the page, in plain words'),
          })
          .strict()
          .meta({ id: 'PageSeoIssue', description: 'One SEO check failing on the page' }),
      )
      .describe("the run's SEO issues on this page, most severe first"),
  })
  .meta({
    id: 'UrlDetails',
    description: 'One crawled URL: its answer, redirect chain, inlinks, outlinks and SEO issues',
  });

/** The services answer exactly these schemas' output: typecheck fails on drift. */
export type CrawlViewsMatchSchemas = [
  Holds<Same<BrokenTargetPage, z.output<typeof brokenTargetsResponse>>>,
  Holds<Same<RedirectPage, z.output<typeof redirectsResponse>>>,
  Holds<Same<UrlDetail, z.output<typeof urlDetailsResponse>>>,
];
