/**
 * The report summary's tallies, over findings after suppressions and excludes. Definitions:
 *
 * - A violation is one confirmed finding, i.e. one (page, rule) pair: a rule failing on 12 pages is
 *   12 violations, whatever the number of elements on each (that is the run's `a11y_issue_count`).
 * - Impact counts use the finding's own impact, the one axe reported on that page.
 * - `byPrinciple`: violations and needs-review findings of rules filed under that principle, and the
 *   pages with either; best-practice rules have no principle and appear in no entry. All four
 *   principles are always present.
 * - Compliance tallies: `rules` = distinct rules with a confirmed violation that count toward the
 *   standard, `occurrences` = elements they matched, the sum of `count` over those findings.
 */
import { type A11yFinding, isViolation } from './findings';
import { highestImpact, type Impact, impactRank, lookupAxeRule, type RuleLookup } from './rules';
import type { WcagPrinciple } from './wcag';

export type ImpactCounts = Record<Impact, number>;

export function impactCounts(findings: readonly A11yFinding[]): ImpactCounts {
  const counts: ImpactCounts = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  for (const finding of findings) if (isViolation(finding) && finding.impact) counts[finding.impact] += 1;
  return counts;
}

export function issueCount(findings: readonly A11yFinding[]): number {
  return findings.filter(isViolation).length;
}

export interface PrincipleTally {
  violations: number;
  needsReview: number;
  pages: number;
}

const PRINCIPLES: readonly WcagPrinciple[] = ['Perceivable', 'Operable', 'Understandable', 'Robust'];

export function byPrinciple(
  findings: readonly A11yFinding[],
  lookup: RuleLookup = lookupAxeRule,
): Record<WcagPrinciple, PrincipleTally> {
  const tallies = new Map(
    PRINCIPLES.map((p) => [p, { violations: 0, needsReview: 0, pages: new Set<string>() }]),
  );
  for (const finding of findings) {
    const principle = lookup(finding.rule)?.principle;
    const tally = principle ? tallies.get(principle) : undefined;
    if (!tally) continue;
    if (isViolation(finding)) tally.violations += 1;
    else tally.needsReview += 1;
    tally.pages.add(finding.pageUrl);
  }
  const result = {} as Record<WcagPrinciple, PrincipleTally>;
  for (const [principle, tally] of tallies) {
    result[principle] = {
      violations: tally.violations,
      needsReview: tally.needsReview,
      pages: tally.pages.size,
    };
  }
  return result;
}

export interface StandardTally {
  rules: number;
  occurrences: number;
}

export interface ComplianceTallies {
  en301549: StandardTally;
  section508: StandardTally;
}

export function complianceTallies(
  findings: readonly A11yFinding[],
  lookup: RuleLookup = lookupAxeRule,
): ComplianceTallies {
  const tally = (counts: (ruleId: string) => boolean): StandardTally => {
    const rules = new Set<string>();
    let occurrences = 0;
    for (const finding of findings) {
      if (!isViolation(finding) || !counts(finding.rule)) continue;
      rules.add(finding.rule);
      occurrences += finding.count;
    }
    return { rules: rules.size, occurrences };
  };
  return {
    en301549: tally((id) => lookup(id)?.en301549 === true),
    section508: tally((id) => lookup(id)?.section508 === true),
  };
}

/** A confirmed violation's identity across runs: the rule failing on the page. */
export interface ViolationKey {
  pageUrl: string;
  rule: string;
}

/**
 * Confirmed (page, rule) violations gone since `previous` (`resolved`, on pages `current` scanned: a
 * page this run did not scan proves nothing fixed) and, when `previousPages` is given, those that
 * appeared (`added`, on pages `previous` scanned: a page scanned for the first time is not a change).
 * Each list by page, then rule.
 */
export function violationChanges(
  previous: readonly A11yFinding[],
  current: readonly A11yFinding[],
  currentPages: ReadonlySet<string>,
  previousPages?: ReadonlySet<string>,
): { resolved: ViolationKey[]; added: ViolationKey[] } {
  const key = (f: ViolationKey) => `${f.pageUrl}\n${f.rule}`;
  const keys = (findings: readonly A11yFinding[], pages: ReadonlySet<string> | undefined) =>
    new Map(
      findings
        .filter((f) => isViolation(f) && (!pages || pages.has(f.pageUrl)))
        .map((f) => [key(f), { pageUrl: f.pageUrl, rule: f.rule }]),
    );
  const standing = keys(current, undefined);
  const before = keys(previous, undefined);
  const order = (a: ViolationKey, b: ViolationKey) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
  const resolved = [...keys(previous, currentPages)].filter(([k]) => !standing.has(k)).map(([, v]) => v);
  const added = previousPages
    ? [...keys(current, previousPages)].filter(([k]) => !before.has(k)).map(([, v]) => v)
    : [];
  return { resolved: resolved.sort(order), added: added.sort(order) };
}

/** `resolvedSinceLastScan`: the number of violations `violationChanges` finds resolved. */
export function resolvedSince(
  previous: readonly A11yFinding[],
  current: readonly A11yFinding[],
  scannedPages: ReadonlySet<string>,
): number {
  return violationChanges(previous, current, scannedPages).resolved.length;
}

/** A rule with confirmed violations: on which pages, how many elements, its highest impact there. */
export interface FailingRule {
  rule: string;
  impact: Impact | null;
  /** Pages the rule fails on, by URL. */
  pages: string[];
  /** Elements matched over those pages. */
  elements: number;
}

/** The rules with confirmed violations, those failing on the most pages first, then by impact and id. */
export function failingRules(findings: readonly A11yFinding[]): FailingRule[] {
  const byRule = new Map<string, A11yFinding[]>();
  for (const finding of findings.filter(isViolation))
    byRule.set(finding.rule, [...(byRule.get(finding.rule) ?? []), finding]);
  return [...byRule]
    .map(([rule, list]) => ({
      rule,
      impact: highestImpact(list.map((f) => f.impact)),
      pages: [...new Set(list.map((f) => f.pageUrl))].sort(),
      elements: list.reduce((sum, f) => sum + f.count, 0),
    }))
    .sort(
      (a, b) =>
        b.pages.length - a.pages.length ||
        impactRank(b.impact) - impactRank(a.impact) ||
        (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0),
    );
}
