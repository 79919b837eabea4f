import { type SQL, sql } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { containsPattern } from '@/lib/db/like';
import { queryRows } from '@/lib/db/rows';
import { crawlUrlOutlinks, crawlUrlOwnStatus } from '@/lib/db/schema';
import { NotFoundError } from '@/lib/errors';
import { getVisibleSite } from '@/lib/sites/access';
import { type RunResource, runResource } from '@/lib/sites/resource';
import { decodeCursor, encodeCursor } from './cursor';
import { reportRun } from './history';

export const DEFAULT_PAGES_PAGE = 100;
export const MAX_PAGES_PAGE = 500;
export const PAGE_STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx', 'error'] as const;
export const PAGE_SORTS = ['url', 'status', 'depth', 'inlinks', 'outlinks', 'responseTime'] as const;

export interface PagesQuery {
  limit?: number;
  cursor?: string;
  /** `error`: no HTTP answer at all (network failure, timeout, a link that is not a URL). */
  status?: (typeof PAGE_STATUS_CLASSES)[number];
  kind?: 'internal' | 'external';
  /** A media type (`text/html`), or a top-level type with a slash (`image/`) for all of its kinds. */
  contentType?: string;
  depth?: number;
  /** Case-insensitive substring of the URL or the title. */
  q?: string;
  sort?: (typeof PAGE_SORTS)[number];
  order?: 'asc' | 'desc';
}

/** One URL of a crawl's frontier as GET /v1/sites/{id}/pages lists it. */
export interface CrawledUrlResource {
  url: string;
  kind: 'internal' | 'external';
  depth: number;
  /** The URL's own answer: the first hop's status when it redirected, else the final one. */
  status_code: number | null;
  /** The status at the end of the redirect chain (equal to status_code without redirects). */
  final_status_code: number | null;
  redirect_target: string | null;
  verdict: 'ok' | 'broken' | 'error' | 'unverifiable' | 'skipped' | null;
  detail: string | null;
  content_type: string | null;
  response_ms: number | null;
  title: string | null;
  inlinks: number | null;
  outlinks: number | null;
  is_page: 0 | 1;
  is_asset: 0 | 1;
  found_on: string | null;
}

export interface CrawledUrlPage {
  run: RunResource;
  pages: CrawledUrlResource[];
  nextCursor: string | null;
}

/*
 * The row as listed, so that filters, the sort and the keyset compare the same expressions. The
 * sort key is never null (-1 stands for "no status" or "not parsed"), so the keyset comparison
 * `(key, url) > (k, u)` is total; url is unique within a run and compares byte by byte (the column
 * is COLLATE "C", migration 0005), the order JavaScript sees too. Postgres flattens this subquery
 * and computes only the expressions a query uses, so picking a page costs the sort key (and the
 * filters) per row, and the rest (the redirect chain's JSON, the title) only for the rows shown.
 * Each sort key, flattened, is the expression of a crawl_urls index over the rows whose inlinks were
 * counted (migrations 0013, 0014): `indexed` adds `inlinks is not null`, true of every row of a run
 * finalized since migration 0009, so a page of a finished run under any sort is read from its index
 * instead of sorted from all of the run's rows. A running crawl's rows are not indexed (nothing to
 * maintain while it writes them).
 */
export const listed = (runId: string, indexed = false) => sql`
  select url, kind, depth, verdict, detail, found_on, is_page, is_asset, status_code as final_status_code,
         content_type, response_ms, inlinks,
         ${crawlUrlOwnStatus} as status_code,
         case when jsonb_array_length(coalesce(redirect_chain, '[]'::jsonb)) > 1
              then redirect_chain -> -1 ->> 'url' end as redirect_target,
         seo_facts ->> 'title' as title,
         ${crawlUrlOutlinks} as outlinks
  from crawl_urls where run_id = ${runId}::uuid${indexed ? sql` and inlinks is not null` : sql``}`;

/** The sort's key before url, which breaks ties (url alone for the url sort). */
const SORT_KEY: Record<Exclude<(typeof PAGE_SORTS)[number], 'url'>, SQL> = {
  status: sql`coalesce(status_code, -1)`,
  depth: sql`depth`,
  inlinks: sql`coalesce(inlinks, -1)`,
  outlinks: sql`coalesce(outlinks, -1)`,
  responseTime: sql`coalesce(response_ms, -1)`,
};

/**
 * GET /v1/sites/{id}/pages and /runs/{runId}/pages: every URL the crawl discovered (pages crawled,
 * internal URLs only checked, external targets, embedded resources), filtered, sorted and paged by
 * keyset: the cursor carries the last row's (sort key, url), so every row shows exactly once across
 * pages whatever the sort, and a page costs the same at row 90,000 as at row 0.
 *
 * Only the latest completed crawl keeps its frontier (finalize drops older ones): an older run's
 * pages are a 404 saying so.
 */
export async function listCrawledUrls(
  db: Db,
  principal: Principal,
  { siteId, runId }: { siteId: string; runId: string | undefined },
  query: PagesQuery,
): Promise<CrawledUrlPage> {
  const site = await getVisibleSite(db, principal, siteId);
  const run = await reportRun(db, site, runId);
  const sort = query.sort ?? 'url';
  const desc = query.order === 'desc';
  const limit = query.limit ?? DEFAULT_PAGES_PAGE;
  const after = query.cursor === undefined ? null : decodeCursor(query.cursor, isPageKey);
  const key = sort === 'url' ? null : SORT_KEY[sort];
  const cmp = desc ? sql.raw('<') : sql.raw('>');
  const dir = sql.raw(desc ? 'desc' : 'asc');

  const where: SQL[] = [sql`true`];
  if (query.kind) where.push(sql`kind = ${query.kind}`);
  if (query.depth !== undefined) where.push(sql`depth = ${query.depth}`);
  if (query.contentType)
    where.push(
      query.contentType.endsWith('/')
        ? sql`starts_with(content_type, ${query.contentType.toLowerCase()})`
        : sql`content_type = ${query.contentType.toLowerCase()}`,
    );
  if (query.status) where.push(statusClass(query.status));
  if (query.q) {
    const pattern = containsPattern(query.q);
    where.push(sql`(url ilike ${pattern} or title ilike ${pattern})`);
  }
  if (after) {
    where.push(key ? sql`(${key}, url) ${cmp} (${after[0]}::int, ${after[1]})` : sql`url ${cmp} ${after[1]}`);
  }

  const pick = (indexed: boolean) =>
    queryRows<CrawledUrlResource & { sort_key: number | string }>(
      db,
      sql`with picked as materialized (
          select url, ${key ?? sql`0`} as sort_key from (${listed(run.id, indexed)}) l
          where ${sql.join(where, sql` and `)}
          order by ${key ? sql`${key} ${dir}, ` : sql``}url ${dir}
          limit ${limit + 1})
        select l.*, picked.sort_key from picked join (${listed(run.id)}) l on l.url = picked.url
        order by picked.sort_key ${dir}, picked.url ${dir}`,
    );
  const finished = run.state !== 'running';
  let rows = await pick(finished);
  if (rows.length === 0 && finished) {
    // Nothing through the sort indexes: the frontier is gone, the filters match nothing, or the run
    // was finalized before inlinks were counted (migration 0009), so none of its rows is indexed.
    // Finalization sets every row's inlinks at once, so the first row says which.
    const [first] = await queryRows<{ counted: boolean }>(
      db,
      sql`select inlinks is not null as counted from crawl_urls where run_id = ${run.id}::uuid order by url limit 1`,
    );
    if (!first && !after)
      throw new NotFoundError(
        'the crawled URLs of this run are no longer stored: only the latest completed crawl keeps them',
      );
    if (first && !first.counted) rows = await pick(false);
  }
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return {
    run: runResource(run),
    pages: shown.map(crawledUrlResource),
    nextCursor: rows.length > limit && last ? encodeCursor([Number(last.sort_key), last.url]) : null,
  };
}

function statusClass(status: (typeof PAGE_STATUS_CLASSES)[number]): SQL {
  if (status === 'error') return sql`(final_status_code is null and verdict in ('error', 'broken'))`;
  const floor = Number(status[0]) * 100;
  return sql`(status_code >= ${floor} and status_code < ${floor + 100})`;
}

const isPageKey = (key: unknown[]): key is [number, string] =>
  key.length === 2 && Number.isSafeInteger(key[0]) && typeof key[1] === 'string';

/** Exactly the resource's fields, typed (drivers hand back numbers as numbers or strings). */
export function crawledUrlResource(r: CrawledUrlResource): CrawledUrlResource {
  const intOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    url: r.url,
    kind: r.kind,
    depth: Number(r.depth),
    status_code: intOrNull(r.status_code),
    final_status_code: intOrNull(r.final_status_code),
    redirect_target: r.redirect_target ?? null,
    verdict: r.verdict ?? null,
    detail: r.detail ?? null,
    content_type: r.content_type ?? null,
    response_ms: intOrNull(r.response_ms),
    title: r.title ?? null,
    inlinks: intOrNull(r.inlinks),
    outlinks: intOrNull(r.outlinks),
    is_page: Number(r.is_page) === 1 ? 1 : 0,
    is_asset: Number(r.is_asset) === 1 ? 1 : 0,
    found_on: r.found_on ?? null,
  };
}
