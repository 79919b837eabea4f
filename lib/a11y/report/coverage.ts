/**
 * The coverage matrix: every WCAG 2.2 criterion with what the scan says about it.
 *
 * `status` (the spec's three values) is what the automated rules found:
 * - `fail`: a confirmed, unsuppressed violation of a rule mapping to it; `pages` = pages with such
 *   a violation, `rules` = those rules.
 * - `pass`: rules mapping to it ran and none failed: no automated failures, which is not a pass of
 *   the criterion (axe checks part of most criteria); `pages` = pages where one passed, `rules` =
 *   those rules.
 * - `manual`: no rule mapping to it ran (most criteria: axe cannot judge them), or only needs-review
 *   results; `pages` 0, `rules` empty.
 *
 * `automated` says how much of the criterion the automated rules covered in this scan:
 * - `complete`: every rule the render pass runs for the criterion (the installed axe-core's rules
 *   tagged with it, AXE_RUN_ONLY_TAGS, no experimental or deprecated ones) found something to check
 *   and passed, on every page where it applied, with no needs-review result and no violation hidden
 *   by a suppression. Nothing axe can check about the criterion was left unchecked or waved through.
 * - `partial`: some rule ran, but not all of that (1.3.1 judged by one of its rules; 1.1.1 once
 *   `image-alt` is suppressed).
 * - `none`: no rule ran for it.
 *
 * `reading` is what the dashboard shows, the automated status with the reviewer's manual check laid
 * over it: `fails` (a confirmed violation, or a manual check `failed`), `passes` (a manual check
 * `verified`, or complete automated coverage with no failure), `not-applicable` (a manual check),
 * `no-automated-failures` (status `pass` on partial coverage, unchecked), `untested` (status
 * `manual`, unchecked). A confirmed violation outranks a manual `verified`. Manual checks never
 * change `status`, the score or the verdict.
 *
 * The obsolete 4.1.1 is left out: it is not a WCAG 2.2 criterion, so `totals.total` is 86, the
 * W3C's count.
 */

import type { ManualCheck } from './manual-checks';
import { type A11yRule, AXE_RUN_ONLY_TAGS, axeRules, lookupAxeRule, type RuleLookup } from './rules';
import type { PageRuleResults } from './score';
import type { WcagLevel } from './wcag';
import { WCAG_PRINCIPLES } from './wcag';

export type CoverageStatus = 'fail' | 'pass' | 'manual';
export type AutomatedCoverage = 'complete' | 'partial' | 'none';
export const COVERAGE_READINGS = [
  'fails',
  'passes',
  'not-applicable',
  'no-automated-failures',
  'untested',
] as const;
export type CoverageReading = (typeof COVERAGE_READINGS)[number];

export interface CoverageCriterion {
  sc: string;
  name: string;
  level: WcagLevel;
  status: CoverageStatus;
  automated: AutomatedCoverage;
  reading: CoverageReading;
  pages: number;
  rules: string[];
  w3cUrl: string;
}

export interface A11yCoverage {
  totals: { fail: number; pass: number; manual: number; total: number };
  /** Criteria by `reading`, what the dashboard's counts say. */
  readings: Record<CoverageReading, number>;
  principles: {
    principle: string;
    guidelines: { guideline: string; criteria: CoverageCriterion[] }[];
  }[];
}

/** Per criterion, the pages and rules where a rule mapping to it failed or passed. */
class CriterionEvidence {
  readonly failedRules = new Set<string>();
  readonly failedPages = new Set<string>();
  readonly passedRules = new Set<string>();
  readonly passedPages = new Set<string>();
  /** Rules that passed somewhere with no hidden violation on that page: a clean pass. */
  readonly cleanRules = new Set<string>();
  /** Rules with a needs-review result or a suppressed violation somewhere: not fully checked. */
  readonly unsettledRules = new Set<string>();
}

/** A rule the render pass runs (lib/a11y/engine/axe-run.ts runs AXE_RUN_ONLY_TAGS, never experimental ones). */
function scanRuns(rule: A11yRule): boolean {
  return (
    !rule.experimental &&
    !rule.tags.includes('deprecated') &&
    rule.tags.some((tag) => AXE_RUN_ONLY_TAGS.includes(tag))
  );
}

/** The rules the render pass runs, by the criteria they map to: what `complete` is measured against. */
export function scanRulesByCriterion(
  rules: Iterable<A11yRule> = axeRules().values(),
): ReadonlyMap<string, readonly string[]> {
  const bySc = new Map<string, string[]>();
  for (const rule of rules) {
    if (!scanRuns(rule)) continue;
    for (const sc of rule.criteria) bySc.set(sc, [...(bySc.get(sc) ?? []), rule.id]);
  }
  return bySc;
}

function gatherEvidence(
  pages: readonly PageRuleResults[],
  lookup: RuleLookup,
): Map<string, CriterionEvidence> {
  const evidence = new Map<string, CriterionEvidence>();
  const of = (sc: string) => {
    const entry = evidence.get(sc) ?? new CriterionEvidence();
    evidence.set(sc, entry);
    return entry;
  };
  for (const page of pages) {
    const violated = new Set(page.violated);
    const accepted = new Set(page.accepted ?? []);
    for (const rule of [...accepted, ...(page.needsReview ?? [])]) {
      for (const sc of lookup(rule)?.criteria ?? []) of(sc).unsettledRules.add(rule);
    }
    for (const rule of violated) {
      for (const sc of lookup(rule)?.criteria ?? []) {
        of(sc).failedRules.add(rule);
        of(sc).failedPages.add(page.url);
      }
    }
    // A rule that also failed here needs no exclusion: any failure makes the criterion fail.
    for (const rule of page.passed) {
      for (const sc of lookup(rule)?.criteria ?? []) {
        of(sc).passedRules.add(rule);
        of(sc).passedPages.add(page.url);
        if (!accepted.has(rule)) of(sc).cleanRules.add(rule);
      }
    }
  }
  return evidence;
}

function judge(
  evidence: CriterionEvidence | undefined,
  scanRules: readonly string[],
): Pick<CoverageCriterion, 'status' | 'automated' | 'pages' | 'rules'> {
  if (!evidence || (evidence.failedRules.size === 0 && evidence.passedRules.size === 0)) {
    return { status: 'manual', automated: 'none', pages: 0, rules: [] };
  }
  const complete =
    evidence.failedRules.size === 0 &&
    scanRules.length > 0 &&
    scanRules.every((rule) => evidence.cleanRules.has(rule) && !evidence.unsettledRules.has(rule));
  const automated = complete ? 'complete' : 'partial';
  if (evidence.failedRules.size > 0) {
    return {
      status: 'fail',
      automated,
      pages: evidence.failedPages.size,
      rules: [...evidence.failedRules].sort(),
    };
  }
  return {
    status: 'pass',
    automated,
    pages: evidence.passedPages.size,
    rules: [...evidence.passedRules].sort(),
  };
}

/** What a criterion reads as, its automated status with the reviewer's manual check over it. */
export function readCriterion(
  criterion: Pick<CoverageCriterion, 'status' | 'automated'>,
  check: Pick<ManualCheck, 'status'> | undefined,
): CoverageReading {
  if (criterion.status === 'fail' || check?.status === 'failed') return 'fails';
  if (check?.status === 'verified') return 'passes';
  if (check?.status === 'not_applicable') return 'not-applicable';
  if (criterion.status === 'pass')
    return criterion.automated === 'complete' ? 'passes' : 'no-automated-failures';
  return 'untested';
}

/**
 * The matrix from the scanned pages' rule outcomes (after suppressions and excludes), read with the
 * site's manual checks.
 */
export function coverageMatrix(
  pages: readonly PageRuleResults[],
  checks: Readonly<Record<string, Pick<ManualCheck, 'status'>>> = {},
  lookup: RuleLookup = lookupAxeRule,
  scanRules: ReadonlyMap<string, readonly string[]> = scanRulesByCriterion(),
): A11yCoverage {
  const evidence = gatherEvidence(pages, lookup);
  const totals = { fail: 0, pass: 0, manual: 0, total: 0 };
  const readings = Object.fromEntries(COVERAGE_READINGS.map((r) => [r, 0])) as Record<
    CoverageReading,
    number
  >;
  const principles = WCAG_PRINCIPLES.map((principle) => ({
    principle: principle.title,
    guidelines: principle.guidelines.map((guideline) => ({
      guideline: `${guideline.num} ${guideline.title}`,
      criteria: guideline.criteria.flatMap((criterion): CoverageCriterion[] => {
        if (criterion.obsolete || criterion.level === null) return [];
        const judged = judge(evidence.get(criterion.sc), scanRules.get(criterion.sc) ?? []);
        const reading = readCriterion(judged, checks[criterion.sc]);
        totals[judged.status] += 1;
        totals.total += 1;
        readings[reading] += 1;
        return [
          {
            sc: criterion.sc,
            name: criterion.title,
            level: criterion.level,
            status: judged.status,
            automated: judged.automated,
            reading,
            pages: judged.pages,
            rules: judged.rules,
            w3cUrl: criterion.understandingUrl,
          },
        ];
      }),
    })),
  }));
  return { totals, readings, principles };
}
