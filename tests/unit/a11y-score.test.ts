import { describe, expect, it } from 'vitest';
import type { A11yFinding } from '@/lib/a11y/report/findings';
import { type A11yRule, axeRules, describeRule, type Impact } from '@/lib/a11y/report/rules';
import {
  gainByRule,
  type PageRuleResults,
  pageRuleResults,
  ruleWeight,
  scorePage,
  scoreSite,
} from '@/lib/a11y/report/score';
import { applySuppressions } from '@/lib/a11y/report/suppressions';

// Impacts and tags of the installed axe-core 4.14 rules used below (see a11y-rules.test.ts):
// image-alt critical A (10), color-contrast serious AA (7), document-title serious A (7),
// html-has-lang serious A (7), link-name serious A (7), region moderate best-practice (3),
// empty-heading minor best-practice (0), color-contrast-enhanced serious AAA (0),
// duplicate-id minor 4.1.1 (0).

const page = (url: string, passed: string[], violated: string[]): PageRuleResults => ({
  url,
  passed,
  violated,
});

describe('rule weights', () => {
  it("are Lighthouse's by impact, 0 for minor best practice, AAA, 4.1.1 and unknown rules", () => {
    const weightOf = (id: string) => ruleWeight(axeRules().get(id));
    expect(weightOf('image-alt')).toBe(10);
    expect(weightOf('color-contrast')).toBe(7);
    expect(weightOf('meta-viewport')).toBe(3); // its own impact, moderate, not its check's critical
    expect(weightOf('region')).toBe(3);
    expect(weightOf('empty-heading')).toBe(0);
    expect(weightOf('color-contrast-enhanced')).toBe(0);
    expect(weightOf('duplicate-id')).toBe(0);
    expect(weightOf('no-such-rule')).toBe(0);
  });
});

describe('scorePage', () => {
  it('is the weighted share of applicable rules that pass', () => {
    // passed 7 + 7 + 10 = 24 of 24 + 7 = 31 → 77.4
    expect(scorePage(page('a', ['document-title', 'html-has-lang', 'image-alt'], ['color-contrast']))).toBe(
      77,
    );
    // best-practice moderate weighs 3: 10 of 13 → 76.9
    expect(scorePage(page('b', ['image-alt'], ['region']))).toBe(77);
  });

  it('counts a rule with passing and violating elements as violated', () => {
    // document-title 7 of 7 + 10 → 41.2
    expect(scorePage(page('a', ['image-alt', 'document-title'], ['image-alt']))).toBe(41);
  });

  it('scores 100 on a page with only needs-review results (they are not inputs) or nothing weighted', () => {
    expect(scorePage(page('a', [], []))).toBe(100);
    expect(scorePage(page('a', ['empty-heading'], ['color-contrast-enhanced']))).toBe(100);
  });

  it('is unchanged by AAA, minor best-practice, 4.1.1 and unknown-rule violations', () => {
    const clean = page('a', ['document-title', 'image-alt'], ['color-contrast']);
    const base = scorePage(clean);
    expect(base).toBe(71); // 17 of 24 → 70.8
    for (const extra of ['color-contrast-enhanced', 'empty-heading', 'duplicate-id', 'no-such-rule']) {
      expect(scorePage({ ...clean, violated: ['color-contrast', extra] }), extra).toBe(base);
    }
  });
});

describe('scoreSite and gainByRule', () => {
  const pages = [
    page('https://s.test/a', ['document-title', 'html-has-lang', 'image-alt'], ['color-contrast']), // 24/31
    page('https://s.test/b', ['document-title', 'color-contrast'], ['image-alt', 'link-name']), // 14/31
  ];

  it('averages the pages exactly and rounds once', () => {
    // (24/31 + 14/31) / 2 = 61.29; rounding the pages first (77, 45) would give 61 too, so also:
    expect(scoreSite(pages)).toBe(61);
    // (1 + 0.5) / 2 = 75; pages 100 and 50
    expect(
      scoreSite([page('x', ['image-alt'], []), page('y', ['image-alt'], ['empty-heading', 'label'])]),
    ).toBe(75);
  });

  it('is null when no page was scanned', () => {
    expect(scoreSite([])).toBeNull();
    expect(gainByRule([])).toEqual({});
  });

  it('gives each violated rule the points fixing it everywhere recovers; the gains add up to 100 minus the score', () => {
    const gains = gainByRule(pages);
    // color-contrast: 7/31/2 = 11.29; image-alt: 10/31/2 = 16.13; link-name: 7/31/2 = 11.29
    expect(gains).toEqual({ 'color-contrast': 11.3, 'image-alt': 16.1, 'link-name': 11.3 });
    const total = Object.values(gains).reduce((a, b) => a + b, 0);
    expect(total).toBeCloseTo(100 - 61.29, 1);
    // Fixing image-alt everywhere: page b becomes 24/31, the site (24/31) = 77.4
    const fixed = [
      pages[0]!,
      page('https://s.test/b', ['document-title', 'color-contrast', 'image-alt'], ['link-name']),
    ];
    expect(scoreSite(fixed)).toBe(77);
  });

  it('gives 0 to violated rules that weigh nothing', () => {
    expect(gainByRule([page('a', ['image-alt'], ['empty-heading', 'color-contrast-enhanced'])])).toEqual({
      'color-contrast-enhanced': 0,
      'empty-heading': 0,
    });
  });

  it('rounds a site score on an exact half up, whatever the floating-point error', () => {
    const rule = (id: string, impact: Impact): A11yRule =>
      describeRule({
        ruleId: id,
        description: '',
        help: '',
        helpUrl: '',
        tags: ['wcag2a', 'wcag111'],
        impact,
        checkImpacts: [],
      });
    const rules = new Map([
      ['m1', rule('m1', 'moderate')],
      ['m2', rule('m2', 'moderate')],
      ['m3', rule('m3', 'moderate')],
      ['c', rule('c', 'critical')],
      ['n', rule('n', 'minor')],
    ]);
    const lookup = (id: string) => rules.get(id);
    // page 1: 100 %, page 2: 9 of 20 = 45 % → mean 72.5 → 73
    const halves = [page('1', ['m1'], []), page('2', ['m1', 'm2', 'm3'], ['c', 'n'])];
    expect(scorePage(halves[1]!, lookup)).toBe(45);
    expect(scoreSite(halves, lookup)).toBe(73);
    expect(gainByRule(halves, lookup)).toEqual({ c: 25, n: 2.5 });
  });
});

describe('pageRuleResults', () => {
  const v = (pageUrl: string, rule: string, type: A11yFinding['type'] = 'violation'): A11yFinding => ({
    pageUrl,
    rule,
    type,
    impact: 'critical',
    count: 1,
    nodes: [{ selector: '#x' }],
  });

  it('turns passes and findings after suppressions into outcomes, a wholly suppressed violation counting as a pass', () => {
    const passedByPage = new Map([
      ['/a', ['document-title', 'image-alt']],
      ['/b', ['document-title']],
    ]);
    const findings = [
      v('/a', 'image-alt'),
      v('/a', 'color-contrast'),
      v('/b', 'label'),
      v('/b', 'color-contrast', 'incomplete'),
    ];
    const outcome = applySuppressions(findings, [{ rule: 'color-contrast', selector: null, pageUrl: null }]);
    expect(pageRuleResults(passedByPage, outcome)).toEqual([
      {
        url: '/a',
        passed: ['document-title', 'color-contrast'],
        violated: ['image-alt'],
        // Passing for the score, but only through the suppression: coverage tells it apart.
        accepted: ['color-contrast'],
        needsReview: [],
      },
      { url: '/b', passed: ['document-title'], violated: ['label'], accepted: [], needsReview: [] },
    ]);
  });

  it('leaves out findings on pages that are not in the scanned set (excluded pages)', () => {
    const results = pageRuleResults(new Map([['/a', ['image-alt']]]), {
      visible: [v('/excluded', 'label')],
      hidden: [],
    });
    expect(results).toEqual([
      { url: '/a', passed: ['image-alt'], violated: [], accepted: [], needsReview: [] },
    ]);
    // and the site score ignores them: 100, not pulled down by the excluded page's label violation
    expect(scoreSite(results)).toBe(100);
  });
});
