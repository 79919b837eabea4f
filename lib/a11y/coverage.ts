/**
 * The coverage matrix: every WCAG 2.2 criterion with what the scan says about it.
 *
 * - `fail`: a confirmed, unsuppressed violation of a rule mapping to it; `pages` = pages with such
 *   a violation, `rules` = those rules.
 * - `pass`: rules mapping to it ran and passed, and none failed; `pages` = pages where one passed,
 *   `rules` = those rules.
 * - `manual`: no rule mapping to it ran (most criteria: axe cannot judge them), or only needs-review
 *   results; `pages` 0, `rules` empty.
 *
 * The obsolete 4.1.1 is left out: it is not a WCAG 2.2 criterion, so `totals.total` is 86, the
 * W3C's count. Manual checks are not an input: they overlay the matrix in the report
 * (`manualChecksOverlay`) and never change a status, the score or the verdict.
 */

import { lookupAxeRule, type RuleLookup } from './rules';
import type { PageRuleResults } from './score';
import type { WcagLevel } from './wcag';
import { WCAG_PRINCIPLES } from './wcag';

export type CoverageStatus = 'fail' | 'pass' | 'manual';

export interface CoverageCriterion {
  sc: string;
  name: string;
  level: WcagLevel;
  status: CoverageStatus;
  pages: number;
  rules: string[];
  w3cUrl: string;
}

export interface A11yCoverage {
  totals: { fail: number; pass: number; manual: number; total: number };
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
      }
    }
  }
  return evidence;
}

function judge(
  evidence: CriterionEvidence | undefined,
): Pick<CoverageCriterion, 'status' | 'pages' | 'rules'> {
  if (evidence && evidence.failedRules.size > 0) {
    return { status: 'fail', pages: evidence.failedPages.size, rules: [...evidence.failedRules].sort() };
  }
  if (evidence && evidence.passedRules.size > 0) {
    return { status: 'pass', pages: evidence.passedPages.size, rules: [...evidence.passedRules].sort() };
  }
  return { status: 'manual', pages: 0, rules: [] };
}

/** The matrix from the scanned pages' rule outcomes (after suppressions and excludes). */
export function coverageMatrix(
  pages: readonly PageRuleResults[],
  lookup: RuleLookup = lookupAxeRule,
): A11yCoverage {
  const evidence = gatherEvidence(pages, lookup);
  const totals = { fail: 0, pass: 0, manual: 0, total: 0 };
  const principles = WCAG_PRINCIPLES.map((principle) => ({
    principle: principle.title,
    guidelines: principle.guidelines.map((guideline) => ({
      guideline: `${guideline.num} ${guideline.title}`,
      criteria: guideline.criteria.flatMap((criterion): CoverageCriterion[] => {
        if (criterion.obsolete || criterion.level === null) return [];
        const judged = judge(evidence.get(criterion.sc));
        totals[judged.status] += 1;
        totals.total += 1;
        return [
          {
            sc: criterion.sc,
            name: criterion.title,
            level: criterion.level,
            ...judged,
            w3cUrl: criterion.understandingUrl,
          },
        ];
      }),
    })),
  }));
  return { totals, principles };
}
