import { describe, expect, it } from 'vitest';
import { MAX_ROBOTS_RULES } from '@/lib/crawl/engine/robots';
import { admit, MAX_REMEMBERED_DECISIONS, rememberDecisions, rulesOf } from '@/lib/crawl/engine/rules';
import type { RunSettings } from '@/lib/db/schema';

const settings = (over: Partial<RunSettings> = {}): RunSettings => ({
  rootUrl: 'https://e.com/',
  hostname: 'e.com',
  maxPages: 100,
  maxConcurrency: 2,
  excludePaths: [],
  stripParams: [],
  seoEnabled: false,
  scannerEnabled: true,
  allowanceRemaining: null,
  ...over,
});

describe('rememberDecisions', () => {
  it('judges each distinct URL once, however often it is asked', () => {
    const judged: string[] = [];
    const decide = rememberDecisions((url) => {
      judged.push(url);
      return url.endsWith('0');
    });
    for (let round = 0; round < 10; round++) {
      for (let i = 0; i < 1_000; i++) expect(decide(`https://e.com/p${i}`)).toBe(i % 10 === 0);
    }
    expect(judged).toHaveLength(1_000);
    expect(new Set(judged).size).toBe(1_000);
  });

  it('forgets everything past MAX_REMEMBERED_DECISIONS URLs, so memory stays bounded', () => {
    let calls = 0;
    const decide = rememberDecisions(() => {
      calls++;
      return true;
    });
    for (let i = 0; i < MAX_REMEMBERED_DECISIONS; i++) decide(`https://e.com/p${i}`);
    decide('https://e.com/p0');
    expect(calls).toBe(MAX_REMEMBERED_DECISIONS);
    decide('https://e.com/one-more');
    decide('https://e.com/p0');
    expect(calls).toBe(MAX_REMEMBERED_DECISIONS + 2);
  });
});

describe('rulesOf', () => {
  it('judges links by the run’s hostile exclude pattern and oversized robots.txt', () => {
    let text = 'User-agent: *\n';
    for (let i = 0; text.length < 500 * 1024; i++) text += `Disallow: /*a*b*c*d*e*f*g*/${i}$\n`;
    const rules = rulesOf(
      settings({
        excludePaths: ['/a*a*a*a*a*a*a*a*b'],
        robots: { url: 'https://e.com/robots.txt', text, note: null },
      }),
    );
    const page = (i: number) => `https://e.com/a/b/c/d/e/f/g/${i}`;
    // A page's links, repeated on every page of a step.
    for (let round = 0; round < 20; round++) {
      expect(admit(rules, page(7))).toBeNull();
      expect(admit(rules, page(MAX_ROBOTS_RULES + 7))).toEqual({
        url: page(MAX_ROBOTS_RULES + 7),
        kind: 'internal',
      });
      expect(admit(rules, `https://e.com/${'a'.repeat(58)}b`)).toBeNull();
      expect(admit(rules, `https://e.com/${'a'.repeat(59)}`)).toEqual({
        url: `https://e.com/${'a'.repeat(59)}`,
        kind: 'internal',
      });
      expect(admit(rules, 'https://other.test/a/b/c/d/e/f/g/7')).toMatchObject({ kind: 'external' });
    }
  }, 30_000);
});
