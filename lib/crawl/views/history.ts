import { and, desc, eq, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import { completedCrawlOf } from '@/lib/db/running-crawl';
import {
  type Run,
  runChanges,
  runs,
  type Site,
  type StoredBrokenChanges,
  type StoredSeoChanges,
} from '@/lib/db/schema';
import { NotFoundError } from '@/lib/errors';
import { getVisibleSite } from '@/lib/sites/access';
import { type RunResource, runResource } from '@/lib/sites/resource';
import { decodeCursor, encodeCursor } from './cursor';

export const DEFAULT_RUNS_PAGE = 20;
export const MAX_RUNS_PAGE = 100;

export interface RunPage {
  runs: RunResource[];
  nextCursor: string | null;
}

/**
 * GET /v1/sites/{id}/runs: the site's runs (crawls and standalone accessibility runs), newest first,
 * a page at a time. The cursor is the last row's (started_at, id), so a run starting meanwhile never
 * shifts a page nor repeats a row.
 */
export async function listRuns(
  db: Db,
  principal: Principal,
  siteId: string,
  page: { limit?: number; cursor?: string; kind?: Run['kind'] },
): Promise<RunPage> {
  const site = await getVisibleSite(db, principal, siteId);
  const limit = page.limit ?? DEFAULT_RUNS_PAGE;
  const after = page.cursor === undefined ? null : decodeCursor(page.cursor, isRunKey);
  const rows = await db
    .select()
    .from(runs)
    .where(
      and(
        eq(runs.tenant_id, site.tenant_id),
        eq(runs.site_id, site.id),
        page.kind ? eq(runs.kind, page.kind) : undefined,
        after
          ? or(
              lt(runs.started_at, after[0]),
              and(eq(runs.started_at, after[0]), sql`${runs.id} < ${after[1]}::uuid`),
            )
          : undefined,
      ),
    )
    .orderBy(desc(runs.started_at), desc(runs.id))
    .limit(limit + 1);
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return {
    runs: shown.map(runResource),
    nextCursor: rows.length > limit && last ? encodeCursor([last.started_at, last.id]) : null,
  };
}

const isRunKey = (key: unknown[]): key is [number, string] =>
  key.length === 2 &&
  Number.isSafeInteger(key[0]) &&
  typeof key[1] === 'string' &&
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(key[1]);

/**
 * The crawl run a report describes: `runId` when given (a crawl of this site, else 404), otherwise
 * the latest finished crawl, or the running one when none finished yet (its rows appear when it
 * finalizes). One path for the site-level and the per-run endpoints.
 */
export async function reportRun(db: Db, site: Site, runId?: string): Promise<Run> {
  const crawlsOfSite = and(
    eq(runs.tenant_id, site.tenant_id),
    eq(runs.site_id, site.id),
    eq(runs.kind, 'crawl'),
  );
  if (runId !== undefined) {
    const [run] = await db
      .select()
      .from(runs)
      .where(and(crawlsOfSite, eq(runs.id, runId)))
      .limit(1);
    if (!run) throw new NotFoundError('run not found');
    return run;
  }
  const [finished] = await db
    .select()
    .from(runs)
    .where(and(crawlsOfSite, sql`${runs.state} <> 'running'`))
    .orderBy(desc(runs.started_at))
    .limit(1);
  if (finished) return finished;
  const [running] = await db.select().from(runs).where(crawlsOfSite).orderBy(desc(runs.started_at)).limit(1);
  if (!running) throw new NotFoundError('no crawl has run on this site yet');
  return running;
}

/** The run a report compares with: the latest completed crawl of the site started before `run`. */
export async function previousCompletedRun(db: Db, run: Run): Promise<Run | undefined> {
  const [previous] = await db
    .select()
    .from(runs)
    .where(and(completedCrawlOf(run.tenant_id, run.site_id), lt(runs.started_at, run.started_at)))
    .orderBy(desc(runs.started_at))
    .limit(1);
  return previous;
}

/**
 * Entries `sincePreviousRun` lists on each side of either report (broken targets, SEO issues); its
 * counts are exact. A site that broke or fixed more at once has its first ones listed and the number
 * said, so a cut list never reads as complete and no page of a report carries the whole difference.
 */
export const MAX_LISTED_CHANGES = 1000;

/**
 * One report's differences as finalization stored them for `run` (run_changes), if any: only the
 * column asked for is read, since each holds up to 2 * MAX_LISTED_CHANGES entries.
 */
async function storedChanges<K extends 'seo' | 'broken'>(db: Db, run: Run, report: K) {
  const [row] = await db
    .select({ changes: runChanges[report] })
    .from(runChanges)
    .where(and(eq(runChanges.tenant_id, run.tenant_id), eq(runChanges.run_id, run.id)));
  return row?.changes;
}

/**
 * What finalization stores for `run` (run_changes): its reports' differences with the previous
 * completed crawl, the SEO issues' when `seo` (the run has an SEO report). Written afresh, so a
 * retried finalize agrees; with nothing to compare with there is no row.
 */
export async function storeRunChanges(db: Db, run: Run, { seo }: { seo: boolean }): Promise<void> {
  await db
    .delete(runChanges)
    .where(and(eq(runChanges.tenant_id, run.tenant_id), eq(runChanges.run_id, run.id)));
  const previous = await previousCompletedRun(db, run);
  if (!previous) return;
  const compared = { tenantId: run.tenant_id, runId: run.id, previousId: previous.id };
  await db.insert(runChanges).values({
    run_id: run.id,
    tenant_id: run.tenant_id,
    seo: seo ? await seoIssueChanges(db, compared) : null,
    broken: await brokenTargetChanges(db, compared, sql`true`),
  });
}

/**
 * The broken-target changes of `run` against `previous` as finalization stored them, or
 * differenced now when they were not stored against that run (runs finalized before migration
 * 0039, another run compared with, as the monthly report does).
 */
export async function brokenChangesAgainst(db: Db, run: Run, previous: Run): Promise<StoredBrokenChanges> {
  const stored = await storedChanges(db, run, 'broken');
  if (stored?.previousRunId === previous.id) return stored;
  return brokenTargetChanges(
    db,
    { tenantId: run.tenant_id, runId: run.id, previousId: previous.id },
    sql`true`,
  );
}

/**
 * Broken targets of `run` absent from `previous` (new) and of `previous` absent from `run` (fixed),
 * distinct, counted, and the first MAX_LISTED_CHANGES of each side listed in code-unit order (stored
 * URLs are ASCII, percent-encoded and punycoded, so byte order is code-unit order). A side's targets
 * are those with a row `shown` (SQL over the row `b`: the site's current exclusions) that the other
 * run does not report at all. The set differences run in the database on the (run_id, target_url,
 * source_url) index, each computed once.
 */
export async function brokenTargetChanges(
  db: Db,
  { tenantId, runId, previousId }: { tenantId: string; runId: string; previousId: string },
  shown: SQL,
): Promise<StoredBrokenChanges> {
  const targets = (id: string, where: SQL) =>
    sql`select b.target_url from broken_links b where b.tenant_id = ${tenantId} and b.run_id = ${id}::uuid and ${where}`;
  const { newCount, fixedCount, added, gone } = await listedDifference<{ target_url: string }>(db, {
    added: sql`${targets(runId, shown)} except ${targets(previousId, sql`true`)}`,
    gone: sql`${targets(previousId, shown)} except ${targets(runId, sql`true`)}`,
    columns: 'target_url',
    order: 'target_url collate "C"',
  });
  return {
    previousRunId: previousId,
    newCount,
    fixedCount,
    newTargets: added.map((row) => row.target_url),
    fixedTargets: gone.map((row) => row.target_url),
  };
}

/**
 * The SEO changes of `run` against `previous` as finalization stored them, or differenced now when
 * they were not stored against that run (runs finalized before migration 0037, or a previous run
 * removed since).
 */
export async function seoChangesAgainst(db: Db, run: Run, previous: Run): Promise<StoredSeoChanges> {
  const stored = await storedChanges(db, run, 'seo');
  if (stored?.previousRunId === previous.id) return stored;
  return seoIssueChanges(db, { tenantId: run.tenant_id, runId: run.id, previousId: previous.id });
}

/**
 * SEO issues, identified by (check, page), of `run` absent from `previous` (new) and the reverse
 * (fixed), counted, and the first MAX_LISTED_CHANGES of each side listed as [check, pageUrl] by page
 * then check: the stored issue documents are expanded and differenced in the database, in one
 * statement (each difference computed once).
 */
async function seoIssueChanges(
  db: Db,
  { tenantId, runId, previousId }: { tenantId: string; runId: string; previousId: string },
): Promise<StoredSeoChanges> {
  const issues = (id: string) =>
    sql`select e ->> 0 as check_id, e ->> 2 as page_url
          from seo_reports r, jsonb_array_elements(r.issues) e
          where r.tenant_id = ${tenantId} and r.run_id = ${id}::uuid`;
  type Issue = { check_id: string; page_url: string };
  const { newCount, fixedCount, added, gone } = await listedDifference<Issue>(db, {
    added: sql`${issues(runId)} except ${issues(previousId)}`,
    gone: sql`${issues(previousId)} except ${issues(runId)}`,
    columns: 'check_id, page_url',
    order: 'page_url collate "C", check_id collate "C"',
  });
  const key = (row: Issue): [string, string] => [row.check_id, row.page_url];
  return {
    previousRunId: previousId,
    newCount,
    fixedCount,
    newIssues: added.map(key),
    fixedIssues: gone.map(key),
  };
}

/**
 * Two set differences of one shape, `added` (what the run has and the previous one not) and `gone`
 * (the reverse), each computed once in one statement: both counted, and the first
 * MAX_LISTED_CHANGES rows of each listed in `order`. `columns` and `order` are the query's own
 * constants, never input.
 */
async function listedDifference<Row>(
  db: Db,
  { added, gone, columns, order }: { added: SQL; gone: SQL; columns: string; order: string },
): Promise<{ newCount: number; fixedCount: number; added: Row[]; gone: Row[] }> {
  // Each listed row carries its side's count; a side with no rows has none to carry, and counts 0.
  const first = (side: 'added' | 'gone') =>
    sql`select ${side}::text as side, (select count(*) from ${sql.identifier(side)})::int as total,
          ${sql.raw(columns)}
        from ${sql.identifier(side)} order by ${sql.raw(order)} limit ${MAX_LISTED_CHANGES}::int`;
  const rows = await queryRows<Row & { side: 'added' | 'gone'; total: number }>(
    db,
    sql`with added as (${added}), gone as (${gone})
        (${first('added')}) union all (${first('gone')})`,
  );
  const side = (name: 'added' | 'gone') => rows.filter((row) => row.side === name);
  return {
    newCount: Number(side('added')[0]?.total ?? 0),
    fixedCount: Number(side('gone')[0]?.total ?? 0),
    added: side('added'),
    gone: side('gone'),
  };
}
