import { describe, expect, it } from 'vitest';
import { SEO_CHECKS, type SeoCheck, type SeoIssue } from '@/lib/seo/checks';
import { IMPACT_WEIGHTS, scoreSeo } from '@/lib/seo/score';

function issue(check: SeoCheck, pageUrl: string): SeoIssue {
  return { check: check.id, impact: check.impact, pageUrl, detail: check.title };
}

function checkById(id: SeoCheck['id']): SeoCheck {
  const found = SEO_CHECKS.find((check) => check.id === id);
  if (!found) throw new Error(`no check ${id}`);
  return found;
}

const titleMissing = checkById('title-missing'); // critical
const noindex = checkById('noindex'); // serious
const h1Missing = checkById('h1-missing'); // moderate
const langMissing = checkById('lang-missing'); // minor

/** Small deterministic generator (mulberry32) so the property checks replay identically. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomIssue(next: () => number, pages: number): SeoIssue {
  const check = SEO_CHECKS[Math.floor(next() * SEO_CHECKS.length)]!;
  return issue(check, `https://example.com/${Math.floor(next() * pages)}`);
}

describe('scoreSeo', () => {
  it('is null when no page was scanned', () => {
    expect(scoreSeo([], 0)).toEqual({
      score: null,
      critical: 0,
      serious: 0,
      moderate: 0,
      minor: 0,
      issueCount: 0,
    });
  });

  it('is 100 for scanned pages without issues', () => {
    expect(scoreSeo([], 25).score).toBe(100);
  });

  it('takes each impact weight off the page and averages over the pages scanned', () => {
    const page = 'https://example.com/';
    expect(scoreSeo([issue(titleMissing, page)], 1).score).toBe(100 - IMPACT_WEIGHTS.critical);
    expect(scoreSeo([issue(noindex, page)], 1).score).toBe(100 - IMPACT_WEIGHTS.serious);
    expect(scoreSeo([issue(h1Missing, page)], 1).score).toBe(100 - IMPACT_WEIGHTS.moderate);
    expect(scoreSeo([issue(langMissing, page)], 1).score).toBe(100 - IMPACT_WEIGHTS.minor);

    // Two pages: one loses 40 + 8, the other nothing: (52 + 100) / 2.
    expect(scoreSeo([issue(titleMissing, page), issue(h1Missing, page)], 2).score).toBe(76);
  });

  it('weighs one critical problem above every minor one together', () => {
    const minors = SEO_CHECKS.filter((check) => check.impact === 'minor').map((check) => issue(check, 'p'));
    const critical = scoreSeo([issue(titleMissing, 'p')], 1).score!;
    expect(scoreSeo(minors, 1).score!).toBeGreaterThan(critical);
  });

  it('keeps the score stable across site sizes for the same share of affected pages', () => {
    const siteWith = (pages: number) =>
      Array.from({ length: pages / 10 }, (_, i) => issue(titleMissing, `https://example.com/${i}`));
    const small = scoreSeo(siteWith(10), 10).score;
    const large = scoreSeo(siteWith(10_000), 10_000).score;
    expect(small).toBe(96);
    expect(large).toBe(small);
  });

  it('drops below 100 as soon as any page has an issue, however large the site', () => {
    expect(scoreSeo([issue(langMissing, 'https://example.com/1')], 100_000).score).toBe(99);
  });

  it('never goes below 0, however many issues, even naming more pages than scanned', () => {
    const everything = SEO_CHECKS.flatMap((check) =>
      Array.from({ length: 5 }, (_, i) => issue(check, `https://example.com/${i}`)),
    );
    expect(scoreSeo(everything, 5).score).toBe(0);
    expect(scoreSeo(everything, 2).score).toBe(0);
  });

  it('counts one page no lower than 0 and one (page, check) once', () => {
    const page = 'https://example.com/';
    const all = SEO_CHECKS.map((check) => issue(check, page));
    // The worst page is worth 0, the other 100.
    expect(scoreSeo(all, 2).score).toBe(50);
    const repeated = scoreSeo([issue(titleMissing, page), issue(titleMissing, page)], 1);
    expect(repeated.score).toBe(60);
    expect(repeated.critical).toBe(1);
    expect(repeated.issueCount).toBe(1);
  });

  it('counts issues by impact', () => {
    const result = scoreSeo(
      [
        issue(titleMissing, 'a'),
        issue(titleMissing, 'b'),
        issue(noindex, 'a'),
        issue(h1Missing, 'c'),
        issue(langMissing, 'a'),
        issue(langMissing, 'b'),
        issue(langMissing, 'c'),
      ],
      3,
    );
    expect(result).toMatchObject({ critical: 2, serious: 1, moderate: 1, minor: 3, issueCount: 7 });
  });

  it('is always an integer within 0..100', () => {
    const next = random(7);
    for (let round = 0; round < 300; round++) {
      const pages = 1 + Math.floor(next() * 40);
      const issues = Array.from({ length: Math.floor(next() * 120) }, () => randomIssue(next, pages + 3));
      const { score } = scoreSeo(issues, pages);
      expect(Number.isInteger(score)).toBe(true);
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(100);
    }
  });

  it('never rises when an issue is added', () => {
    const next = random(42);
    for (let round = 0; round < 200; round++) {
      const pages = 1 + Math.floor(next() * 30);
      const issues: SeoIssue[] = [];
      let previous = scoreSeo(issues, pages).score!;
      for (let added = 0; added < 60; added++) {
        // Some issues name pages beyond the scanned count, the inconsistent case.
        issues.push(randomIssue(next, pages + 2));
        const current = scoreSeo(issues, pages).score!;
        expect(current).toBeLessThanOrEqual(previous);
        previous = current;
      }
    }
  });
});
