import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import {
  AXE_RUN_ONLY_TAGS,
  axeRules,
  criteriaFromTags,
  describeRule,
  levelFromTags,
  readAxeImpacts,
} from '@/lib/a11y/report/rules';
import { criterionBySc } from '@/lib/a11y/report/wcag';

describe('WCAG tags', () => {
  it('parse criterion tags with two-digit criterion numbers and skip level and EN tags', () => {
    expect(
      criteriaFromTags(['cat.color', 'wcag2aa', 'wcag1410', 'wcag412', 'EN-9.1.4.10', 'wcag21aa']),
    ).toEqual(['1.4.10', '4.1.2']);
    expect(criteriaFromTags(['best-practice', 'wcag2a-obsolete'])).toEqual([]);
  });

  it('read the level from wcag2a / wcag21aa / wcag2aaa, the strictest one when several', () => {
    expect(levelFromTags(['wcag21a'])).toBe('A');
    expect(levelFromTags(['wcag22aa'])).toBe('AA');
    expect(levelFromTags(['wcag2aaa'])).toBe('AAA');
    expect(levelFromTags(['wcag2aa', 'wcag2a'])).toBe('A');
    expect(levelFromTags(['best-practice'])).toBeNull();
    expect(levelFromTags(['wcag2a-obsolete', 'wcag411'])).toBeNull();
  });
});

describe('describeRule', () => {
  const base = { ruleId: 'x', description: 'd', help: 'h', helpUrl: 'https://example.test/x' };

  it('weighs a rule by its own impact, else by the highest impact among its checks', () => {
    expect(describeRule({ ...base, tags: [], impact: 'minor', checkImpacts: ['critical'] }).impact).toBe(
      'minor',
    );
    expect(
      describeRule({ ...base, tags: [], impact: null, checkImpacts: ['minor', null, 'serious'] }).impact,
    ).toBe('serious');
    expect(describeRule({ ...base, tags: [], impact: null, checkImpacts: [] }).impact).toBeNull();
  });

  it('gives a rule on 4.1.1 only no conformance level, and a rule on 4.1.1 and a current A criterion level A', () => {
    const onlyParsing = describeRule({
      ...base,
      tags: ['wcag2a', 'wcag411'],
      impact: 'minor',
      checkImpacts: [],
    });
    expect(onlyParsing.conformanceLevel).toBeNull();
    const mixed = describeRule({
      ...base,
      tags: ['wcag2a', 'wcag411', 'wcag412'],
      impact: 'minor',
      checkImpacts: [],
    });
    expect(mixed.conformanceLevel).toBe('A');
    expect(mixed.sc).toBe('4.1.1');
    expect(mixed.principle).toBe('Robust');
  });
});

describe('the installed axe-core', () => {
  it('still exposes rule and check impacts through its private _audit (fails if a release moves it)', () => {
    const impacts = readAxeImpacts();
    expect(impacts.size).toBe(axe.getRules().length);
    expect(impacts.get('image-alt')?.impact).toBe('critical');
    expect(impacts.get('meta-viewport')).toMatchObject({ impact: 'moderate', checkImpacts: ['critical'] });
  });

  it('maps every criterion tag of every rule to a criterion of wcag22.json', () => {
    const rules = [...axeRules().values()];
    expect(rules.length).toBeGreaterThan(90);
    for (const rule of rules) {
      const criterionTags = rule.tags.filter((t) => /^wcag\d+$/.test(t));
      expect(rule.criteria, rule.id).toHaveLength(criterionTags.length);
      for (const sc of rule.criteria) expect(criterionBySc(sc), `${rule.id} → ${sc}`).toBeDefined();
      expect(rule.impact, rule.id).not.toBeNull();
      // A rule is either a WCAG rule with a level, best practice, or on the obsolete 4.1.1.
      expect(rule.wcagLevel !== null || rule.bestPractice || rule.criteria.includes('4.1.1'), rule.id).toBe(
        true,
      );
    }
  });

  it('describes known rules as axe tags them', () => {
    const rules = axeRules();
    expect(rules.get('image-alt')).toMatchObject({
      criteria: ['1.1.1'],
      sc: '1.1.1',
      principle: 'Perceivable',
      wcagLevel: 'A',
      conformanceLevel: 'A',
      en301549: true,
      section508: true,
      bestPractice: false,
      impact: 'critical',
    });
    expect(rules.get('target-size')).toMatchObject({
      criteria: ['2.5.8'],
      principle: 'Operable',
      wcagLevel: 'AA',
      conformanceLevel: 'AA',
      en301549: false,
      section508: false,
      impact: 'serious',
    });
    expect(rules.get('link-name')).toMatchObject({ criteria: ['2.4.4', '4.1.2'], sc: '2.4.4' });
    expect(rules.get('color-contrast-enhanced')).toMatchObject({ wcagLevel: 'AAA', conformanceLevel: null });
    expect(rules.get('duplicate-id')).toMatchObject({
      criteria: ['4.1.1'],
      wcagLevel: null,
      conformanceLevel: null,
      section508: false,
    });
    expect(rules.get('region')).toMatchObject({
      bestPractice: true,
      wcagLevel: null,
      sc: null,
      principle: null,
      conformanceLevel: null,
    });
    expect(rules.get('css-orientation-lock')?.experimental).toBe(true);
  });

  it('runs target-size with the runOnly tags (axe leaves it off by default), and every rule but experimental and deprecated ones', () => {
    const utils = axe.utils as unknown as {
      ruleShouldRun: (rule: unknown, context: { page: boolean }, options: object) => boolean;
    };
    const audit = (axe as unknown as { _audit: { rules: { id: string; tags: string[] }[] } })._audit;
    const runs = (options: object) =>
      audit.rules.filter((rule) => utils.ruleShouldRun(rule, { page: true }, options)).map((r) => r.id);
    const byDefault = runs({});
    const withTags = runs({ runOnly: { type: 'tag', values: AXE_RUN_ONLY_TAGS } });
    expect(byDefault).not.toContain('target-size');
    expect(withTags).toContain('target-size');
    expect(withTags).toContain('color-contrast-enhanced');
    expect(withTags).toContain('region');
    const left = audit.rules.filter((r) => !withTags.includes(r.id));
    expect(left.length).toBeGreaterThan(0);
    for (const rule of left)
      expect(
        rule.tags.some((t) => t === 'experimental' || t === 'deprecated'),
        rule.id,
      ).toBe(true);
  });
});
