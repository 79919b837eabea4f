/**
 * A run's figures beyond the report, evaluated as the report evaluates a run: the monthly report's
 * outcome and digest, and the run's stored counters, recomputed when suppressions or excludePaths
 * change so the status and run resources agree with the report.
 */
import { and, eq } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import { compileExcludes } from '@/lib/crawl/engine/url';
import type { Db } from '@/lib/db/client';
import { type Run, runs, type Site } from '@/lib/db/schema';
import { getVisibleSite } from '@/lib/sites/access';
import { evaluateRun, latestA11yRun, type RunEvaluation, resolvedSincePrevious } from './evaluate';
import { lookupAxeRule } from './rules';
import { scoreSite } from './score';
import {
  type FailingRule,
  failingRules,
  type ImpactCounts,
  impactCounts,
  issueCount,
  type ViolationKey,
  violationChanges,
} from './summary';
import type { A11yVerdict } from './verdict';
import { siteVerdict } from './verdict';

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
  const evaluation = await evaluateRun(db, site, run, compileExcludes(site.exclude_paths));
  return {
    score: scoreSite(evaluation.pages),
    impacts: impactCounts(evaluation.visible),
    pagesScanned: evaluation.pages.length,
    verdict: siteVerdict(evaluation.visible, evaluation.pages.length),
  };
}

/** The monthly report's accessibility detail of one run: what fails where, and what changed. */
export interface A11yRunDigest {
  /** Rules with confirmed violations, failing on the most pages first, each with its help text. */
  rules: (FailingRule & { help: string })[];
  /** Against `since` (null without one): violations that appeared and went away, on pages both scanned. */
  changes: { added: ViolationKey[]; resolved: ViolationKey[] } | null;
}

/**
 * The failing rules of `run` and its violations added and resolved since `since` (the last scan
 * before the month), evaluated as the report evaluates a run (the site's suppressions and
 * excludePaths applied to both).
 */
export async function a11yRunDigest(
  db: Db,
  site: Site,
  run: Run,
  since: Run | undefined,
): Promise<A11yRunDigest> {
  const isExcluded = compileExcludes(site.exclude_paths);
  const current = await evaluateRun(db, site, run, isExcluded);
  const rules = failingRules(current.visible).map((failing) => {
    const row = [...current.rows.values()].find((r) => r.rule === failing.rule);
    return { ...failing, help: lookupAxeRule(failing.rule)?.help ?? row?.help ?? failing.rule };
  });
  if (!since) return { rules, changes: null };
  const previous = await evaluateRun(db, site, since, isExcluded);
  const pagesOf = (evaluation: RunEvaluation) => new Set(evaluation.pages.map((p) => p.url));
  return {
    rules,
    changes: violationChanges(previous.visible, current.visible, pagesOf(current), pagesOf(previous)),
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
  const isExcluded = compileExcludes(site.exclude_paths);
  const evaluation = await evaluateRun(db, site, run, isExcluded);
  const resolved = await resolvedSincePrevious(db, site, run, evaluation, isExcluded);
  return { ...countersOf(evaluation, run), a11y_resolved: resolved };
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
  const evaluation = await evaluateRun(db, site, run, compileExcludes(site.exclude_paths));
  await db
    .update(runs)
    .set(countersOf(evaluation, run))
    .where(and(eq(runs.tenant_id, site.tenant_id), eq(runs.id, run.id)));
}

/** The same for a site by id, as the caller sees it: after PATCH /v1/sites/{id} changed excludePaths. */
export async function recomputeSiteA11yRun(db: Db, principal: Principal, siteId: string): Promise<void> {
  await recomputeA11yRun(db, await getVisibleSite(db, principal, siteId));
}
