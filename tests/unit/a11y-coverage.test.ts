import { describe, expect, it } from 'vitest';
import { type CoverageCriterion, coverageMatrix } from '@/lib/a11y/report/coverage';
import { type ManualCheck, manualChecksOverlay, validateManualCheck } from '@/lib/a11y/report/manual-checks';
import type { PageRuleResults } from '@/lib/a11y/report/score';

// Criteria from the installed axe-core's tags: image-alt 1.1.1; document-title 2.4.2;
// color-contrast 1.4.3; link-name 2.4.4 + 4.1.2; label 4.1.2; color-contrast-enhanced 1.4.6 (AAA);
// region best practice (no criterion); duplicate-id 4.1.1.
const pages: PageRuleResults[] = [
  { url: '/a', passed: ['image-alt', 'document-title'], violated: ['color-contrast'] },
  { url: '/b', passed: ['image-alt', 'color-contrast'], violated: ['link-name'] },
  { url: '/c', passed: ['label'], violated: ['color-contrast-enhanced', 'region', 'duplicate-id'] },
];

function criteria(coverage: ReturnType<typeof coverageMatrix>): Map<string, CoverageCriterion> {
  return new Map(
    coverage.principles.flatMap((p) =>
      p.guidelines.flatMap((g) => g.criteria.map((c) => [c.sc, c] as const)),
    ),
  );
}

describe('coverageMatrix', () => {
  const coverage = coverageMatrix(pages);
  const bySc = criteria(coverage);

  it('fails a criterion when a rule mapping to it failed anywhere, even if it passed elsewhere', () => {
    expect(bySc.get('1.4.3')).toEqual({
      sc: '1.4.3',
      name: 'Contrast (Minimum)',
      level: 'AA',
      status: 'fail',
      automated: 'partial',
      reading: 'fails',
      pages: 1,
      rules: ['color-contrast'],
      w3cUrl: 'https://www.w3.org/WAI/WCAG22/Understanding/contrast-minimum.html',
    });
    expect(bySc.get('4.1.2')).toMatchObject({ status: 'fail', pages: 1, rules: ['link-name'] });
    expect(bySc.get('2.4.4')).toMatchObject({ status: 'fail', pages: 1, rules: ['link-name'] });
    expect(bySc.get('1.4.6')).toMatchObject({
      level: 'AAA',
      status: 'fail',
      rules: ['color-contrast-enhanced'],
    });
  });

  it('gives a criterion whose rules ran and passed the status pass, counting the pages', () => {
    expect(bySc.get('1.1.1')).toMatchObject({ status: 'pass', pages: 2, rules: ['image-alt'] });
    expect(bySc.get('2.4.2')).toMatchObject({ status: 'pass', pages: 1, rules: ['document-title'] });
  });

  it('reads pass as no automated failures unless every rule the scan runs for it passed', () => {
    // 1.1.1: image-alt is one of the seven rules axe runs for it.
    expect(bySc.get('1.1.1')).toMatchObject({ automated: 'partial', reading: 'no-automated-failures' });
    // 2.4.2: document-title is axe's one rule for it, and it passed.
    expect(bySc.get('2.4.2')).toMatchObject({ automated: 'complete', reading: 'passes' });
    expect(bySc.get('1.2.1')).toMatchObject({ automated: 'none', reading: 'untested' });
    expect(coverage.readings).toEqual({
      fails: 4,
      passes: 1,
      'not-applicable': 0,
      'no-automated-failures': 1,
      untested: 80,
    });
  });

  it('counts a rule as covering only a clean pass: not a suppressed violation, not one left to review', () => {
    const all111 = [
      'aria-meter-name',
      'aria-progressbar-name',
      'image-alt',
      'input-image-alt',
      'object-alt',
      'role-img-alt',
      'svg-img-alt',
    ];
    const clean = criteria(coverageMatrix([{ url: '/a', passed: all111, violated: [] }]));
    expect(clean.get('1.1.1')).toMatchObject({ status: 'pass', automated: 'complete', reading: 'passes' });
    // image-alt "passes" only because its violation is suppressed: the score counts it, coverage does not.
    const suppressed = criteria(
      coverageMatrix([
        { url: '/a', passed: all111, violated: [] },
        { url: '/b', passed: ['image-alt'], violated: [], accepted: ['image-alt'] },
      ]),
    );
    expect(suppressed.get('1.1.1')).toMatchObject({
      status: 'pass',
      automated: 'partial',
      reading: 'no-automated-failures',
    });
    const review = criteria(
      coverageMatrix([
        { url: '/a', passed: ['color-contrast'], violated: [], needsReview: ['color-contrast'] },
      ]),
    );
    expect(review.get('1.4.3')).toMatchObject({ status: 'pass', automated: 'partial' });
  });

  it('lays manual checks over the reading without changing the status', () => {
    const check = (status: ManualCheck['status']) => ({ status });
    const read = criteria(
      coverageMatrix(pages, {
        '1.3.1': check('verified'),
        '2.4.2': check('failed'),
        '1.4.3': check('verified'),
        '1.2.1': check('not_applicable'),
      }),
    );
    expect(read.get('1.3.1')).toMatchObject({ status: 'manual', reading: 'passes' });
    expect(read.get('2.4.2')).toMatchObject({ status: 'pass', reading: 'fails' });
    // A confirmed violation outranks a reviewer's "verified".
    expect(read.get('1.4.3')).toMatchObject({ status: 'fail', reading: 'fails' });
    expect(read.get('1.2.1')).toMatchObject({ status: 'manual', reading: 'not-applicable' });
  });

  it('leaves the others manual, including criteria with only needs-review results', () => {
    expect(bySc.get('2.5.8')).toMatchObject({ status: 'manual', pages: 0, rules: [] });
    expect(bySc.get('1.2.1')).toMatchObject({ status: 'manual', pages: 0, rules: [] });
  });

  it('leaves out the obsolete 4.1.1 and totals the 86 criteria of WCAG 2.2', () => {
    expect(bySc.has('4.1.1')).toBe(false);
    expect(coverage.totals).toEqual({ fail: 4, pass: 2, manual: 80, total: 86 });
    expect(bySc.size).toBe(86);
  });

  it('nests principles → guidelines in document order', () => {
    expect(coverage.principles.map((p) => p.principle)).toEqual([
      'Perceivable',
      'Operable',
      'Understandable',
      'Robust',
    ]);
    expect(coverage.principles[0]?.guidelines[0]?.guideline).toBe('1.1 Text Alternatives');
    expect(coverage.principles[3]?.guidelines[0]?.criteria.map((c) => c.sc)).toEqual(['4.1.2', '4.1.3']);
  });

  it('is all manual with no scanned page', () => {
    expect(coverageMatrix([]).totals).toEqual({ fail: 0, pass: 0, manual: 86, total: 86 });
  });
});

describe('manual checks', () => {
  const check = (status: ManualCheck['status']): ManualCheck => ({ status, note: null, by: 'u1', at: 1 });

  it('overlay the matrix keyed by criterion in document order, leaving out criteria not in it', () => {
    const overlay = manualChecksOverlay(
      new Map([
        ['2.4.7', check('verified')],
        ['1.2.1', check('not_applicable')],
        ['4.1.1', check('failed')],
        ['9.9.9', check('failed')],
      ]),
    );
    expect(Object.keys(overlay)).toEqual(['1.2.1', '2.4.7']);
    expect(overlay['2.4.7']).toEqual(check('verified'));
  });

  it('validate a body: sc a WCAG 2.2 criterion, status one of three, note bounded', () => {
    expect(validateManualCheck({ sc: ' 2.4.7 ', status: 'verified', note: ' checked by keyboard ' })).toEqual(
      {
        ok: true,
        value: { sc: '2.4.7', status: 'verified', note: 'checked by keyboard' },
      },
    );
    expect(validateManualCheck({ sc: '1.2.1', status: 'failed' })).toEqual({
      ok: true,
      value: { sc: '1.2.1', status: 'failed', note: null },
    });
    const cases: [unknown, string, string][] = [
      ['x', 'body', 'must be a JSON object'],
      [{ status: 'verified' }, 'sc', 'is required'],
      [{ sc: '4.1.1', status: 'verified' }, 'sc', 'is not a WCAG 2.2 success criterion'],
      [{ sc: 2.47, status: 'verified' }, 'sc', 'is not a WCAG 2.2 success criterion'],
      [{ sc: '2.4.7' }, 'status', 'must be one of verified, not_applicable, failed'],
      [{ sc: '2.4.7', status: 'pass' }, 'status', 'must be one of verified, not_applicable, failed'],
      [{ sc: '2.4.7', status: 'verified', note: 5 }, 'note', 'must be a string or null'],
      [
        { sc: '2.4.7', status: 'verified', note: 'n'.repeat(1001) },
        'note',
        'must be at most 1000 characters',
      ],
    ];
    for (const [body, field, problem] of cases) {
      expect(validateManualCheck(body), JSON.stringify(body).slice(0, 60)).toEqual({
        ok: false,
        field,
        problem,
      });
    }
  });
});
