/**
 * The accessibility report of a site, computed from the stored results of its latest run whose
 * render pass finished (an `a11y` run or a crawl that chained the pass, with rows in `a11y_pages`;
 * a pass still rendering is shown by the live state, not half in the report), with the site's current suppressions and excludePaths applied on read. The same
 * evaluation recomputes the run's stored counters when suppressions or excludePaths change, so the
 * status and run resources agree with the report.
 */
import { and, asc, desc, eq, exists, gte, isNull, lt, or, sql } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import { compileExcludes, type PathMatcher } from '@/lib/crawl/url';
import type { Db } from '@/lib/db/client';
import {
  a11yFindings,
  a11yManualChecks,
  a11yPages,
  a11ySuppressions,
  type Run,
  runs,
  type Site,
} from '@/lib/db/schema';
import { NotFoundError } from '@/lib/errors';
import { getVisibleSite } from '@/lib/sites/access';
import { decodeList, type RunResource, runResource } from '@/lib/sites/resource';
import { type A11yCoverage, coverageMatrix } from './coverage';
import { type A11yFinding, findingFromRow } from './findings';
import { type ManualCheck, manualChecksOverlay } from './manual-checks';
import { scansA11y } from './pass-state';
import { lookupAxeRule } from './rules';
import { gainByRule, type PageRuleResults, pageRuleResults, scorePage, scoreSite } from './score';
import {
  byPrinciple,
  type ComplianceTallies,
  complianceTallies,
  type ImpactCounts,
  impactCounts,
  issueCount,
  type PrincipleTally,
  resolvedSince,
} from './summary';
import { applySuppressions as applySuppressionsOf } from './suppressions';
import type { A11yVerdict } from './verdict';
import { siteVerdict } from './verdict';
import { criterionBySc, type WcagPrinciple } from './wcag';

type FindingRow = typeof a11yFindings.$inferSelect;

/** The Accessibility finding resource as the spec lists it (count and nodes after suppressions). */
export function findingResource(row: FindingRow, shown: A11yFinding) {
  return {
    id: row.id,
    run_id: row.run_id,
    tenant_id: row.tenant_id,
    page_url: row.page_url,
    rule: row.rule,
    impact: row.impact,
    wcag: row.wcag,
    help: row.help,
    help_url: row.help_url,
    type: row.type,
    count: shown.count,
    nodes: JSON.stringify(shown.nodes),
    created_at: row.created_at,
    standards: row.standards ?? { wcagLevel: null, en301549: false, section508: false },
    sc: row.sc,
    principle: row.principle,
  };
}
export type A11yFindingResource = ReturnType<typeof findingResource>;

/** The Accessibility suppression resource as the spec lists it. */
export function suppressionResource(row: typeof a11ySuppressions.$inferSelect) {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    site_id: row.site_id,
    rule: row.rule,
    selector: row.selector,
    page_url: row.page_url,
    reason: row.reason,
    created_by: row.created_by,
    created_at: row.created_at,
  };
}
export type A11ySuppressionResource = ReturnType<typeof suppressionResource>;

/** In the report, a suppression also says how many of the latest run's findings it hides. */
function reportedSuppression(row: typeof a11ySuppressions.$inferSelect, matchedCount: number) {
  return { ...suppressionResource(row), matchedCount };
}
type ReportedSuppression = ReturnType<typeof reportedSuppression>;

export interface A11yPageSummary {
  url: string;
  score: number;
  issues: number;
  violations: number;
  needsReview: number;
}

export interface A11ySummary {
  /** Recomputed after suppressions and excludePaths; null when no page was scanned. */
  score: number | null;
  critical: number;
  serious: number;
  moderate: number;
  minor: number;
  pagesScanned: number;
  verdict: A11yVerdict;
  byPrinciple: Record<WcagPrinciple, PrincipleTally>;
  resolvedSinceLastScan: number;
  compliance: ComplianceTallies;
}

/** A page of the run that could not be scanned, and why (a hang, a crash, a refused or off-site redirect). */
export interface A11yUnscannedPage {
  url: string;
  reason: string;
}

export interface A11yReport {
  run: RunResource;
  issues: A11yFindingResource[];
  descriptions: Record<string, string>;
  w3cUrls: Record<string, string>;
  gainByRule: Record<string, number>;
  byPage: A11yPageSummary[];
  /** Pages of the run not scanned, with the reason; excluded pages left out. Not in the spec. */
  notScanned: A11yUnscannedPage[];
  coverage: A11yCoverage;
  manualChecks: Record<string, ManualCheck>;
  summary: A11ySummary;
  suppressions: ReportedSuppression[];
}

const findingKey = (f: { pageUrl: string; rule: string; type: string }) => `${f.type} ${f.rule} ${f.pageUrl}`;

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

interface RunEvaluation {
  notScanned: A11yUnscannedPage[];
  rows: Map<string, FindingRow>;
  visible: A11yFinding[];
  pages: PageRuleResults[];
  matchedCount: Map<typeof a11ySuppressions.$inferSelect, number>;
  suppressions: (typeof a11ySuppressions.$inferSelect)[];
}

/** A run's findings and page outcomes on the pages not excluded, after the site's suppressions. */
async function evaluateRun(db: Db, site: Site, run: Run, isExcluded: PathMatcher): Promise<RunEvaluation> {
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

function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function pageSummaries(evaluation: RunEvaluation): A11yPageSummary[] {
  const tallies = new Map<string, { violations: number; needsReview: number }>();
  for (const finding of evaluation.visible) {
    const tally = tallies.get(finding.pageUrl) ?? { violations: 0, needsReview: 0 };
    if (finding.type === 'violation') tally.violations += 1;
    else tally.needsReview += 1;
    tallies.set(finding.pageUrl, tally);
  }
  return evaluation.pages
    .map((page) => {
      const tally = tallies.get(page.url) ?? { violations: 0, needsReview: 0 };
      return {
        url: page.url,
        score: scorePage(page),
        issues: tally.violations + tally.needsReview,
        ...tally,
      };
    })
    .sort((a, b) => a.score - b.score || b.violations - a.violations || byText(a.url, b.url));
}

/** GET /v1/sites/{id}/a11y-report. */
export async function getA11yReport(db: Db, principal: Principal, siteId: string): Promise<A11yReport> {
  const site = await getVisibleSite(db, principal, siteId);
  const run = await latestA11yRun(db, site, { withResults: true });
  if (!run) throw new NotFoundError('no accessibility scan has stored results for this site yet');
  const isExcluded = compileExcludes(decodeList(site.exclude_paths));
  const current = await evaluateRun(db, site, run, isExcluded);

  const resolved = await resolvedSincePrevious(db, site, run, current, isExcluded);

  const issues = current.visible
    .map((finding) => findingResource(current.rows.get(findingKey(finding))!, finding))
    .sort((a, b) => byText(a.page_url, b.page_url) || byText(a.rule, b.rule) || byText(a.type, b.type));
  const descriptions: Record<string, string> = {};
  const w3cUrls: Record<string, string> = {};
  for (const issue of issues) {
    const rule = lookupAxeRule(issue.rule);
    descriptions[issue.rule] = rule?.description ?? issue.help;
    const criterion = rule?.sc ? criterionBySc(rule.sc) : undefined;
    if (criterion) w3cUrls[issue.rule] = criterion.understandingUrl;
  }

  const checks = await db
    .select()
    .from(a11yManualChecks)
    .where(and(eq(a11yManualChecks.tenant_id, site.tenant_id), eq(a11yManualChecks.site_id, site.id)));
  const score = scoreSite(current.pages);
  return {
    run: runResource(run),
    issues,
    descriptions,
    w3cUrls,
    gainByRule: score === null ? {} : gainByRule(current.pages),
    byPage: pageSummaries(current),
    notScanned: current.notScanned,
    coverage: coverageMatrix(current.pages),
    manualChecks: manualChecksOverlay(
      new Map(checks.map((c) => [c.sc, { status: c.status, note: c.note, by: c.by, at: c.at }])),
    ),
    summary: {
      score,
      ...impactCounts(current.visible),
      pagesScanned: current.pages.length,
      verdict: siteVerdict(current.visible, current.pages.length),
      byPrinciple: byPrinciple(current.visible),
      resolvedSinceLastScan: resolved,
      compliance: complianceTallies(current.visible),
    },
    suppressions: current.suppressions.map((s) => reportedSuppression(s, current.matchedCount.get(s) ?? 0)),
  };
}

/** What a report of one accessibility run headlines: the `summary` figures that matter to a reader. */
export interface A11yRunOutcome {
  score: number | null;
  impacts: ImpactCounts;
  pagesScanned: number;
  verdict: A11yVerdict;
}

/**
 * Score, violations by impact and AA verdict of one run with results, computed as the report does
 * (the site's suppressions and excludePaths applied): the monthly report's accessibility section.
 */
export async function a11yRunOutcome(db: Db, site: Site, run: Run): Promise<A11yRunOutcome> {
  const evaluation = await evaluateRun(db, site, run, compileExcludes(decodeList(site.exclude_paths)));
  return {
    score: scoreSite(evaluation.pages),
    impacts: impactCounts(evaluation.visible),
    pagesScanned: evaluation.pages.length,
    verdict: siteVerdict(evaluation.visible, evaluation.pages.length),
  };
}

/** The run's stored accessibility counters, as the report computes them. */
export interface A11yRunCounters {
  a11y_score: number | null;
  a11y_critical: number;
  a11y_serious: number;
  a11y_moderate: number;
  a11y_minor: number;
  a11y_issue_count: number;
  a11y_pages_scanned: number;
}

/**
 * A run's counters from its stored results with the site's suppressions and excludePaths applied:
 * what the pass's finalization stores and what a suppression or excludePaths change recomputes, so
 * the status and run resources agree with the report; `a11y_resolved` against the previous run with
 * results.
 */
export async function a11yRunCounters(
  db: Db,
  site: Site,
  run: Run,
): Promise<A11yRunCounters & { a11y_resolved: number }> {
  const isExcluded = compileExcludes(decodeList(site.exclude_paths));
  const evaluation = await evaluateRun(db, site, run, isExcluded);
  const resolved = await resolvedSincePrevious(db, site, run, evaluation, isExcluded);
  return { ...countersOf(evaluation, run), a11y_resolved: resolved };
}

/** Violations of the previous run with results that are gone in `run`, on pages scanned in both. */
async function resolvedSincePrevious(
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

function countersOf(evaluation: RunEvaluation, run: Run): A11yRunCounters {
  const impacts = impactCounts(evaluation.visible);
  return {
    a11y_score: scoreSite(evaluation.pages),
    a11y_critical: impacts.critical,
    a11y_serious: impacts.serious,
    a11y_moderate: impacts.moderate,
    a11y_minor: impacts.minor,
    // The spec keeps the issue count 0 for crawl runs, a crawl that chained the pass included; that
    // pass's count is the report's `summary` and the impact counters above.
    a11y_issue_count: run.kind === 'a11y' ? issueCount(evaluation.visible) : 0,
    a11y_pages_scanned: evaluation.pages.length,
  };
}

/**
 * Stores the latest run's score, impact counts, issue count and pages scanned as the report now
 * computes them: called after a suppression is added or removed and after excludePaths change. A
 * site with no stored results has nothing to recompute.
 */
export async function recomputeA11yRun(db: Db, site: Site): Promise<void> {
  const run = await latestA11yRun(db, site, { withResults: true });
  if (!run) return;
  const evaluation = await evaluateRun(db, site, run, compileExcludes(decodeList(site.exclude_paths)));
  await db
    .update(runs)
    .set(countersOf(evaluation, run))
    .where(and(eq(runs.tenant_id, site.tenant_id), eq(runs.id, run.id)));
}

/** The same for a site by id, as the caller sees it: after PATCH /v1/sites/{id} changed excludePaths. */
export async function recomputeSiteA11yRun(db: Db, principal: Principal, siteId: string): Promise<void> {
  await recomputeA11yRun(db, await getVisibleSite(db, principal, siteId));
}
