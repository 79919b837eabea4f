import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import { type BrokenLink, brokenLinks, type Run, type Site } from '@/lib/db/schema';
import { NotFoundError } from '@/lib/errors';
import { getVisibleSite } from '@/lib/sites/access';
import { type RunResource, runResource } from '@/lib/sites/resource';
import { encodeLinkAttrs } from '../engine/link-labels';
import { compileExcludes, NEVER, type PathMatcher } from '../engine/url';
import { brokenChangesAgainst, brokenTargetChanges, previousCompletedRun, reportRun } from './history';
import { encodeRedirectChain } from './redirect-chain';

/** The Broken link resource exactly as the spec lists it. */
export function brokenLinkResource(b: BrokenLink) {
  return {
    id: b.id,
    run_id: b.run_id,
    tenant_id: b.tenant_id,
    source_url: b.source_url,
    target_url: b.target_url,
    status: b.status,
    status_code: b.status_code,
    kind: b.kind,
    redirect_chain: encodeRedirectChain(b.redirect_chain),
    detail: b.detail,
    created_at: b.created_at,
    link_text: b.link_text,
    link_selector: b.link_selector,
    link_attrs: encodeLinkAttrs(b.link_attrs),
  };
}
export type BrokenLinkResource = ReturnType<typeof brokenLinkResource>;

/** What changed since the previous completed crawl (null id, empty lists and zeros when there is none). */
export interface BrokenTargetChanges {
  previousRunId: string | null;
  /** The first MAX_LISTED_CHANGES broken targets of this report that the previous run did not report broken. */
  newTargets: string[];
  /** The first MAX_LISTED_CHANGES targets the previous run reported broken that this run does not. */
  fixedTargets: string[];
  /** New targets in all. */
  newTargetCount: number;
  /** Fixed targets in all. */
  fixedTargetCount: number;
}

export interface BrokenLinkReport {
  run: RunResource;
  brokenLinks: BrokenLinkResource[];
  sincePreviousRun: BrokenTargetChanges;
}

/** Plain code-unit order: the same on every database collation. */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Whether the site's current excludePaths hide a report row: excluded source page or internal target. */
function excludedRow(
  isExcluded: PathMatcher,
  row: { source_url: string; target_url: string; kind: string },
): boolean {
  return isExcluded(row.source_url) || (row.kind === 'internal' && isExcluded(row.target_url));
}

/** What a broken-link view of one crawl reads: the run, what it compares with, and what is hidden. */
export interface BrokenLinkScope {
  site: Site;
  run: Run;
  /** The comparison's other side: the latest completed crawl started before `run` (see crawlComparison). */
  previous: Run | undefined;
  isExcluded: PathMatcher;
  /** URLs of both runs' rows that the current excludePaths hide (see `reportRowShown`); null: none. */
  excluded: string[] | null;
}

/**
 * The crawl a broken-link view shows (`runId`, else the latest), for the report and the list grouped
 * by target alike: the site must be visible with the Broken Links app on.
 */
export async function brokenLinkScope(
  db: Db,
  principal: Principal,
  { siteId, runId }: { siteId: string; runId?: string },
): Promise<BrokenLinkScope> {
  const site = await getVisibleSite(db, principal, siteId);
  if (site.scanner_enabled !== 1)
    throw new NotFoundError('the Broken Links app is not enabled for this site');
  const run = await reportRun(db, site, runId);
  return crawlComparison(db, site, run, await previousCompletedRun(db, run));
}

/**
 * The broken-link view of `run` of `site` (a site the caller already holds, e.g. the monthly report's)
 * compared with `previous`: the previous completed crawl for the report routes, the last crawl before
 * the month for the monthly report.
 */
export async function crawlComparison(
  db: Db,
  site: Site,
  run: Run,
  previous: Run | undefined,
): Promise<BrokenLinkScope> {
  const isExcluded = compileExcludes(site.exclude_paths);
  const excluded =
    isExcluded === NEVER
      ? null
      : await excludedReportUrls(
          db,
          site.tenant_id,
          [run.id, ...(previous ? [previous.id] : [])],
          isExcluded,
        );
  return { site, run, previous, isExcluded, excluded };
}

/**
 * The source pages and internal targets of the runs' report rows that `isExcluded` matches: the
 * globs run here, once per distinct URL, and SQL leaves the rows out by equality (reportRowShown).
 */
async function excludedReportUrls(
  db: Db,
  tenantId: string,
  runIds: string[],
  isExcluded: PathMatcher,
): Promise<string[]> {
  const ofRuns = sql`tenant_id = ${tenantId} and run_id in (${sql.join(
    runIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  )})`;
  const urls = await queryRows<{ url: string }>(
    db,
    sql`select source_url as url from broken_links where ${ofRuns}
        union select target_url from broken_links where ${ofRuns} and kind = 'internal'`,
  );
  return urls.map((row) => row.url).filter((url) => isExcluded(url));
}

/**
 * SQL: whether the broken_links row `alias` shows under the current excludePaths (`excludedRow`, as
 * the equality with the URLs `excludedReportUrls` found). The list travels as one JSON parameter.
 */
export function reportRowShown(excluded: string[] | null, alias = 'b'): SQL {
  if (!excluded?.length) return sql`true`;
  const table = sql.identifier(alias);
  const hidden = sql`(select jsonb_array_elements_text(${JSON.stringify(excluded)}::jsonb))`;
  return sql`not (${table}.source_url in ${hidden} or (${table}.kind = 'internal' and ${table}.target_url in ${hidden}))`;
}

/**
 * GET /v1/sites/{id}/report (the latest crawl) and /runs/{runId}/report (that crawl): one row per
 * (broken target, linking page), ordered by target then source. The site's current excludePaths
 * apply retroactively, to the rows, the headline counts (recomputed from the rows shown) and the
 * comparison with the previous run.
 */
export async function getBrokenLinkReport(
  db: Db,
  principal: Principal,
  { siteId, runId }: { siteId: string; runId?: string },
): Promise<BrokenLinkReport> {
  const scope = await brokenLinkScope(db, principal, { siteId, runId });
  const { site, run, isExcluded } = scope;
  const rows = (
    await db
      .select()
      .from(brokenLinks)
      .where(and(eq(brokenLinks.tenant_id, site.tenant_id), eq(brokenLinks.run_id, run.id)))
  ).filter((row) => !excludedRow(isExcluded, row));
  rows.sort((a, b) => byText(a.target_url, b.target_url) || byText(a.source_url, b.source_url));

  const targets = new Set<string>();
  const sources = new Set<string>();
  const internal = new Set<string>();
  const external = new Set<string>();
  for (const row of rows) {
    targets.add(row.target_url);
    sources.add(row.source_url);
    (row.kind === 'internal' ? internal : external).add(row.target_url);
  }
  return {
    run: {
      ...runResource(run),
      broken_count: targets.size,
      pages_with_broken_count: sources.size,
      internal_broken: internal.size,
      external_broken: external.size,
    },
    brokenLinks: rows.map(brokenLinkResource),
    sincePreviousRun: await brokenTargetsSincePrevious(db, scope),
  };
}

/**
 * New and fixed broken targets against the previous completed crawl, after the current exclusions:
 * as finalization stored them when nothing is hidden (run_changes), else differenced now.
 */
export async function brokenTargetsSincePrevious(
  db: Db,
  { run, previous, excluded }: Pick<BrokenLinkScope, 'run' | 'previous' | 'excluded'>,
): Promise<BrokenTargetChanges> {
  if (!previous)
    return { previousRunId: null, newTargets: [], fixedTargets: [], newTargetCount: 0, fixedTargetCount: 0 };
  // Exclusions that hide none of either run's rows change nothing: the stored difference holds.
  const changes = excluded?.length
    ? await brokenTargetChanges(
        db,
        { tenantId: run.tenant_id, runId: run.id, previousId: previous.id },
        reportRowShown(excluded),
      )
    : await brokenChangesAgainst(db, run, previous);
  return {
    previousRunId: previous.id,
    newTargets: changes.newTargets,
    fixedTargets: changes.fixedTargets,
    newTargetCount: changes.newCount,
    fixedTargetCount: changes.fixedCount,
  };
}
