import { describe, expect, it } from 'vitest';
import type { A11yFinding } from '@/lib/a11y/report/findings';
import { applySuppressions } from '@/lib/a11y/report/suppressions';
import { aaVerdict } from '@/lib/a11y/report/verdict';

// Levels from the installed axe-core's tags: image-alt, label, link-name A; color-contrast,
// target-size AA; color-contrast-enhanced AAA; region, empty-heading best practice; duplicate-id 4.1.1.

function violation(pageUrl: string, rule: string, type: A11yFinding['type'] = 'violation'): A11yFinding {
  return { pageUrl, rule, type, impact: 'serious', count: 1, nodes: [{ selector: '#x' }] };
}

const compliant = { compliant: true, targetLevel: 'AA', risk: null };

describe('aaVerdict', () => {
  it('is compliant with no violations, or only needs-review ones', () => {
    expect(aaVerdict([])).toEqual(compliant);
    expect(
      aaVerdict([
        violation('/a', 'image-alt', 'incomplete'),
        violation('/b', 'color-contrast', 'incomplete'),
      ]),
    ).toEqual(compliant);
  });

  it('stays compliant with AAA, best-practice and 4.1.1 failures', () => {
    expect(
      aaVerdict([
        violation('/a', 'color-contrast-enhanced'),
        violation('/a', 'region'),
        violation('/b', 'empty-heading'),
        violation('/b', 'duplicate-id'),
      ]),
    ).toEqual(compliant);
  });

  it('counts distinct rules and distinct pages, in the singular for one', () => {
    expect(aaVerdict([violation('/a', 'target-size')])).toEqual({
      compliant: false,
      targetLevel: 'AA',
      risk: '1 level AA failure on 1 page',
    });
    const manyPages = ['/1', '/2', '/3'].flatMap((p) => [violation(p, 'image-alt'), violation(p, 'region')]);
    expect(aaVerdict([...manyPages, violation('/4', 'label'), violation('/4', 'link-name')]).risk).toBe(
      '3 level A failures on 4 pages',
    );
  });

  it('names level A first when both levels fail', () => {
    const findings = [
      violation('/a', 'image-alt'),
      violation('/b', 'label'),
      violation('/b', 'color-contrast'),
      violation('/c', 'color-contrast-enhanced'),
    ];
    expect(aaVerdict(findings).risk).toBe('2 level A and 1 level AA failures on 2 pages');
  });

  it('turns compliant once the only A violation is suppressed, and not while another element fails', () => {
    const logoAndHero: A11yFinding = {
      ...violation('/a', 'image-alt'),
      count: 2,
      nodes: [{ selector: '#logo' }, { selector: '#hero' }],
    };
    const logoOnly = applySuppressions(
      [logoAndHero],
      [{ rule: 'image-alt', selector: '#logo', pageUrl: null }],
    );
    expect(aaVerdict(logoOnly.visible).compliant).toBe(false);
    const whole = applySuppressions([logoAndHero], [{ rule: 'image-alt', selector: null, pageUrl: null }]);
    expect(aaVerdict(whole.visible)).toEqual(compliant);
  });
});
