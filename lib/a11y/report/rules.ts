/**
 * axe-core's rules, described for the report: the WCAG criteria each maps to, its level, the
 * standards it counts toward and the impact that weighs it in the score. Everything is derived from
 * the installed axe-core itself, so a new axe release brings its rules without a table to update.
 */
import axe from 'axe-core';
import { criterionBySc, isCurrentCriterion, type WcagLevel, type WcagPrinciple } from './wcag';

export type Impact = 'critical' | 'serious' | 'moderate' | 'minor';

const IMPACT_ORDER: readonly Impact[] = ['minor', 'moderate', 'serious', 'critical'];

export interface A11yRule {
  id: string;
  description: string;
  help: string;
  helpUrl: string;
  tags: readonly string[];
  /** WCAG success criteria from tags like `wcag1410`, in axe's tag order. */
  criteria: readonly string[];
  /** The first criterion, the one the report files the rule under. */
  sc: string | null;
  principle: WcagPrinciple | null;
  /** From `wcag2a`/`wcag21a`/`wcag22a` (A), `...aa` (AA), `...aaa` (AAA); null for best practice and for 4.1.1. */
  wcagLevel: WcagLevel | null;
  /**
   * The AA conformance level a confirmed violation breaks: the rule's A or AA level when it maps to a
   * criterion that is still in WCAG 2.2; null for AAA, best practice and rules that map only to the
   * obsolete 4.1.1 (which never breaks conformance).
   */
  conformanceLevel: 'A' | 'AA' | null;
  /**
   * axe's `EN-301-549` tag: the harmonised EN 301 549 (v3.2.1, WCAG 2.1 AA). The separate
   * `EN-301-549v4` tag marks the draft v4 (WCAG 2.2, e.g. `target-size`) and does not count until
   * v4 is the harmonised version.
   */
  en301549: boolean;
  /**
   * The revised Section 508 (2017) incorporates WCAG 2.0 level A and AA by reference, so every rule
   * tagged `wcag2a` or `wcag2aa` counts. Rules on 4.1.1 (tag `wcag2a-obsolete`) do not: W3C's 2023
   * errata to WCAG 2.0 make 4.1.1 always satisfied for HTML.
   */
  section508: boolean;
  bestPractice: boolean;
  experimental: boolean;
  /** The impact that weighs the rule in the score: its own, else the highest of its checks'. */
  impact: Impact | null;
}

/** What the derivation needs from axe for one rule; decoupled from axe so tests can hand-write it. */
export interface AxeRuleSource {
  ruleId: string;
  description: string;
  help: string;
  helpUrl: string;
  tags: readonly string[];
  impact: Impact | null;
  checkImpacts: readonly (Impact | null)[];
}

const CRITERION_TAG = /^wcag(\d)(\d)(\d{1,2})$/;
const LEVEL_TAG = /^wcag2[0-3]?(a{1,3})$/;

/** `wcag111` → `1.1.1`, `wcag1410` → `1.4.10`: principles and guidelines are single digits. */
export function criteriaFromTags(tags: readonly string[]): string[] {
  const criteria: string[] = [];
  for (const tag of tags) {
    const match = CRITERION_TAG.exec(tag);
    if (match) criteria.push(`${match[1]}.${match[2]}.${match[3]}`);
  }
  return criteria;
}

/** The strictest level among the rule's level tags (a rule tagged both A and AA counts as A). */
export function levelFromTags(tags: readonly string[]): WcagLevel | null {
  const levels = tags.flatMap((tag) => {
    const match = LEVEL_TAG.exec(tag);
    return match ? [(['A', 'AA', 'AAA'] as const)[match[1]!.length - 1]!] : [];
  });
  if (levels.includes('A')) return 'A';
  if (levels.includes('AA')) return 'AA';
  return levels.includes('AAA') ? 'AAA' : null;
}

/** An impact's place from minor (0) to critical (3); -1 for none. */
export const impactRank = (impact: Impact | null): number => (impact ? IMPACT_ORDER.indexOf(impact) : -1);

export function highestImpact(impacts: readonly (Impact | null)[]): Impact | null {
  let best = -1;
  for (const impact of impacts) if (impact) best = Math.max(best, IMPACT_ORDER.indexOf(impact));
  return best < 0 ? null : IMPACT_ORDER[best]!;
}

export function describeRule(source: AxeRuleSource): A11yRule {
  const { tags } = source;
  const criteria = criteriaFromTags(tags);
  const sc = criteria[0] ?? null;
  const wcagLevel = levelFromTags(tags);
  const breaksConformance =
    (wcagLevel === 'A' || wcagLevel === 'AA') && criteria.some((c) => isCurrentCriterion(c));
  return {
    id: source.ruleId,
    description: source.description,
    help: source.help,
    helpUrl: source.helpUrl,
    tags,
    criteria,
    sc,
    principle: sc ? (criterionBySc(sc)?.principle ?? null) : null,
    wcagLevel,
    conformanceLevel: breaksConformance ? (wcagLevel as 'A' | 'AA') : null,
    en301549: tags.includes('EN-301-549'),
    section508: tags.includes('wcag2a') || tags.includes('wcag2aa'),
    bestPractice: tags.includes('best-practice'),
    experimental: tags.includes('experimental'),
    impact: source.impact ?? highestImpact(source.checkImpacts),
  };
}

interface AxeAudit {
  rules: { id: string; impact?: Impact; any: unknown[]; all: unknown[]; none: unknown[] }[];
  data: { checks: Record<string, { impact?: Impact } | undefined> };
}

/**
 * The impacts axe keeps for each rule and its checks. `getRules()` does not expose impacts, so this
 * reads axe's private `_audit` (axe-core 4.x); it checks the shape and throws if a release moves it,
 * and `tests/unit/a11y-rules.test.ts` runs it on the installed axe.
 */
export function readAxeImpacts(): Map<string, { impact: Impact | null; checkImpacts: (Impact | null)[] }> {
  const audit: Partial<AxeAudit> | undefined = Reflect.get(axe, '_audit');
  if (!audit || !Array.isArray(audit.rules) || typeof audit.data?.checks !== 'object') {
    throw new Error('axe-core no longer exposes _audit.rules and _audit.data.checks: update readAxeImpacts');
  }
  const checks = audit.data.checks;
  const impacts = new Map<string, { impact: Impact | null; checkImpacts: (Impact | null)[] }>();
  for (const rule of audit.rules) {
    const checkIds = [...rule.any, ...rule.all, ...rule.none].map((c) =>
      typeof c === 'string' ? c : (c as { id: string }).id,
    );
    impacts.set(rule.id, {
      impact: rule.impact ?? null,
      checkImpacts: checkIds.map((id) => checks[id]?.impact ?? null),
    });
  }
  return impacts;
}

let catalog: ReadonlyMap<string, A11yRule> | undefined;

/** Every rule of the installed axe-core, by rule id (built once). */
export function axeRules(): ReadonlyMap<string, A11yRule> {
  if (catalog) return catalog;
  const impacts = readAxeImpacts();
  catalog = new Map(
    axe.getRules().map((rule) => {
      const own = impacts.get(rule.ruleId);
      return [
        rule.ruleId,
        describeRule({
          ruleId: rule.ruleId,
          description: rule.description,
          help: rule.help,
          helpUrl: rule.helpUrl,
          tags: rule.tags,
          impact: own?.impact ?? null,
          checkImpacts: own?.checkImpacts ?? [],
        }),
      ] as const;
    }),
  );
  return catalog;
}

/** Finds a rule's metadata by id; the report passes `lookupAxeRule`, tests may pass their own rules. */
export type RuleLookup = (ruleId: string) => A11yRule | undefined;

export const lookupAxeRule: RuleLookup = (ruleId) => axeRules().get(ruleId);

/**
 * The render pass's `runOnly` tags: WCAG 2.0/2.1/2.2 A and AA, AAA and best practice. Naming
 * `wcag22aa` is what runs `target-size`: axe disables it by default, but a rule whose tags match
 * `runOnly` runs whatever its default. axe still leaves out `experimental` and `deprecated` rules
 * (its default tag exclusions, which include 4.1.1's duplicate-id rules). `wcag22a`, `wcag21aaa` and
 * `wcag22aaa` carry no rule in axe 4.14 but are listed so rules a later axe files there run too.
 */
export const AXE_RUN_ONLY_TAGS: readonly string[] = [
  'wcag2a',
  'wcag2aa',
  'wcag21a',
  'wcag21aa',
  'wcag22a',
  'wcag22aa',
  'wcag2aaa',
  'wcag21aaa',
  'wcag22aaa',
  'best-practice',
];
