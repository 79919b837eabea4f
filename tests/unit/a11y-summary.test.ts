import { describe, expect, it } from 'vitest';
import type { A11yFinding } from '@/lib/a11y/report/findings';
import {
  byPrinciple,
  complianceTallies,
  impactCounts,
  issueCount,
  resolvedSince,
} from '@/lib/a11y/report/summary';

// From the installed axe-core's tags: image-alt 1.1.1 Perceivable, EN 301 549 and Section 508;
// link-name 2.4.4 Operable, both; target-size 2.5.8 Operable, neither (EN-301-549v4 only, WCAG 2.2);
// color-contrast 1.4.3 Perceivable, both; region best practice, neither; label 4.1.2 Robust, both.
function f(
  pageUrl: string,
  rule: string,
  impact: A11yFinding['impact'],
  count = 1,
  type: A11yFinding['type'] = 'violation',
): A11yFinding {
  return { pageUrl, rule, type, impact, count, nodes: [] };
}

const findings = [
  f('/a', 'image-alt', 'critical', 3),
  f('/b', 'image-alt', 'critical', 2),
  f('/a', 'link-name', 'serious', 1),
  f('/b', 'target-size', 'serious', 4),
  f('/c', 'region', 'moderate', 5),
  f('/c', 'color-contrast', 'serious', 7, 'incomplete'),
  f('/d', 'label', 'critical', 1, 'incomplete'),
];

describe('summary tallies', () => {
  it('count confirmed violations (page, rule) by their impact; needs review is not counted', () => {
    expect(impactCounts(findings)).toEqual({ critical: 2, serious: 2, moderate: 1, minor: 0 });
    expect(issueCount(findings)).toBe(5);
  });

  it('tally violations, needs review and pages by principle, best practice in none', () => {
    expect(byPrinciple(findings)).toEqual({
      Perceivable: { violations: 2, needsReview: 1, pages: 3 },
      Operable: { violations: 2, needsReview: 0, pages: 2 },
      Understandable: { violations: 0, needsReview: 0, pages: 0 },
      Robust: { violations: 0, needsReview: 1, pages: 1 },
    });
  });

  it('tally EN 301 549 and Section 508: distinct rules and the elements they matched', () => {
    // image-alt (3 + 2) and link-name (1); target-size is WCAG 2.2 only, region best practice,
    // color-contrast and label only need review.
    expect(complianceTallies(findings)).toEqual({
      en301549: { rules: 2, occurrences: 6 },
      section508: { rules: 2, occurrences: 6 },
    });
    expect(complianceTallies([])).toEqual({
      en301549: { rules: 0, occurrences: 0 },
      section508: { rules: 0, occurrences: 0 },
    });
  });

  it('count as resolved the previous violations gone from pages scanned again', () => {
    const previous = [
      f('/a', 'image-alt', 'critical'), // still there
      f('/a', 'label', 'critical'), // fixed
      f('/b', 'link-name', 'serious'), // fixed
      f('/gone', 'image-alt', 'critical'), // page not scanned this time: not resolved
      f('/a', 'color-contrast', 'serious', 1, 'incomplete'), // needs review is not a violation
    ];
    const current = [f('/a', 'image-alt', 'critical'), f('/b', 'label', 'critical')];
    expect(resolvedSince(previous, current, new Set(['/a', '/b']))).toBe(2);
    expect(resolvedSince([], current, new Set(['/a']))).toBe(0);
  });
});
