import { z } from 'zod';
import { notFound } from '@/lib/api/errors';
import type { RunPage } from '@/lib/crawl/views/history';
import { DEFAULT_RUNS_PAGE, MAX_RUNS_PAGE } from '@/lib/crawl/views/history';
import {
  type CrawledUrlPage,
  DEFAULT_PAGES_PAGE,
  MAX_PAGES_PAGE,
  PAGE_SORTS,
  PAGE_STATUS_CLASSES,
} from '@/lib/crawl/views/pages';
import { type Holds, pathId, type Same } from './common';
import { runSchema } from './resources';
import { siteIdParams } from './sites';

/** Path `{id}` and `{runId}`: a malformed run id is the same 404 as an unknown one. */
export const runIdParams = siteIdParams.extend({
  runId: pathId(() => notFound('run not found')).describe("the run's id (a run of the site)"),
});

/**
 * A whole number in a query string ("20"), within [min, max]; the message names the bound. The API
 * reference calls it the integer it is (a query string is text either way), so a generated client
 * takes a number.
 */
export const queryInt = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(
      z
        .int()
        .min(min, { error: `must be at least ${min}` })
        .max(max, { error: `must be at most ${max}` }),
    )
    .meta({ type: 'integer', minimum: min, maximum: max });

export const cursor = z
  .string()
  .max(4096)
  .describe('nextCursor of the previous page; omitted: the first page');

/** GET /v1/sites/{id}/runs. */
export const runsQuery = z.object({
  limit: queryInt(1, MAX_RUNS_PAGE).optional().describe(`runs per page, default ${DEFAULT_RUNS_PAGE}`),
  cursor: cursor.optional(),
  kind: z.enum(['crawl', 'a11y']).optional().describe('only runs of this kind; omitted: both'),
});

export const runsResponse = z
  .object({
    runs: z.array(runSchema).describe('newest first (started_at, then id)'),
    nextCursor: z.string().nullable().describe('pass as ?cursor= for the next page; null on the last page'),
  })
  .meta({ id: 'RunList', description: "A page of the site's runs, newest first" });

/** GET /v1/sites/{id}/pages and /runs/{runId}/pages. */
export const pagesQuery = z.object({
  limit: queryInt(1, MAX_PAGES_PAGE).optional().describe(`rows per page, default ${DEFAULT_PAGES_PAGE}`),
  cursor: cursor.optional(),
  status: z
    .enum(PAGE_STATUS_CLASSES)
    .optional()
    .describe("class of the URL's own status; error: no HTTP answer (network failure, timeout, not a URL)"),
  kind: z.enum(['internal', 'external']).optional().describe('internal: URLs on the site hostname only'),
  contentType: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe('a media type (text/html), or a type with a trailing slash (image/) for all of its subtypes'),
  depth: queryInt(0, 1_000_000).optional().describe('only URLs found at this many links from the root'),
  q: z.string().min(1).max(200).optional().describe('case-insensitive substring of the URL or the title'),
  sort: z
    .enum(PAGE_SORTS)
    .optional()
    .describe(
      'default url; ties are broken by url; rows without the value (no status, no response time) sort as lowest',
    ),
  order: z.enum(['asc', 'desc']).optional().describe('default asc'),
});

export const crawledUrlSchema = z
  .object({
    url: z
      .string()
      .describe('the URL as the crawl keys it (normalized, fragment and stripped parameters removed)'),
    kind: z.enum(['internal', 'external']).describe('internal: on the site hostname'),
    depth: z.int().min(0).describe('links from the root URL to where the URL was first found'),
    status_code: z
      .int()
      .nullable()
      .describe("the URL's own answer: the first hop's status when it redirected; null: no HTTP answer"),
    final_status_code: z.int().nullable().describe('the status at the end of the redirect chain'),
    redirect_target: z.string().nullable().describe('where the redirect chain ends; null: no redirect'),
    verdict: z
      .enum(['ok', 'broken', 'error', 'unverifiable', 'skipped'])
      .nullable()
      .describe('the link check outcome; null while the URL is still queued'),
    detail: z.string().nullable().describe('why the URL is broken, an error or skipped, in plain words'),
    content_type: z
      .string()
      .nullable()
      .describe(
        'media type of the final response, lowercase, without parameters; null: no response or header',
      ),
    response_ms: z
      .int()
      .min(0)
      .nullable()
      .describe('milliseconds from the request to the final response as the crawler read it, hops included'),
    title: z.string().nullable().describe("the page's <title> (pages parsed with the SEO app on), else null"),
    inlinks: z
      .int()
      .min(0)
      .nullable()
      .describe('distinct crawled pages linking to the URL; null until the run is finalized'),
    outlinks: z.int().min(0).nullable().describe('distinct links on the page; null: not parsed as a page'),
    is_page: z.literal([0, 1]).describe('1: fetched and parsed as a page'),
    is_asset: z.literal([0, 1]).describe('1: only seen as an embedded resource'),
    found_on: z.string().nullable().describe('the page where the crawl first found the URL'),
  })
  .strict()
  .meta({
    id: 'Page',
    description:
      'One URL a crawl discovered: a page it crawled, an internal URL it checked, an external target or an embedded resource',
  });

export const pagesResponse = z
  .object({
    run: runSchema.describe('the crawl run listed'),
    pages: z.array(crawledUrlSchema).describe('the rows of this page, in the sort asked for'),
    nextCursor: z
      .string()
      .nullable()
      .describe('pass as ?cursor= (same filters and sort) for the next page; null on the last page'),
  })
  .meta({ id: 'PageList', description: 'A page of the URLs one crawl discovered' });

/** The services answer exactly these schemas' output: typecheck fails on drift. */
export type HistoryResultsMatchSchemas = [
  Holds<Same<RunPage, z.output<typeof runsResponse>>>,
  Holds<Same<CrawledUrlPage, z.output<typeof pagesResponse>>>,
];
