import { describe, expect, it } from 'vitest';
import { criterionBySc, isCurrentCriterion, WCAG_CRITERIA, WCAG_PRINCIPLES } from '@/lib/a11y/report/wcag';

describe('WCAG 2.2 index', () => {
  it('holds the 86 current criteria plus the obsolete 4.1.1, with the W3C level counts', () => {
    expect(WCAG_CRITERIA).toHaveLength(87);
    const levels = WCAG_CRITERIA.map((c) => c.level);
    expect(levels.filter((l) => l === 'A')).toHaveLength(31);
    expect(levels.filter((l) => l === 'AA')).toHaveLength(24);
    expect(levels.filter((l) => l === 'AAA')).toHaveLength(31);
    expect(WCAG_CRITERIA.filter((c) => c.obsolete).map((c) => c.sc)).toEqual(['4.1.1']);
  });

  it('indexes a criterion by number with its level, principle, guideline and Understanding URL', () => {
    expect(criterionBySc('1.4.10')).toEqual({
      sc: '1.4.10',
      handle: 'reflow',
      title: 'Reflow',
      level: 'AA',
      principle: 'Perceivable',
      guideline: { num: '1.4', title: 'Distinguishable' },
      obsolete: false,
      understandingUrl: 'https://www.w3.org/WAI/WCAG22/Understanding/reflow.html',
    });
    expect(criterionBySc('2.5.8')?.level).toBe('AA');
    expect(criterionBySc('2.5.8')?.principle).toBe('Operable');
    expect(criterionBySc('9.9.9')).toBeUndefined();
  });

  it('marks 4.1.1 Parsing obsolete, without a level, so it never counts toward conformance', () => {
    expect(criterionBySc('4.1.1')).toMatchObject({ title: 'Parsing', level: null, obsolete: true });
    expect(isCurrentCriterion('4.1.1')).toBe(false);
    expect(isCurrentCriterion('4.1.2')).toBe(true);
    expect(isCurrentCriterion('nope')).toBe(false);
  });

  it('keeps the document order: four principles, 13 guidelines', () => {
    expect(WCAG_PRINCIPLES.map((p) => p.title)).toEqual([
      'Perceivable',
      'Operable',
      'Understandable',
      'Robust',
    ]);
    expect(WCAG_PRINCIPLES.flatMap((p) => p.guidelines)).toHaveLength(13);
    expect(WCAG_CRITERIA[0]?.sc).toBe('1.1.1');
  });
});
