/**
 * WCAG 2.2 success criteria, indexed for the accessibility report.
 *
 * `wcag22.json` is a verbatim copy of `shared/data/wcag22.json`, generated from w3c/wcag at commit
 * 58080bdb063746f1519d55c4714897ac4b83d171. The criterion titles, handles and levels are W3C text:
 * Web Content Accessibility Guidelines (WCAG) 2.2, Copyright © World Wide Web Consortium, used under
 * the W3C Document License (https://www.w3.org/copyright/document-license-2023/). Do not edit them;
 * regenerate the file from the source instead (see lib/a11y/README.md).
 */
import wcag22 from './wcag22.json';

export type WcagLevel = 'A' | 'AA' | 'AAA';
export type WcagPrinciple = 'Perceivable' | 'Operable' | 'Understandable' | 'Robust';

export interface WcagCriterion {
  sc: string;
  handle: string;
  title: string;
  /** null only for the obsolete 4.1.1, which has no level in WCAG 2.2. */
  level: WcagLevel | null;
  principle: WcagPrinciple;
  guideline: { num: string; title: string };
  /** Removed from WCAG 2.2 (4.1.1 Parsing): it never breaks conformance. */
  obsolete: boolean;
  understandingUrl: string;
}

export interface WcagGuideline {
  num: string;
  title: string;
  criteria: WcagCriterion[];
}

export interface WcagPrincipleEntry {
  num: string;
  title: WcagPrinciple;
  guidelines: WcagGuideline[];
}

interface RawCriterion {
  sc: string;
  handle: string;
  title: string;
  level: string;
  obsolete?: boolean;
  understandingUrl: string;
}

function levelOf(raw: RawCriterion): WcagLevel | null {
  if (raw.level === 'A' || raw.level === 'AA' || raw.level === 'AAA') return raw.level;
  if (raw.obsolete) return null;
  throw new Error(`wcag22.json: criterion ${raw.sc} has no level and is not marked obsolete`);
}

function buildPrinciples(): WcagPrincipleEntry[] {
  return wcag22.principles.map((p) => {
    const principle = p.title as WcagPrinciple;
    return {
      num: p.num,
      title: principle,
      guidelines: p.guidelines.map((g) => ({
        num: g.num,
        title: g.title,
        criteria: (g.criteria as RawCriterion[]).map((c) => ({
          sc: c.sc,
          handle: c.handle,
          title: c.title,
          level: levelOf(c),
          principle,
          guideline: { num: g.num, title: g.title },
          obsolete: c.obsolete === true,
          understandingUrl: c.understandingUrl,
        })),
      })),
    };
  });
}

/** Principles → guidelines → criteria in the order of the WCAG 2.2 document. */
export const WCAG_PRINCIPLES: readonly WcagPrincipleEntry[] = buildPrinciples();

const criteriaBySc = new Map<string, WcagCriterion>(
  WCAG_PRINCIPLES.flatMap((p) => p.guidelines.flatMap((g) => g.criteria.map((c) => [c.sc, c] as const))),
);

/** Every criterion in document order, the obsolete 4.1.1 included. */
export const WCAG_CRITERIA: readonly WcagCriterion[] = [...criteriaBySc.values()];

export function criterionBySc(sc: string): WcagCriterion | undefined {
  return criteriaBySc.get(sc);
}

/** A criterion a failure can break WCAG 2.2 conformance on: known and not obsolete. */
export function isCurrentCriterion(sc: string): boolean {
  const criterion = criteriaBySc.get(sc);
  return criterion !== undefined && !criterion.obsolete;
}
