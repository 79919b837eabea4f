import { describe, expect, it } from 'vitest';
import { filterRuleGroups, groupByRule, sortRuleGroups } from '@/components/a11y/rule-groups';
import type { A11yFinding, A11yReport } from '@/components/api/types';

/* How the Accessibility tab groups, sorts and filters the report's findings (pure functions). */

let n = 0;
function finding(
  rule: string,
  pageUrl: string,
  type: A11yFinding['type'],
  impact: A11yFinding['impact'],
  wcagLevel: 'A' | 'AA' | 'AAA' | null,
  count = 1,
): A11yFinding {
  n += 1;
  return {
    id: `f${n}`,
    run_id: 'r',
    tenant_id: 't',
    page_url: pageUrl,
    rule,
    impact,
    wcag: null,
    help: `${rule} help`,
    help_url: `https://dequeuniversity.com/rules/axe/4.11/${rule}`,
    type,
    count,
    nodes: JSON.stringify([
      { selector: `#${rule}`, snippet: '<b></b>', summary: 'fix it' },
      { noSelector: true },
    ]),
    created_at: 0,
    standards: { wcagLevel, en301549: wcagLevel !== null, section508: wcagLevel === 'A' },
    sc: wcagLevel ? '1.1.1' : null,
    principle: wcagLevel ? 'Perceivable' : null,
  };
}

const report = {
  issues: [
    finding('image-alt', 'https://a.test/1', 'violation', 'serious', 'A', 2),
    finding('image-alt', 'https://a.test/2', 'violation', 'critical', 'A', 3),
    finding('region', 'https://a.test/1', 'violation', 'moderate', null),
    finding('target-size', 'https://a.test/3', 'violation', 'serious', 'AA'),
    finding('color-contrast', 'https://a.test/1', 'incomplete', 'serious', 'AA'),
    finding('image-alt', 'https://a.test/3', 'incomplete', 'critical', 'A'),
  ],
  descriptions: { 'image-alt': 'Images need alternative text' },
  w3cUrls: { 'image-alt': 'https://www.w3.org/WAI/WCAG22/Understanding/non-text-content' },
  gainByRule: { 'image-alt': 4.2, region: 0.5, 'target-size': 2 },
} as unknown as A11yReport;

describe('groupByRule', () => {
  it('groups one type per rule, never mixing violations and needs review', () => {
    const violations = groupByRule(report, 'violation');
    expect(violations.map((g) => g.rule).sort()).toEqual(['image-alt', 'region', 'target-size']);
    const review = groupByRule(report, 'incomplete');
    expect(review.map((g) => g.rule).sort()).toEqual(['color-contrast', 'image-alt']);
    expect(review.every((g) => g.gain === 0)).toBe(true);
    expect(review.find((g) => g.rule === 'image-alt')?.pages).toHaveLength(1);
  });

  it('takes the worst impact, sums elements, decodes example nodes and carries gain and links', () => {
    const imageAlt = groupByRule(report, 'violation').find((g) => g.rule === 'image-alt')!;
    expect(imageAlt.impact).toBe('critical');
    expect(imageAlt.elements).toBe(5);
    expect(imageAlt.pages.map((p) => p.finding.page_url)).toEqual(['https://a.test/1', 'https://a.test/2']);
    expect(imageAlt.pages[0]!.nodes).toEqual([
      { selector: '#image-alt', snippet: '<b></b>', summary: 'fix it' },
    ]);
    expect(imageAlt.gain).toBe(4.2);
    expect(imageAlt.description).toBe('Images need alternative text');
    expect(imageAlt.w3cUrl).toContain('non-text-content');
    expect(imageAlt.level).toBe('A');
  });
});

describe('sortRuleGroups and filterRuleGroups', () => {
  const groups = groupByRule(report, 'violation');

  it('sorts by gain, impact, pages or rule id', () => {
    expect(sortRuleGroups(groups, 'gain').map((g) => g.rule)).toEqual(['image-alt', 'target-size', 'region']);
    expect(sortRuleGroups(groups, 'impact').map((g) => g.rule)).toEqual([
      'image-alt',
      'target-size',
      'region',
    ]);
    expect(sortRuleGroups(groups, 'pages').map((g) => g.rule)[0]).toBe('image-alt');
    expect(sortRuleGroups(groups, 'rule').map((g) => g.rule)).toEqual(['image-alt', 'region', 'target-size']);
  });

  it('filters by impact, WCAG level (best practice = no level) and text over rule, help and pages', () => {
    const by = (filter: Parameters<typeof filterRuleGroups>[1]) =>
      filterRuleGroups(groups, filter)
        .map((g) => g.rule)
        .sort();
    expect(by({ impact: 'serious', level: 'all', text: '' })).toEqual(['target-size']);
    expect(by({ impact: 'all', level: 'best-practice', text: '' })).toEqual(['region']);
    expect(by({ impact: 'all', level: 'AA', text: '' })).toEqual(['target-size']);
    expect(by({ impact: 'all', level: 'all', text: 'a.test/3' })).toEqual(['target-size']);
    expect(by({ impact: 'all', level: 'all', text: 'ALTERNATIVE' })).toEqual(['image-alt']);
  });
});
