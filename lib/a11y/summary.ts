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
import { type Impact, lookupAxeRule, type RuleLookup } from './rules';
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

/**
 * `resolvedSinceLastScan`: confirmed (page, rule) violations of the previous run that are gone in
 * this one, on pages this run scanned. A page this run did not scan proves nothing fixed, so its
 * old violations are not counted as resolved.
 */
export function resolvedSince(
  previous: readonly A11yFinding[],
  current: readonly A11yFinding[],
  scannedPages: ReadonlySet<string>,
): number {
  const key = (f: A11yFinding) => `${f.pageUrl}\n${f.rule}`;
  const standing = new Set(current.filter(isViolation).map(key));
  const before = new Set(previous.filter((f) => isViolation(f) && scannedPages.has(f.pageUrl)).map(key));
  let resolved = 0;
  for (const violation of before) if (!standing.has(violation)) resolved += 1;
  return resolved;
}
