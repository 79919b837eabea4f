/**
 * The accessibility score, 0-100. Per page: the weighted share of applicable rules that pass, with
 * Lighthouse's weights by impact; the site score is the mean over scanned pages.
 *
 * - Applicable = the rule passed or has a confirmed violation on the page. Inapplicable rules and
 *   "needs review" (incomplete) results are not inputs at all, so they can never lower the score.
 * - A rule with both passing and violating elements on a page (axe lists it in both) counts as
 *   violated there.
 * - A page with no weighted applicable rule (everything inapplicable, needs review or weight 0)
 *   scores 100: nothing that weighs failed on it. It still counts in the site mean, so every
 *   scanned page is in the mean and `byPage` always has an integer.
 * - Rounding: pages' exact ratios are averaged, and only the site score is rounded, once, to the
 *   nearest integer (halves up). Gains are rounded to one decimal. Both add 1e-9 before rounding so
 *   binary floating-point error (72.4999999) cannot flip a result that is exactly on a half.
 */
import { type A11yFinding, isViolation } from './findings';
import { type A11yRule, type Impact, lookupAxeRule, type RuleLookup } from './rules';

/** Lighthouse's accessibility weights by axe impact. */
export const IMPACT_WEIGHTS: Readonly<Record<Impact, number>> = {
  critical: 10,
  serious: 7,
  moderate: 3,
  minor: 1,
};

/** Best-practice rules weigh the same, except that a minor best-practice rule weighs nothing. */
export const BEST_PRACTICE_WEIGHTS: Readonly<Record<Impact, number>> = { ...IMPACT_WEIGHTS, minor: 0 };

/**
 * A rule's weight. AAA rules weigh 0 (beyond the AA target), and so do rules only on the obsolete
 * 4.1.1 (never a failure in WCAG 2.2) and rule ids the installed axe does not know (no impact to
 * weigh them by).
 */
export function ruleWeight(rule: A11yRule | undefined): number {
  if (!rule?.impact) return 0;
  if (rule.bestPractice) return BEST_PRACTICE_WEIGHTS[rule.impact];
  if (rule.conformanceLevel === null) return 0;
  return IMPACT_WEIGHTS[rule.impact];
}

/** One scanned page's rule outcomes, after suppressions and excludes. */
export interface PageRuleResults {
  url: string;
  /** Rule ids that ran and passed. */
  passed: readonly string[];
  /** Rule ids with a confirmed, unsuppressed violation. */
  violated: readonly string[];
  /**
   * Of `passed`, the rules with a violation here that suppressions hid (every element of it): the
   * score counts them as passing, the coverage matrix does not take them for a clean pass.
   */
  accepted?: readonly string[];
  /** Rule ids with a visible needs-review result here: axe could not decide every element. */
  needsReview?: readonly string[];
}

/**
 * Each scanned page's outcomes from the rules that passed there and its findings after
 * suppressions. A violation that suppressions hid entirely counts as a pass: the reviewer accepted
 * the elements it flagged, so the rule stands as satisfied there. Needs-review findings are not
 * outcomes. Findings on pages outside `passedByPage` (excluded pages, pages not scanned) are left out.
 */
export function pageRuleResults(
  passedByPage: ReadonlyMap<string, readonly string[]>,
  outcome: { visible: readonly A11yFinding[]; hidden: readonly A11yFinding[] },
): PageRuleResults[] {
  const violated = new Map<string, Set<string>>();
  const accepted = new Map<string, Set<string>>();
  const review = new Map<string, Set<string>>();
  const add = (into: Map<string, Set<string>>, finding: A11yFinding) => {
    const rules = into.get(finding.pageUrl) ?? new Set<string>();
    into.set(finding.pageUrl, rules.add(finding.rule));
  };
  for (const finding of outcome.visible) add(isViolation(finding) ? violated : review, finding);
  for (const finding of outcome.hidden) if (isViolation(finding)) add(accepted, finding);
  return [...passedByPage].map(([url, passed]) => {
    const failing = violated.get(url) ?? new Set<string>();
    const hidden = [...(accepted.get(url) ?? [])].filter((rule) => !failing.has(rule));
    const passing = new Set([...passed, ...hidden].filter((rule) => !failing.has(rule)));
    return {
      url,
      passed: [...passing],
      violated: [...failing],
      accepted: hidden,
      needsReview: [...(review.get(url) ?? [])],
    };
  });
}

interface PageWeights {
  passed: number;
  applicable: number;
  /** Weight of each violated rule, by rule id. */
  violated: Map<string, number>;
}

function weighPage(page: PageRuleResults, lookup: RuleLookup): PageWeights {
  const violated = new Map<string, number>();
  for (const rule of new Set(page.violated)) violated.set(rule, ruleWeight(lookup(rule)));
  let passed = 0;
  for (const rule of new Set(page.passed)) if (!violated.has(rule)) passed += ruleWeight(lookup(rule));
  let failed = 0;
  for (const weight of violated.values()) failed += weight;
  return { passed, applicable: passed + failed, violated };
}

function ratio(weights: PageWeights): number {
  return weights.applicable === 0 ? 1 : weights.passed / weights.applicable;
}

const ROUNDING_SLACK = 1e-9;

function roundToInteger(value: number): number {
  return Math.floor(value + 0.5 + ROUNDING_SLACK);
}

function roundToTenth(value: number): number {
  return Math.floor(value * 10 + 0.5 + ROUNDING_SLACK) / 10;
}

/** A page's score, an integer 0-100. */
export function scorePage(page: PageRuleResults, lookup: RuleLookup = lookupAxeRule): number {
  return roundToInteger(ratio(weighPage(page, lookup)) * 100);
}

/** The exact (unrounded) site score: the mean of the pages' ratios, times 100. */
function exactSiteScore(pages: readonly PageWeights[]): number {
  let sum = 0;
  for (const page of pages) sum += ratio(page);
  return (sum / pages.length) * 100;
}

/** The site score, an integer 0-100; null when no page was scanned. */
export function scoreSite(
  pages: readonly PageRuleResults[],
  lookup: RuleLookup = lookupAxeRule,
): number | null {
  if (pages.length === 0) return null;
  return roundToInteger(exactSiteScore(pages.map((page) => weighPage(page, lookup))));
}

/**
 * Points (one decimal) the site score gains if a rule passed on every page where it is violated,
 * for every violated rule (0 for rules that weigh nothing). Fixing a rule moves its weight from
 * failed to passed without changing a page's applicable weight, so gains add up: their exact sum
 * is 100 minus the exact site score.
 */
export function gainByRule(
  pages: readonly PageRuleResults[],
  lookup: RuleLookup = lookupAxeRule,
): Record<string, number> {
  const exactGains = new Map<string, number>();
  for (const page of pages) {
    const weights = weighPage(page, lookup);
    for (const [rule, weight] of weights.violated) {
      const share = weights.applicable === 0 ? 0 : (weight / weights.applicable / pages.length) * 100;
      exactGains.set(rule, (exactGains.get(rule) ?? 0) + share);
    }
  }
  const gains: Record<string, number> = {};
  for (const rule of [...exactGains.keys()].sort()) gains[rule] = roundToTenth(exactGains.get(rule)!);
  return gains;
}
