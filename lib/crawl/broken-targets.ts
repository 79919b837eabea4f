import { sql } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import type { Run } from '@/lib/db/schema';
import { InvalidError } from '@/lib/errors';
import type { RunResource } from '@/lib/sites/resource';
import { decodeCursor, encodeCursor } from './cursor';
import { parseRedirectChain, type RedirectHopResource } from './redirect-chain';
import { type BrokenLinkResource, type BrokenTargetChanges, getBrokenLinkReport } from './report';

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

/** Plain code-unit order, as the report orders its rows. */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The report's rows (ordered by target, then source) as one entry per target. `firstSeen` gives each
 * target's first-seen time (the report's run start for those it lacks).
 */
export function groupBrokenTargets(
  rows: readonly BrokenLinkResource[],
  changes: Pick<BrokenTargetChanges, 'newTargets'>,
  firstSeen: ReadonlyMap<string, number>,
  runStartedAt: number,
): (BrokenTarget & { allSources: BrokenTargetSource[] })[] {
  const isNew = new Set(changes.newTargets);
  const groups = new Map<string, BrokenTarget & { allSources: BrokenTargetSource[] }>();
  for (const row of rows) {
    let group = groups.get(row.target_url);
    if (!group) {
      group = {
        target_url: row.target_url,
        kind: row.kind,
        status: row.status,
        status_code: row.status_code,
        detail: row.detail,
        hops: parseRedirectChain(row.redirect_chain),
        linking_pages: 0,
        first_seen: firstSeen.get(row.target_url) ?? runStartedAt,
        is_new: isNew.has(row.target_url),
        sources: [],
        allSources: [],
      };
      groups.set(row.target_url, group);
    }
    group.allSources.push({
      source_url: row.source_url,
      link_text: row.link_text,
      link_selector: row.link_selector,
    });
  }
  for (const group of groups.values()) {
    group.linking_pages = group.allSources.length;
    group.sources = group.allSources.slice(0, SOURCES_PER_TARGET);
  }
  return [...groups.values()];
}

/** The HTTP status class a broken target falls in. */
export function brokenStatusClass(statusCode: number | null): BrokenStatusClass {
  if (statusCode === null || statusCode < 300 || statusCode >= 600) return 'error';
  return `${Math.floor(statusCode / 100)}xx` as BrokenStatusClass;
}

/** Whether a target passes the query's filters. */
export function matchesBrokenTarget(
  target: BrokenTarget & { allSources: readonly BrokenTargetSource[] },
  query: Pick<BrokenTargetsQuery, 'q' | 'kind' | 'status' | 'change'>,
): boolean {
  if (query.kind && target.kind !== query.kind) return false;
  if (query.status && brokenStatusClass(target.status_code) !== query.status) return false;
  if (query.change === 'new' && !target.is_new) return false;
  if (query.q) {
    const needle = query.q.toLowerCase();
    return (
      target.target_url.toLowerCase().includes(needle) ||
      target.allSources.some((s) => s.source_url.toLowerCase().includes(needle))
    );
  }
  return true;
}

/**
 * Targets in the query's order: each sort breaks ties by target URL ascending, so the order is total
 * and pages never overlap. Status sorts by code (no status lowest); kind puts internal first.
 */
export function compareBrokenTargets(sort: BrokenTargetSort, order: 'asc' | 'desc') {
  const sign = order === 'desc' ? -1 : 1;
  const key = (t: BrokenTarget): number | string => {
    switch (sort) {
      case 'pages':
        return t.linking_pages;
      case 'status':
        return t.status_code ?? -1;
      case 'kind':
        return t.kind === 'internal' ? 0 : 1;
      case 'firstSeen':
        return t.first_seen;
      case 'target':
        return t.target_url;
    }
  };
  return (a: BrokenTarget, b: BrokenTarget): number => {
    const ka = key(a);
    const kb = key(b);
    const primary =
      typeof ka === 'number' && typeof kb === 'number' ? ka - kb : byText(String(ka), String(kb));
    return sign * primary || byText(a.target_url, b.target_url);
  };
}

/** The report's targets that pass the query's filters, in its order, each with all its linking pages. */
export interface MatchingBrokenTargets {
  run: RunResource;
  sincePreviousRun: BrokenTargetChanges;
  targets: (BrokenTarget & { allSources: BrokenTargetSource[] })[];
}

/**
 * The dead-link report of the latest crawl (or of `runId`) grouped by target, filtered and sorted:
 * what the paged list shows a page of, and what the dashboard's CSV writes whole. Built on the report
 * service, so the site's current excludePaths and the comparison with the previous run are the
 * report's own.
 */
export async function matchingBrokenTargets(
  db: Db,
  principal: Principal,
  siteId: string,
  runId: string | undefined,
  query: Omit<BrokenTargetsQuery, 'limit' | 'cursor'>,
): Promise<MatchingBrokenTargets> {
  const report = await getBrokenLinkReport(db, principal, siteId, runId);
  const { run } = report;
  const firstSeen = await firstSeenOf(db, run);
  const targets = groupBrokenTargets(report.brokenLinks, report.sincePreviousRun, firstSeen, run.started_at)
    .filter((target) => matchesBrokenTarget(target, query))
    .sort(compareBrokenTargets(query.sort ?? 'pages', query.order ?? (query.sort ? 'asc' : 'desc')));
  return { run, sincePreviousRun: report.sincePreviousRun, targets };
}

/**
 * GET /v1/sites/{id}/broken-targets (the latest crawl) and /runs/{runId}/broken-targets: a page of
 * `matchingBrokenTargets`, sitewide problems first by default. The cursor carries the run and the
 * offset: a cursor of an earlier latest run is refused rather than paging through another report.
 */
export async function listBrokenTargets(
  db: Db,
  principal: Principal,
  siteId: string,
  runId: string | undefined,
  query: BrokenTargetsQuery,
): Promise<BrokenTargetPage> {
  const { run, sincePreviousRun, targets } = await matchingBrokenTargets(db, principal, siteId, runId, query);
  const limit = query.limit ?? DEFAULT_TARGETS_PAGE;
  const offset = query.cursor === undefined ? 0 : offsetOf(query.cursor, run.id);
  return {
    run,
    matching: {
      targets: targets.length,
      rows: targets.reduce((sum, target) => sum + target.linking_pages, 0),
    },
    targets: targets.slice(offset, offset + limit).map(({ allSources: _all, ...target }) => target),
    sincePreviousRun,
    nextCursor: offset + limit < targets.length ? encodeCursor([offset + limit, run.id]) : null,
  };
}

function offsetOf(cursor: string, runId: string): number {
  const [offset, cursorRun] = decodeCursor(
    cursor,
    (key): key is [number, string] =>
      key.length === 2 &&
      Number.isSafeInteger(key[0]) &&
      (key[0] as number) >= 0 &&
      typeof key[1] === 'string',
  );
  if (cursorRun !== runId)
    throw new InvalidError('cursor', 'belongs to an earlier crawl: start again from the first page');
  return offset;
}

/**
 * When each broken target of `run` was first seen: the start of the earliest run in the unbroken
 * series of crawls, ending at `run`, whose reports list it (the run itself, then the completed
 * crawls before it, newest first; failed crawls are skipped, as the comparison with the previous run
 * skips them). A target broken, fixed and broken again is first seen when it broke the second time.
 * One statement: each (target, earlier crawl) pair is an index probe on (run_id, target_url), and a
 * target's series is the prefix of its hits numbered 1, 2, 3... like the crawls themselves.
 */
export async function firstSeenOf(db: Db, run: Pick<Run, 'id' | 'tenant_id' | 'site_id' | 'started_at'>) {
  const rows = await queryRows<{ target_url: string; first_seen: string | number }>(
    db,
    sql`with crawls as (
          select id, started_at, row_number() over (order by started_at desc, id desc) as n
          from runs
          where tenant_id = ${run.tenant_id} and site_id = ${run.site_id}::uuid and kind = 'crawl'
            and (id = ${run.id}::uuid or (state = 'completed' and started_at < ${run.started_at}))
        ),
        targets as (
          select distinct target_url from broken_links
          where tenant_id = ${run.tenant_id} and run_id = ${run.id}::uuid
        ),
        hits as (
          select t.target_url, c.n, c.started_at,
                 row_number() over (partition by t.target_url order by c.n) as k
          from targets t join crawls c
            on exists (select 1 from broken_links b where b.run_id = c.id and b.target_url = t.target_url)
        )
        select target_url, min(started_at) as first_seen from hits where n = k group by target_url`,
  );
  return new Map(rows.map((row) => [row.target_url, Number(row.first_seen)]));
}
