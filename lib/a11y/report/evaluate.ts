/**
 * A run's stored results as the report reads them: the latest run whose render pass finished (an
 * `a11y` run or a crawl that chained the pass, with rows in `a11y_pages`; a pass still rendering is
 * shown by the live state, not half in the report), evaluated with the site's current suppressions
 * and excludePaths applied on read. The report, the run's stored counters and the monthly report all
 * evaluate a run here, so they agree.
 */
import { and, asc, desc, eq, exists, gte, isNull, lt, or, sql } from 'drizzle-orm';
import type { PathMatcher } from '@/lib/crawl/engine/url';
import type { Db } from '@/lib/db/client';
import { a11yFindings, a11yPages, a11ySuppressions, type Run, runs, type Site } from '@/lib/db/schema';
import { scansA11y } from '../runs/pass-state';
import { type A11yFinding, findingFromRow } from './findings';
import { type PageRuleResults, pageRuleResults } from './score';
import { resolvedSince } from './summary';
import { applySuppressions as applySuppressionsOf } from './suppressions';

export type FindingRow = typeof a11yFindings.$inferSelect;

/** A page of the run that could not be scanned, and why (a hang, a crash, a refused or off-site redirect). */
export interface A11yUnscannedPage {
  url: string;
  reason: string;
}

export const findingKey = (f: { pageUrl: string; rule: string; type: string }) =>
  `${f.type} ${f.rule} ${f.pageUrl}`;

export interface LatestA11yRunOptions {
  /** Only a run started before this one (the previous scan, for `resolvedSinceLastScan`). */
  before?: Run;
  /**
   * Only a run whose pass has finished rendering and stored pages: what the report reads. Without
   * it, the latest run that scanned or is scanning accessibility (the status endpoint's).
   */
  withResults?: boolean;
  /** Only a run started in `[from, to)` (the monthly report's month). */
  startedWithin?: { from: number; to: number };
}

/**
 * The latest run of the site that scanned or is scanning accessibility (`scansA11y`: a standalone
 * `a11y` run or a crawl chaining the pass), newest first.
 */
export async function latestA11yRun(
  db: Db,
  site: Pick<Site, 'tenant_id' | 'id'>,
  options: LatestA11yRunOptions = {},
): Promise<Run | undefined> {
  const { before, withResults = false, startedWithin } = options;
  const [run] = await db
    .select()
    .from(runs)
    .where(
      and(
        eq(runs.tenant_id, site.tenant_id),
        eq(runs.site_id, site.id),
        scansA11y,
        before ? lt(runs.started_at, before.started_at) : undefined,
        startedWithin
          ? and(gte(runs.started_at, startedWithin.from), lt(runs.started_at, startedWithin.to))
          : undefined,
        withResults ? or(isNull(runs.a11y_phase), eq(runs.a11y_phase, 'done')) : undefined,
        withResults
          ? exists(
              db
                .select({ one: sql`1` })
                .from(a11yPages)
                .where(and(eq(a11yPages.tenant_id, site.tenant_id), eq(a11yPages.run_id, runs.id))),
            )
          : undefined,
      ),
    )
    .orderBy(desc(runs.started_at))
    .limit(1);
  return run;
}

export interface RunEvaluation {
  notScanned: A11yUnscannedPage[];
  rows: Map<string, FindingRow>;
  visible: A11yFinding[];
  pages: PageRuleResults[];
  matchedCount: Map<typeof a11ySuppressions.$inferSelect, number>;
  suppressions: (typeof a11ySuppressions.$inferSelect)[];
}

/** A run's findings and page outcomes on the pages not excluded, after the site's suppressions. */
export async function evaluateRun(
  db: Db,
  site: Site,
  run: Run,
  isExcluded: PathMatcher,
): Promise<RunEvaluation> {
  const pageRows = await db
    .select({
      url: a11yPages.page_url,
      status: a11yPages.status,
      reason: a11yPages.reason,
      passes: a11yPages.passes,
    })
    .from(a11yPages)
    .where(and(eq(a11yPages.tenant_id, site.tenant_id), eq(a11yPages.run_id, run.id)))
    .orderBy(asc(a11yPages.page_url));
  const passedByPage = new Map<string, readonly string[]>();
  const notScanned: A11yUnscannedPage[] = [];
  for (const page of pageRows) {
    if (isExcluded(page.url)) continue;
    if (page.status === 'scanned') passedByPage.set(page.url, page.passes);
    else if (page.status === 'not-scanned')
      notScanned.push({ url: page.url, reason: page.reason ?? 'not scanned' });
  }
  const findingRows = await db
    .select()
    .from(a11yFindings)
    .where(and(eq(a11yFindings.tenant_id, site.tenant_id), eq(a11yFindings.run_id, run.id)));
  const rows = new Map<string, FindingRow>();
  const findings: A11yFinding[] = [];
  for (const row of findingRows) {
    if (!passedByPage.has(row.page_url)) continue;
    const finding = findingFromRow(row);
    rows.set(findingKey(finding), row);
    findings.push(finding);
  }
  const suppressions = await db
    .select()
    .from(a11ySuppressions)
    .where(and(eq(a11ySuppressions.tenant_id, site.tenant_id), eq(a11ySuppressions.site_id, site.id)))
    .orderBy(asc(a11ySuppressions.created_at), asc(a11ySuppressions.id));
  const scopes = suppressions.map((row) => ({
    rule: row.rule,
    selector: row.selector,
    pageUrl: row.page_url,
    row,
  }));
  const outcome = applySuppressionsOf(findings, scopes);
  return {
    notScanned,
    rows,
    visible: outcome.visible,
    pages: pageRuleResults(passedByPage, outcome),
    matchedCount: new Map(scopes.map((scope) => [scope.row, outcome.matchedCount.get(scope) ?? 0])),
    suppressions,
  };
}

/** Violations of the previous run with results that are gone in `run`, on pages scanned in both. */
export async function resolvedSincePrevious(
  db: Db,
  site: Site,
  run: Run,
  current: RunEvaluation,
  isExcluded: PathMatcher,
): Promise<number> {
  const previousRun = await latestA11yRun(db, site, { before: run, withResults: true });
  if (!previousRun) return 0;
  const previous = await evaluateRun(db, site, previousRun, isExcluded);
  return resolvedSince(previous.visible, current.visible, new Set(current.pages.map((p) => p.url)));
}
