import { describe, expect, it } from 'vitest';
import type { A11yFinding } from '@/lib/a11y/report/findings';
import {
  type A11ySuppressionScope,
  applySuppressions,
  MAX_SUPPRESSION_REASON_LENGTH,
  MAX_SUPPRESSION_SELECTOR_LENGTH,
  validateSuppression,
} from '@/lib/a11y/report/suppressions';

const A = 'https://s.test/a';
const B = 'https://s.test/b';

function finding(pageUrl: string, rule: string, selectors: string[], count = selectors.length): A11yFinding {
  return {
    pageUrl,
    rule,
    type: 'violation',
    impact: 'critical',
    count,
    nodes: selectors.map((selector) => ({ selector, snippet: `<x ${selector}>` })),
  };
}

const scope = (
  rule: string,
  selector: string | null = null,
  pageUrl: string | null = null,
): A11ySuppressionScope => ({
  rule,
  selector,
  pageUrl,
});

describe('applySuppressions', () => {
  const findings = [
    finding(A, 'image-alt', ['#logo', '#hero']),
    finding(B, 'image-alt', ['#logo']),
    { ...finding(A, 'color-contrast', ['.muted']), type: 'incomplete' as const },
    finding(B, 'label', ['#q']),
  ];

  it('rule scope: hides every finding of the rule on every page, violations and needs-review alike', () => {
    const imageAlt = scope('image-alt');
    const contrast = scope('color-contrast');
    const out = applySuppressions(findings, [imageAlt, contrast]);
    expect(out.visible.map((f) => `${f.pageUrl} ${f.rule}`)).toEqual([`${B} label`]);
    expect(out.hidden).toHaveLength(3);
    expect(out.matchedCount.get(imageAlt)).toBe(2);
    expect(out.matchedCount.get(contrast)).toBe(1);
  });

  it('rule + selector: hides that element on every page; a finding with other failing elements stays with them', () => {
    const logo = scope('image-alt', '#logo');
    const out = applySuppressions(findings, [logo]);
    expect(out.hidden).toEqual([findings[1]]);
    expect(out.visible[0]).toEqual({
      ...findings[0],
      count: 1,
      nodes: [{ selector: '#hero', snippet: '<x #hero>' }],
    });
    expect(out.visible).toHaveLength(3);
    expect(out.matchedCount.get(logo)).toBe(2);
  });

  it('rule + selector + pageUrl: hides that element on that page only', () => {
    const logoOnB = scope('image-alt', '#logo', B);
    const out = applySuppressions(findings, [logoOnB]);
    expect(out.hidden).toEqual([findings[1]]);
    expect(out.visible[0]).toBe(findings[0]);
    expect(out.matchedCount.get(logoOnB)).toBe(1);
  });

  it('leaves findings of other rules, other selectors and other pages untouched', () => {
    const out = applySuppressions(findings, [
      scope('label', '#other'),
      scope('image-alt', '#hero', B),
      scope('list'),
    ]);
    expect(out.visible).toEqual(findings);
    expect(out.hidden).toEqual([]);
    expect([...out.matchedCount.values()]).toEqual([0, 0, 0]);
  });

  it('two selector suppressions together hide a finding, and each counts it', () => {
    const logo = scope('image-alt', '#logo');
    const hero = scope('image-alt', '#hero', A);
    const out = applySuppressions([findings[0]!], [logo, hero]);
    expect(out.hidden).toEqual([findings[0]]);
    expect(out.matchedCount.get(logo)).toBe(1);
    expect(out.matchedCount.get(hero)).toBe(1);
  });

  it('cannot hide elements beyond the capped examples: the finding stays with their count', () => {
    const capped = finding(A, 'image-alt', ['#logo', '#hero'], 5);
    const out = applySuppressions([capped], [scope('image-alt', '#logo'), scope('image-alt', '#hero')]);
    expect(out.hidden).toEqual([]);
    expect(out.visible).toEqual([{ ...capped, count: 3, nodes: [] }]);
  });
});

describe('validateSuppression', () => {
  it('accepts the three scopes, trims, and keys pageUrl as the crawler does', () => {
    expect(validateSuppression({ rule: 'image-alt' })).toEqual({
      ok: true,
      value: { rule: 'image-alt', selector: null, pageUrl: null, reason: null },
    });
    expect(validateSuppression({ rule: ' image-alt ', selector: ' #logo ', reason: 'decorative' })).toEqual({
      ok: true,
      value: { rule: 'image-alt', selector: '#logo', pageUrl: null, reason: 'decorative' },
    });
    expect(
      validateSuppression({ rule: 'image-alt', selector: '#logo', pageUrl: 'HTTPS://S.test:443/a?x=1#top' }),
    ).toEqual({
      ok: true,
      value: { rule: 'image-alt', selector: '#logo', pageUrl: 'https://s.test/a?x=1', reason: null },
    });
  });

  it('names the field and the problem', () => {
    const cases: [unknown, string, string][] = [
      [null, 'body', 'must be a JSON object'],
      [[], 'body', 'must be a JSON object'],
      [{}, 'rule', 'is required'],
      [{ rule: '  ' }, 'rule', 'is required'],
      [{ rule: 3 }, 'rule', 'must be a string'],
      [{ rule: 'image-alt-typo' }, 'rule', 'is not a known axe-core rule id'],
      [{ rule: 'image-alt', pageUrl: 'https://s.test/a' }, 'pageUrl', 'requires selector'],
      [{ rule: 'image-alt', selector: '#a', pageUrl: '/a' }, 'pageUrl', 'must be an absolute http(s) URL'],
      [
        { rule: 'image-alt', selector: '#a', pageUrl: 'ftp://s.test/a' },
        'pageUrl',
        'must be an absolute http(s) URL',
      ],
      [{ rule: 'image-alt', selector: '' }, 'selector', 'must not be empty'],
      [{ rule: 'image-alt', selector: ['#a'] }, 'selector', 'must be a string'],
      [
        { rule: 'image-alt', selector: 'a'.repeat(MAX_SUPPRESSION_SELECTOR_LENGTH + 1) },
        'selector',
        `must be at most ${MAX_SUPPRESSION_SELECTOR_LENGTH} characters`,
      ],
      [
        { rule: 'image-alt', reason: 'r'.repeat(MAX_SUPPRESSION_REASON_LENGTH + 1) },
        'reason',
        `must be at most ${MAX_SUPPRESSION_REASON_LENGTH} characters`,
      ],
      [
        { rule: 'image-alt', selector: '#a', pageUrl: `https://s.test/${'p'.repeat(2000)}` },
        'pageUrl',
        'must be at most 2000 characters',
      ],
    ];
    for (const [body, field, problem] of cases) {
      expect(validateSuppression(body), JSON.stringify(body).slice(0, 80)).toEqual({
        ok: false,
        field,
        problem,
      });
    }
  });

  it('takes the set of known rules as a parameter', () => {
    expect(validateSuppression({ rule: 'future-rule' }, (id) => id === 'future-rule').ok).toBe(true);
  });
});
