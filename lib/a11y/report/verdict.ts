/**
 * The WCAG 2.2 AA verdict. Not compliant while any confirmed violation (after suppressions and
 * excludes) of a rule at level A or AA stands. Needs-review results, AAA and best-practice rules and
 * rules only on the obsolete 4.1.1 never break conformance (see `A11yRule.conformanceLevel`).
 * A rule id the installed axe-core does not know has no level and does not count either: the render
 * pass and the report use the same axe, so that happens only across an axe upgrade that drops a rule.
 *
 * `risk` counts failures as distinct rules (one rule failing on 40 pages is one failure to fix) and
 * pages as distinct pages with at least one of them:
 * "3 level A failures on 12 pages", "1 level AA failure on 1 page", and, when both levels fail,
 * A first: "2 level A and 1 level AA failures on 5 pages". null when compliant.
 */
import { type A11yFinding, isViolation } from './findings';
import { lookupAxeRule, type RuleLookup } from './rules';

export interface A11yVerdict {
  compliant: boolean;
  targetLevel: 'AA';
  risk: string | null;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

export function aaVerdict(findings: readonly A11yFinding[], lookup: RuleLookup = lookupAxeRule): A11yVerdict {
  const rulesAtA = new Set<string>();
  const rulesAtAA = new Set<string>();
  const pages = new Set<string>();
  for (const finding of findings) {
    if (!isViolation(finding)) continue;
    const level = lookup(finding.rule)?.conformanceLevel;
    if (!level) continue;
    (level === 'A' ? rulesAtA : rulesAtAA).add(finding.rule);
    pages.add(finding.pageUrl);
  }
  const a = rulesAtA.size;
  const aa = rulesAtAA.size;
  if (a + aa === 0) return { compliant: true, targetLevel: 'AA', risk: null };
  const noun = a + aa === 1 ? 'failure' : 'failures';
  const levels = [a > 0 ? `${a} level A` : null, aa > 0 ? `${aa} level AA` : null]
    .filter(Boolean)
    .join(' and ');
  return { compliant: false, targetLevel: 'AA', risk: `${levels} ${noun} on ${plural(pages.size, 'page')}` };
}

/**
 * The site's verdict for a run: `aaVerdict` over what was scanned, but a run that scanned no page
 * (every page hung, crashed or was refused) is not compliant: nothing was checked, and a yes would
 * read as a clean result.
 */
export function siteVerdict(
  findings: readonly A11yFinding[],
  pagesScanned: number,
  lookup: RuleLookup = lookupAxeRule,
): A11yVerdict {
  if (pagesScanned === 0) {
    return {
      compliant: false,
      targetLevel: 'AA',
      risk: 'no page could be scanned, so conformance is unknown',
    };
  }
  return aaVerdict(findings, lookup);
}
