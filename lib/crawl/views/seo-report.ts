import { sql } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import type { Run, StoredSeoIssue } from '@/lib/db/schema';
import { InvalidError, NotFoundError } from '@/lib/errors';
import { isSeoCheckId, isSeoImpact, type SeoCheckId, type SeoImpact } from '@/lib/seo/checks';
import {
  type SeoCheckPages,
  type SeoReport,
  type SeoReportPage,
  seoReportChecks,
  seoSummary,
} from '@/lib/seo/report';
import { SeoTally } from '@/lib/seo/score';
import { getVisibleSite } from '@/lib/sites/access';
import { type RunResource, runResource } from '@/lib/sites/resource';
import { compileExcludes, NEVER, type PathMatcher } from '../engine/url';
import { decodeCursor, encodeCursor } from './cursor';
import { MAX_LISTED_CHANGES, previousCompletedRun, reportRun, seoChangesAgainst } from './history';

/** Pages listed per check by default, and at most (`?pagesPerCheck=`, `?limit=`). */
export const DEFAULT_SEO_PAGES = 100;
export const MAX_SEO_PAGES = 500;

/** Report parts (of up to 2,000 issues) read per statement when walking a run. */
const PARTS_PER_READ = 4;

/** An SEO issue's identity across runs: the check failing on the page. */
export interface SeoIssueKey {
  check: SeoCheckId;
  pageUrl: string;
}

/** SEO issues that appeared and went away since the previous completed crawl. */
export interface SeoIssueChanges {
  previousRunId: string | null;
  /** The first MAX_LISTED_CHANGES issues of this report that the previous run did not have, by page then check. */
  newIssues: SeoIssueKey[];
  /** The first MAX_LISTED_CHANGES issues of the previous run that this run does not have, by page then check. */
  fixedIssues: SeoIssueKey[];
  /** New issues in all (newIssues lists them all when it is no longer than this). */
  newIssueCount: number;
  fixedIssueCount: number;
}

export interface SeoReportResponse extends SeoReport {
  run: RunResource;
  /** Score and pages scanned after the site's current excludePaths (equal to the run's without exclusions). */
  score: number | null;
  pagesScanned: number;
  sincePreviousRun: SeoIssueChanges;
}

/** `?pagesPerCheck=` for the whole report; `?check=&cursor=&limit=` for the next pages of one check. */
export interface SeoReportQuery {
  pagesPerCheck?: number;
  check?: SeoCheckId;
  cursor?: string;
  limit?: number;
}

/** Which pages to list: every check's first `limit` (check null), or one check's after `after`. */
interface PageWanted {
  check: SeoCheckId | null;
  after: string;
  limit: number;
}

/**
 * GET /v1/sites/{id}/seo-report (the latest crawl) and /runs/{runId}/seo-report (that crawl): every
 * failing check with its count and a page of its pages by URL, plus a cursor for the rest; or, with
 * `check` (and `cursor`), that check alone with its next page. The summary is always the whole
 * report's. Pages now excluded by excludePaths are left out and the score recomputed without them.
 *
 * Memory never grows with the run. Parts written since migration 0036 carry their counts by check
 * and their distinct pages: the counts and summary are summed from those small columns and each
 * check's page is read from the few parts that have it. When the site has excludePaths (which may
 * hide some of the run's pages: the globs run here, not in SQL), or the run's parts predate the
 * counts, the exact but slower path streams every part of the run, a few at a time.
 */
export async function getSeoReport(
  db: Db,
  principal: Principal,
  { siteId, runId }: { siteId: string; runId?: string },
  query: SeoReportQuery = {},
): Promise<SeoReportResponse> {
  const site = await getVisibleSite(db, principal, siteId);
  if (site.seo_enabled !== 1) throw new NotFoundError('the SEO app is not enabled for this site');
  const run = await reportRun(db, site, runId);
  const wanted = pagesWanted(query);
  const isExcluded = compileExcludes(site.exclude_paths);
  const previous = await previousCompletedRun(db, run);

  const parts = await partCounts(db, run);
  const counted =
    isExcluded === NEVER && parts.every((p) => p.check_counts !== null && p.page_count !== null);
  const body = counted
    ? await countedReport(db, run, parts, wanted, previous)
    : await streamedReport(db, run, isExcluded, wanted, previous);
  return { run: runResource(run), ...body };
}

function pagesWanted(query: SeoReportQuery): PageWanted {
  const { check } = query;
  if (check === undefined) {
    if (query.cursor !== undefined)
      throw new InvalidError('cursor', "pages one check's list: give check too");
    if (query.limit !== undefined)
      throw new InvalidError('limit', "sizes one check's page: give check too, or use pagesPerCheck");
    return { check: null, after: '', limit: query.pagesPerCheck ?? DEFAULT_SEO_PAGES };
  }
  if (query.pagesPerCheck !== undefined)
    throw new InvalidError('pagesPerCheck', 'is for the whole report: with check, limit sizes the page');
  const isKey = (key: unknown[]): key is [SeoCheckId, string] =>
    key.length === 2 && key[0] === check && typeof key[1] === 'string' && key[1] !== '';
  const after = query.cursor === undefined ? '' : decodeCursor(query.cursor, isKey)[1];
  return { check, after, limit: query.limit ?? DEFAULT_SEO_PAGES };
}

/** The cursor after `pageUrl` in `check`'s pages. */
const pagesCursor = (check: SeoCheckId, pageUrl: string) => encodeCursor([check, pageUrl]);

/** One page of a check's pages read with one more than asked: the extra one says a next page exists. */
function pageOf(check: SeoCheckId, count: number, read: SeoReportPage[], limit: number): SeoCheckPages {
  const pages = read.slice(0, limit);
  const last = pages.at(-1);
  return {
    check,
    count,
    pages,
    nextCursor: read.length > limit && last ? pagesCursor(check, last.pageUrl) : null,
  };
}

type ReportBody = Omit<SeoReportResponse, 'run'>;

interface PartCounts {
  check_counts: Record<string, number> | null;
  page_count: number | null;
  first_page_url: string | null;
  last_page_url: string | null;
}

/** The small columns of every part of the run, in part order (2,000 rows at 1,000,000 pages). */
function partCounts(db: Db, run: Run): Promise<PartCounts[]> {
  return queryRows<PartCounts>(
    db,
    sql`select check_counts, page_count, first_page_url, last_page_url from seo_reports
        where tenant_id = ${run.tenant_id} and run_id = ${run.id}::uuid order by part`,
  );
}

/** The report from the parts' counts, each check's page read from the parts that have it. */
async function countedReport(
  db: Db,
  run: Run,
  parts: PartCounts[],
  wanted: PageWanted,
  previous: Run | undefined,
): Promise<ReportBody> {
  const counts = new Map<SeoCheckId, number>();
  let pagesAffected = 0;
  let lastPage: string | null = null;
  for (const part of parts) {
    for (const [check, n] of Object.entries(part.check_counts ?? {}))
      if (isSeoCheckId(check)) counts.set(check, (counts.get(check) ?? 0) + n);
    pagesAffected += part.page_count ?? 0;
    // A page whose issues straddle two parts is counted in both.
    if (lastPage !== null && part.first_page_url === lastPage) pagesAffected--;
    lastPage = part.last_page_url;
  }
  const listed = wanted.check === null ? [...counts.keys()] : counts.has(wanted.check) ? [wanted.check] : [];
  // One check after another: a request holds one connection of the pool shared by every tenant,
  // never one per failing check.
  const checks: SeoCheckPages[] = [];
  for (const check of listed) {
    const read = await checkPages(db, run, check, wanted.after, wanted.limit + 1);
    checks.push(pageOf(check, counts.get(check) ?? 0, read, wanted.limit));
  }
  return {
    score: run.seo_score,
    pagesScanned: run.seo_pages_scanned,
    summary: seoSummary(counts, pagesAffected),
    checks: seoReportChecks(checks),
    sincePreviousRun: await countedChanges(db, run, previous),
  };
}

/**
 * Up to `wanted` pages failing `check` after the page `after`, by URL: the run's parts walked in
 * order a few at a time, only those whose counts have the check and whose last page is past
 * `after`, each expanded in the database to just that check's issues (byte order, as the parts).
 */
async function checkPages(
  db: Db,
  run: Run,
  check: SeoCheckId,
  after: string,
  wanted: number,
): Promise<SeoReportPage[]> {
  const pages: SeoReportPage[] = [];
  const ofRun = sql`tenant_id = ${run.tenant_id} and run_id = ${run.id}::uuid`;
  for (let part = -1; pages.length < wanted; ) {
    const batch = await queryRows<{ part: number }>(
      db,
      sql`select part from seo_reports
          where ${ofRun} and part > ${part}::int
            and check_counts -> ${check}::text is not null and last_page_url > ${after}::text
          order by part limit ${PARTS_PER_READ}::int`,
    );
    if (batch.length === 0) break;
    const rows = await queryRows<{ page_url: string; detail: string }>(
      db,
      sql`select e.issue ->> 2 as page_url, e.issue ->> 3 as detail
          from seo_reports r cross join lateral jsonb_array_elements(r.issues) with ordinality as e(issue, ord)
          where ${ofRun} and r.part in (${sql.join(
            batch.map((b) => sql`${b.part}::int`),
            sql`, `,
          )})
            and e.issue ->> 0 = ${check}::text and (e.issue ->> 2) collate "C" > ${after}::text
          order by r.part, e.ord
          limit ${wanted - pages.length}::int`,
    );
    for (const row of rows) pages.push({ pageUrl: row.page_url, detail: row.detail });
    if (batch.length < PARTS_PER_READ) break;
    part = (batch.at(-1) as { part: number }).part;
  }
  return pages;
}

/** New and fixed issues without exclusions: as finalization stored them, else differenced in SQL. */
async function countedChanges(db: Db, run: Run, previous: Run | undefined): Promise<SeoIssueChanges> {
  if (!previous) return noChanges;
  const changes = await seoChangesAgainst(db, run, previous);
  const keys = (list: [string, string][]) =>
    list.flatMap(([check, pageUrl]) => (isSeoCheckId(check) ? [{ check, pageUrl }] : []));
  return {
    previousRunId: previous.id,
    newIssues: keys(changes.newIssues),
    fixedIssues: keys(changes.fixedIssues),
    newIssueCount: changes.newCount,
    fixedIssueCount: changes.fixedCount,
  };
}

const noChanges: SeoIssueChanges = {
  previousRunId: null,
  newIssues: [],
  fixedIssues: [],
  newIssueCount: 0,
  fixedIssueCount: 0,
};

/** One page's stored issues, valid and each check once. */
interface PageIssues {
  url: string;
  issues: { check: SeoCheckId; impact: SeoImpact; detail: string }[];
}

/**
 * The run's issues a page at a time in URL order, read PARTS_PER_READ parts per statement: a page
 * whose issues straddle two parts comes once, whole. Memory: a few parts.
 */
async function* pagesOfRun(db: Db, run: Pick<Run, 'id' | 'tenant_id'>): AsyncGenerator<PageIssues> {
  let page = null as PageIssues | null;
  for (let part = -1; ; ) {
    const parts = await queryRows<{ part: number; issues: StoredSeoIssue[] }>(
      db,
      sql`select part, issues from seo_reports
          where tenant_id = ${run.tenant_id} and run_id = ${run.id}::uuid and part > ${part}::int
          order by part limit ${PARTS_PER_READ}::int`,
    );
    for (const { issues } of parts) {
      for (const [check, impact, url, detail] of issues) {
        if (page?.url !== url) {
          if (page) yield page;
          page = { url, issues: [] };
        }
        if (isSeoCheckId(check) && isSeoImpact(impact) && !page.issues.some((i) => i.check === check))
          page.issues.push({ check, impact, detail });
      }
    }
    if (parts.length < PARTS_PER_READ) break;
    part = (parts.at(-1) as { part: number }).part;
  }
  if (page) yield page;
}

/** The pages of two runs side by side in URL order (byte order, JavaScript's for these ASCII URLs). */
async function* alignedPages(
  current: AsyncIterator<PageIssues>,
  before: AsyncIterator<PageIssues> | null,
): AsyncGenerator<{ url: string; now: PageIssues['issues']; before: PageIssues['issues'] }> {
  let a = await current.next();
  let b: IteratorResult<PageIssues> = before ? await before.next() : { done: true, value: undefined };
  while (!a.done || !b.done) {
    if (b.done || (!a.done && a.value.url < b.value.url)) {
      const { url, issues } = a.value as PageIssues;
      yield { url, now: issues, before: [] };
      a = await current.next();
    } else if (a.done || b.value.url < a.value.url) {
      yield { url: b.value.url, now: [], before: b.value.issues };
      b = await (before as AsyncIterator<PageIssues>).next();
    } else {
      yield { url: a.value.url, now: a.value.issues, before: b.value.issues };
      a = await current.next();
      b = await (before as AsyncIterator<PageIssues>).next();
    }
  }
}

/**
 * The report exact under any excludePaths (and for parts without counts): one pass over the run's
 * parts, and the previous run's beside them, a few parts at a time, page by page in URL order.
 * Everything is counted; only each listed check's page and the first MAX_LISTED_CHANGES changes of
 * each side are kept. Slower than the counted path (it reads every part: seconds at 1,000,000
 * pages), memory flat.
 */
async function streamedReport(
  db: Db,
  run: Run,
  isExcluded: PathMatcher,
  wanted: PageWanted,
  previous: Run | undefined,
): Promise<ReportBody> {
  const counts = new Map<SeoCheckId, number>();
  const listed = new Map<SeoCheckId, SeoReportPage[]>();
  const tally = new SeoTally();
  const changes: SeoIssueChanges = {
    previousRunId: previous?.id ?? null,
    newIssues: [],
    fixedIssues: [],
    newIssueCount: 0,
    fixedIssueCount: 0,
  };
  let pagesAffected = 0;
  let hidden = false;
  const earlier = previous ? pagesOfRun(db, previous) : null;
  for await (const { url, now, before: then } of alignedPages(pagesOfRun(db, run), earlier)) {
    if (isExcluded(url)) {
      hidden ||= now.length > 0;
      continue;
    }
    if (now.length > 0) {
      pagesAffected++;
      tally.addPage(now);
    }
    for (const issue of now) {
      counts.set(issue.check, (counts.get(issue.check) ?? 0) + 1);
      if (wanted.check !== null && wanted.check !== issue.check) continue;
      if (url <= wanted.after) continue;
      const pages = listed.get(issue.check) ?? [];
      listed.set(issue.check, pages);
      if (pages.length <= wanted.limit) pages.push({ pageUrl: url, detail: issue.detail });
    }
    if (previous) {
      const added = now.filter((i) => !then.some((t) => t.check === i.check));
      const gone = then.filter((t) => !now.some((i) => i.check === t.check));
      changes.newIssueCount += added.length;
      changes.fixedIssueCount += gone.length;
      note(changes.newIssues, url, added);
      note(changes.fixedIssues, url, gone);
    }
  }

  let score = run.seo_score;
  let pagesScanned = run.seo_pages_scanned;
  if (hidden) {
    pagesScanned = await scannedPagesNotExcluded(db, run.id, isExcluded, run.seo_pages_scanned);
    score = tally.score(pagesScanned).score;
  }
  const checks = [...listed].map(([check, read]) =>
    pageOf(check, counts.get(check) ?? 0, read, wanted.limit),
  );
  if (wanted.check !== null && counts.has(wanted.check) && !listed.has(wanted.check))
    checks.push(pageOf(wanted.check, counts.get(wanted.check) ?? 0, [], wanted.limit));
  return {
    score,
    pagesScanned,
    summary: seoSummary(counts, pagesAffected),
    checks: seoReportChecks(checks),
    sincePreviousRun: changes,
  };
}

/** Lists a page's changed checks (by check id) while the list has room. */
function note(list: SeoIssueKey[], pageUrl: string, issues: { check: SeoCheckId }[]): void {
  const checks = issues.map((i) => i.check).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const check of checks) if (list.length < MAX_LISTED_CHANGES) list.push({ check, pageUrl });
}

/** URLs of the run's pages read per statement when counting those not excluded. */
const SCANNED_PAGE_READ = 10_000;

/**
 * Pages of the run with SEO facts, minus the now-excluded ones (the latest run keeps its frontier),
 * read a page of URLs at a time along the primary key.
 */
async function scannedPagesNotExcluded(
  db: Db,
  runId: string,
  isExcluded: PathMatcher,
  fallback: number,
): Promise<number> {
  let seen = 0;
  let shown = 0;
  for (let after = ''; ; ) {
    const rows = await queryRows<{ url: string }>(
      db,
      sql`select url from crawl_urls
          where run_id = ${runId}::uuid and url > ${after} and is_page = 1 and seo_facts is not null
          order by url limit ${SCANNED_PAGE_READ}::int`,
    );
    seen += rows.length;
    for (const row of rows) if (!isExcluded(row.url)) shown++;
    if (rows.length < SCANNED_PAGE_READ) break;
    after = (rows.at(-1) as { url: string }).url;
  }
  return seen === 0 ? fallback : shown;
}
