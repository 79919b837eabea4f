import { type SQL, sql } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { containsPattern } from '@/lib/db/like';
import { queryRows } from '@/lib/db/rows';
import type { Run, Site, StoredRedirectHop } from '@/lib/db/schema';
import { InvalidError } from '@/lib/errors';
import { type RunResource, runResource } from '@/lib/sites/resource';
import { decodeCursor, encodeCursor } from './cursor';
import { type RedirectHopResource, redirectHops } from './redirect-chain';
import {
  type BrokenLinkScope,
  type BrokenTargetChanges,
  brokenLinkScope,
  brokenTargetsSincePrevious,
  crawlComparison,
  reportRowShown,
} from './report';

export const DEFAULT_TARGETS_PAGE = 50;
export const MAX_TARGETS_PAGE = 500;
/** Linking pages listed with each target; the rest are counted (the CSV and the URL view have all). */
export const SOURCES_PER_TARGET = 20;
export const BROKEN_TARGET_SORTS = ['pages', 'status', 'kind', 'firstSeen', 'target'] as const;
/** A broken target's status class: 3xx (a final 304), 4xx, 5xx, or `error`: no HTTP status at all. */
export const BROKEN_STATUS_CLASSES = ['3xx', '4xx', '5xx', 'error'] as const;

export type BrokenTargetSort = (typeof BROKEN_TARGET_SORTS)[number];
export type BrokenStatusClass = (typeof BROKEN_STATUS_CLASSES)[number];

export interface BrokenTargetsQuery {
  limit?: number;
  cursor?: string;
  /** Case-insensitive substring of the target URL or of a linking page's URL. */
  q?: string;
  kind?: 'internal' | 'external';
  status?: BrokenStatusClass;
  /** `new`: only targets the previous run did not report broken. */
  change?: 'new';
  /** Default `pages` descending: the sitewide problems first. */
  sort?: BrokenTargetSort;
  order?: 'asc' | 'desc';
}

/** One place a broken target is linked from. */
export interface BrokenTargetSource {
  source_url: string;
  link_text: string | null;
  link_selector: string | null;
}

/** One broken target with the pages linking to it: a row of the grouped report. */
export interface BrokenTarget {
  target_url: string;
  kind: 'internal' | 'external';
  status: 'broken' | 'error';
  status_code: number | null;
  detail: string | null;
  /** The redirect chain to the target's final answer, its own first; empty without redirects. */
  hops: RedirectHopResource[];
  /** Distinct pages linking to the target (after the site's current excludePaths). */
  linking_pages: number;
  /** Start of the earliest crawl in the unbroken series of completed crawls, up to this one, that reported it. */
  first_seen: number;
  /** Broken now, not in the previous completed crawl (false when there is no previous crawl). */
  is_new: boolean;
  /** The first linking pages by URL, at most SOURCES_PER_TARGET. */
  sources: BrokenTargetSource[];
}

export interface BrokenTargetPage {
  run: RunResource;
  /** Targets and (target, linking page) rows matching the filters, over every page of results. */
  matching: { targets: number; rows: number };
  targets: BrokenTarget[];
  sincePreviousRun: BrokenTargetChanges;
  nextCursor: string | null;
}

/**
 * The sort's key before the target URL, which breaks ties (the URL alone for the `target` sort), as
 * SQL over a grouped target. Never null: no status sorts as -1, lowest; internal is 0, external 1.
 */
const SORT_KEY: Record<Exclude<BrokenTargetSort, 'target'>, SQL> = {
  pages: sql`linking_pages`,
  status: sql`coalesce(status_code, -1)`,
  kind: sql`case when kind = 'internal' then 0 else 1 end`,
  firstSeen: sql`first_seen`,
};

/** SQL: the status class (BROKEN_STATUS_CLASSES) of a target's final status code. */
const STATUS_CLASS = sql`case when status_code is null or status_code < 300 or status_code >= 600 then 'error'
  else (status_code / 100)::text || 'xx' end`;

/** Where a page of targets starts: after the target with this sort key and URL, in the query's order. */
type TargetKey = [key: number, targetUrl: string];

interface PickedTargets {
  headline: Pick<
    RunResource,
    'broken_count' | 'pages_with_broken_count' | 'internal_broken' | 'external_broken'
  >;
  matching: { targets: number; rows: number };
  /** The targets picked, in the query's order, each with its first `sources` linking pages. */
  targets: (BrokenTarget & { sortKey: number })[];
}

type PickedRow = {
  broken_count: number | string;
  pages_with_broken_count: number | string;
  internal_broken: number | string;
  external_broken: number | string;
  matching_targets: number | string;
  matching_rows: number | string;
  target_url: string | null;
  kind: 'internal' | 'external';
  status: 'broken' | 'error';
  status_code: number | null;
  detail: string | null;
  redirect_chain: StoredRedirectHop[] | null;
  linking_pages: number | string;
  first_seen: number | string;
  is_new: boolean;
  sort_key: number | string;
  sources: [string, string | null, string | null][] | null;
};

/**
 * One statement over the run's report rows shown under the current excludePaths: the headline counts,
 * the targets the filters match (counted), and `limit` of them (all when null) after `after` in the
 * query's order, each with its first `sources` linking pages by URL, when it was first seen and
 * whether it is new.
 *
 * Targets are grouped from the (run_id, target_url, source_url) index, unless the page is one of the
 * default order with nothing left out (mostLinkedTargets); a target's kind, status and detail are its
 * own (finalization writes them on each of its rows from the target's crawl) and are read from its
 * first row. First seen walks back through the earlier completed crawls one index probe per (target,
 * crawl) while the target is still reported, for the targets shown only, unless the sort is by it.
 */
async function pickTargets(
  db: Db,
  { run, previous, excluded }: BrokenLinkScope,
  query: Omit<BrokenTargetsQuery, 'limit' | 'cursor'>,
  page: { limit: number | null; after: TargetKey | null; sources: number | null },
): Promise<PickedTargets> {
  const sort = query.sort ?? 'pages';
  const desc = (query.order ?? (query.sort ? 'asc' : 'desc')) === 'desc';
  const key = sort === 'target' ? null : SORT_KEY[sort];
  const dir = sql.raw(desc ? 'desc' : 'asc');
  // Ties go by target URL ascending whatever the order; the target sort is the URL itself.
  const urlDir = key ? sql.raw('asc') : dir;
  const url = sql`target_url collate "C"`;
  const ofRun = sql`b.tenant_id = ${run.tenant_id} and b.run_id = ${run.id}::uuid and ${reportRowShown(excluded)}`;
  const pattern = query.q ? containsPattern(query.q) : null;

  const filters: SQL[] = [sql`true`];
  if (query.kind) filters.push(sql`kind = ${query.kind}`);
  if (query.status) filters.push(sql`${STATUS_CLASS} = ${query.status}`);
  if (query.change === 'new') filters.push(sql`is_new`);
  if (pattern) filters.push(sql`(target_url ilike ${pattern} or source_hit)`);

  const keyset: SQL[] = [sql`true`];
  if (page.after) {
    const [k, u] = page.after;
    keyset.push(
      key
        ? sql`(${key} ${sql.raw(desc ? '<' : '>')} ${k}::bigint or (${key} = ${k}::bigint and ${url} > ${u}))`
        : sql`${url} ${sql.raw(desc ? '<' : '>')} ${u}`,
    );
  }

  /** First seen of the targets of `from`: the walk back from this run while each crawl reports it. */
  const firstSeen = (from: SQL) => sql`
    walk (target_url, n, started_at) as (
      select target_url, 1::bigint, ${run.started_at}::bigint from ${from}
      union all
      select w.target_url, c.n, c.started_at from walk w join crawls c on c.n = w.n + 1
      where exists (select 1 from broken_links p
                    where p.tenant_id = ${run.tenant_id} and p.run_id = c.id and p.target_url = w.target_url)
    ),
    seen as (select target_url, min(started_at) as first_seen from walk group by target_url)`;
  const bySeen = sort === 'firstSeen';

  const crawls = sql`crawls as (
        select id, started_at, row_number() over (order by started_at desc, id desc) as n
        from runs
        where tenant_id = ${run.tenant_id} and site_id = ${run.site_id}::uuid and kind = 'crawl'
          and (id = ${run.id}::uuid or (state = 'completed' and started_at < ${run.started_at}))
      )`;
  const isNew = (target: SQL) =>
    previous
      ? sql`not exists (select 1 from broken_links p
             where p.tenant_id = ${run.tenant_id} and p.run_id = ${previous.id}::uuid and p.target_url = ${target})`
      : sql`false`;

  const stored =
    sort === 'pages' &&
    desc &&
    page.limit !== null &&
    filters.length === 1 && // `true` alone: no filter
    !excluded?.length &&
    (await storesLinkingPages(db, run));
  const picking = stored
    ? mostLinkedTargets(run, { limit: page.limit ?? 0, after: page.after, isNew })
    : sql`
      shown as (
        select b.target_url, b.source_url, b.kind, b.status_code from broken_links b where ${ofRun}
      ),
      grouped as (
        select target_url, count(*) as linking_pages, min(kind) as kind, min(status_code) as status_code,
               ${pattern ? sql`bool_or(source_url ilike ${pattern})` : sql`false`} as source_hit
        from shown group by target_url
      ),
      headline as (
        select count(*) as broken_count,
               count(*) filter (where kind = 'internal') as internal_broken,
               count(*) filter (where kind = 'external') as external_broken,
               (select count(distinct source_url) from shown) as pages_with_broken_count
        from grouped
      ),
      marked as (select g.*, ${isNew(sql`g.target_url`)} as is_new from grouped g),
      matched as (select * from marked where ${sql.join(filters, sql` and `)}),
      totals as (select count(*) as matching_targets, coalesce(sum(linking_pages), 0) as matching_rows from matched),
      ${
        bySeen
          ? sql`${firstSeen(sql`matched`)},
            ranked as (select m.*, s.first_seen from matched m join seen s using (target_url)),`
          : sql`ranked as (select * from matched),`
      }
      picked as (
        select *, ${key ?? sql`0`} as sort_key from ranked
        where ${sql.join(keyset, sql` and `)}
        order by ${key ? sql`${key} ${dir}, ` : sql``}${url} ${urlDir}
        ${page.limit === null ? sql`` : sql`limit ${page.limit}`}
      )`;

  const rows = await queryRows<PickedRow>(
    db,
    sql`with recursive ${crawls}, ${picking}${bySeen ? sql`` : sql`, ${firstSeen(sql`picked`)}`}
    select h.*, t.*, p.target_url, p.linking_pages, p.is_new, p.sort_key, s.first_seen,
           d.kind, d.status, d.status_code, d.detail, d.redirect_chain, src.sources
    from headline h cross join totals t
    left join picked p on true
    left join seen s on s.target_url = p.target_url
    left join lateral (
      select b.kind, b.status, b.status_code, b.detail, b.redirect_chain from broken_links b
      where ${ofRun} and b.target_url = p.target_url order by b.source_url collate "C" limit 1
    ) d on true
    left join lateral (
      select json_agg(json_build_array(l.source_url, l.link_text, l.link_selector) order by l.source_url collate "C") as sources
      from (select b.source_url, b.link_text, b.link_selector from broken_links b
            where ${ofRun} and b.target_url = p.target_url
            order by b.source_url collate "C" ${page.sources === null ? sql`` : sql`limit ${page.sources}`}) l
    ) src on true
    order by p.sort_key ${dir}, p.target_url collate "C" ${urlDir}`,
  );

  const [first] = rows;
  const count = (v: number | string | undefined) => Number(v ?? 0);
  return {
    headline: {
      broken_count: count(first?.broken_count),
      pages_with_broken_count: count(first?.pages_with_broken_count),
      internal_broken: count(first?.internal_broken),
      external_broken: count(first?.external_broken),
    },
    matching: { targets: count(first?.matching_targets), rows: count(first?.matching_rows) },
    targets: rows.flatMap((row) =>
      row.target_url === null
        ? []
        : [
            {
              target_url: row.target_url,
              kind: row.kind,
              status: row.status,
              status_code: row.status_code === null ? null : Number(row.status_code),
              detail: row.detail,
              hops: redirectHops(row.redirect_chain),
              linking_pages: Number(row.linking_pages),
              first_seen: Number(row.first_seen),
              is_new: row.is_new === true || String(row.is_new) === 't',
              sources: sourcesOf(row.sources),
              sortKey: Number(row.sort_key),
            },
          ],
    ),
  };
}

/**
 * Whether the run's report rows carry their target's count of linking pages (finalization writes it;
 * rows written another way do not): then its default order is read from broken_links_most_linked_idx.
 */
async function storesLinkingPages(db: Db, run: Run): Promise<boolean> {
  const [row] = await queryRows<{ stored: boolean | string }>(
    db,
    sql`select linking_pages is not null as stored from broken_links
        where tenant_id = ${run.tenant_id} and run_id = ${run.id}::uuid limit 1`,
  );
  return row?.stored === true || String(row?.stored) === 't';
}

/**
 * The CTEs `headline`, `totals` and `picked` of pickTargets for a page of the default order (most
 * linked first, then by URL) with no filter and no row left out by excludePaths: the headline is the
 * run's own (finalization counted it from these rows), and the page is `limit` steps of a walk from
 * one distinct target to the next on broken_links_most_linked_idx (one index probe each) instead of
 * a grouping of every row, so a page costs the same whatever the report's size.
 */
function mostLinkedTargets(
  run: Run,
  { limit, after, isNew }: { limit: number; after: TargetKey | null; isNew: (target: SQL) => SQL },
): SQL {
  const ofRun = sql`b.tenant_id = ${run.tenant_id} and b.run_id = ${run.id}::uuid and b.linking_pages is not null`;
  const position = sql`(-b.linking_pages, b.target_url collate "C")`;
  /** The first target after position `from` (a row of the index's two keys), or the first of all. */
  const next = (from: SQL | null) => sql`
    select b.linking_pages, b.target_url from broken_links b
    where ${ofRun} ${from ? sql`and ${position} > ${from}` : sql``}
    order by -b.linking_pages, b.target_url collate "C" limit 1`;
  const start = after ? sql`(${-after[0]}::integer, ${after[1]}::text collate "C")` : null;
  return sql`
      headline as (
        select ${run.broken_count}::integer as broken_count, ${run.internal_broken}::integer as internal_broken,
               ${run.external_broken}::integer as external_broken,
               ${run.pages_with_broken_count}::integer as pages_with_broken_count
      ),
      totals as (
        select ${run.broken_count}::integer as matching_targets,
               (select count(*) from broken_links b where ${ofRun}) as matching_rows
      ),
      targets (linking_pages, target_url) as (
        (${next(start)})
        union all
        select n.* from targets t
        cross join lateral (${next(sql`(-t.linking_pages, t.target_url collate "C")`)}) n
      ),
      picked as (
        select target_url, linking_pages, ${isNew(sql`t.target_url`)} as is_new, linking_pages as sort_key
        from (select * from targets limit ${limit}) t
      )`;
}

function sourcesOf(value: PickedRow['sources']): BrokenTargetSource[] {
  return (value ?? []).map(([source_url, link_text, link_selector]) => ({
    source_url,
    link_text,
    link_selector,
  }));
}

/** The report's targets that pass the query's filters, in its order, each with all its linking pages. */
export interface MatchingBrokenTargets {
  run: RunResource;
  sincePreviousRun: BrokenTargetChanges;
  targets: (BrokenTarget & { allSources: BrokenTargetSource[] })[];
}

/**
 * The dead-link report of the latest crawl (or of `runId`) grouped by target, filtered and sorted,
 * whole: what the dashboard's CSV writes. The same statement as a page of `listBrokenTargets`, without
 * the limits.
 */
export async function matchingBrokenTargets(
  db: Db,
  principal: Principal,
  { siteId, runId }: { siteId: string; runId: string | undefined },
  query: Omit<BrokenTargetsQuery, 'limit' | 'cursor'>,
): Promise<MatchingBrokenTargets> {
  const scope = await brokenLinkScope(db, principal, { siteId, runId });
  const picked = await pickTargets(db, scope, query, { limit: null, after: null, sources: null });
  return {
    run: { ...runResource(scope.run), ...picked.headline },
    sincePreviousRun: await brokenTargetsSincePrevious(db, scope),
    targets: picked.targets.map(({ sortKey: _key, sources, ...target }) => ({
      ...target,
      sources: sources.slice(0, SOURCES_PER_TARGET),
      allSources: sources,
    })),
  };
}

/**
 * GET /v1/sites/{id}/broken-targets (the latest crawl) and /runs/{runId}/broken-targets: the dead-link
 * report grouped by target, filtered and sorted (sitewide problems first by default), a page at a
 * time in one statement (pickTargets). The site's current excludePaths and the comparison with the
 * previous run are the report's own. The cursor is a keyset (the last target's sort key and URL) plus
 * the run: a cursor of an earlier latest run is refused rather than paging through another report.
 */
export async function listBrokenTargets(
  db: Db,
  principal: Principal,
  { siteId, runId }: { siteId: string; runId: string | undefined },
  query: BrokenTargetsQuery,
): Promise<BrokenTargetPage> {
  const scope = await brokenLinkScope(db, principal, { siteId, runId });
  const limit = query.limit ?? DEFAULT_TARGETS_PAGE;
  const after = query.cursor === undefined ? null : keyOf(query.cursor, scope.run.id);
  const [picked, sincePreviousRun] = await Promise.all([
    pickTargets(db, scope, query, { limit: limit + 1, after, sources: SOURCES_PER_TARGET }),
    brokenTargetsSincePrevious(db, scope),
  ]);
  const shown = picked.targets.slice(0, limit);
  const last = shown.at(-1);
  return {
    run: { ...runResource(scope.run), ...picked.headline },
    matching: picked.matching,
    targets: shown.map(({ sortKey: _key, ...target }) => target),
    sincePreviousRun,
    nextCursor:
      picked.targets.length > limit && last
        ? encodeCursor([last.sortKey, last.target_url, scope.run.id])
        : null,
  };
}

function keyOf(cursor: string, runId: string): TargetKey {
  const [key, targetUrl, cursorRun] = decodeCursor(
    cursor,
    (k): k is [number, string, string] =>
      k.length === 3 && Number.isSafeInteger(k[0]) && typeof k[1] === 'string' && typeof k[2] === 'string',
  );
  if (cursorRun !== runId)
    throw new InvalidError('cursor', 'belongs to an earlier crawl: start again from the first page');
  return [key, targetUrl];
}

/** The most linked broken targets of one crawl and what changed against an earlier one. */
export interface BrokenTargetDigest {
  /** Broken targets in the crawl (after the current excludePaths). */
  total: number;
  /** The `limit` targets linked from the most pages, each with its first `sources` linking pages. */
  top: BrokenTarget[];
  changes: BrokenTargetChanges;
}

/**
 * The monthly report's broken links: the grouped report of `run` in its default order (sitewide
 * problems first), compared with `since` (the last crawl before the month) instead of the previous
 * crawl, so `is_new` and the changes are the month's. The site is one the caller already holds.
 */
export async function brokenTargetDigest(
  db: Db,
  site: Site,
  run: Run,
  since: Run | undefined,
  page: { limit: number; sources: number },
): Promise<BrokenTargetDigest> {
  const scope = await crawlComparison(db, site, run, since);
  const [picked, changes] = await Promise.all([
    pickTargets(db, scope, {}, { limit: page.limit, after: null, sources: page.sources }),
    brokenTargetsSincePrevious(db, scope),
  ]);
  return {
    total: picked.matching.targets,
    top: picked.targets.map(({ sortKey: _key, ...target }) => target),
    changes,
  };
}
