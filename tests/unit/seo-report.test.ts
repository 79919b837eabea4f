import { describe, expect, it } from 'vitest';
import { parseHtml } from '@/lib/html/document';
import { deriveSeoIssues, SEO_CHECKS, type SeoIssue, type SeoPage } from '@/lib/seo/checks';
import { extractSeoFacts } from '@/lib/seo/extract';
import { buildSeoReport } from '@/lib/seo/report';
import { scoreSeo } from '@/lib/seo/score';

function issue(check: SeoIssue['check'], pageUrl: string, detail = `detail of ${check}`): SeoIssue {
  const impact = SEO_CHECKS.find((c) => c.id === check)!.impact;
  return { check, impact, pageUrl, detail };
}

describe('buildSeoReport', () => {
  it('is empty for no issues', () => {
    expect(buildSeoReport([])).toEqual({
      summary: {
        issueCount: 0,
        pagesAffected: 0,
        checksFailing: 0,
        critical: 0,
        serious: 0,
        moderate: 0,
        minor: 0,
      },
      checks: [],
    });
  });

  it('groups by check with the catalogue title, impact and help, pages by URL', () => {
    const report = buildSeoReport([
      issue('h1-missing', 'https://example.com/b', 'The page has no <h1> heading'),
      issue('h1-missing', 'https://example.com/a', 'The page has no <h1> heading'),
    ]);
    const h1 = SEO_CHECKS.find((c) => c.id === 'h1-missing')!;
    expect(report.checks).toEqual([
      {
        check: 'h1-missing',
        title: h1.title,
        impact: 'moderate',
        help: h1.help,
        pages: [
          { pageUrl: 'https://example.com/a', detail: 'The page has no <h1> heading' },
          { pageUrl: 'https://example.com/b', detail: 'The page has no <h1> heading' },
        ],
        count: 2,
        nextCursor: null,
      },
    ]);
  });

  it('orders checks by impact, then by how many pages fail them', () => {
    const report = buildSeoReport([
      issue('lang-missing', 'a'),
      issue('lang-missing', 'b'),
      issue('lang-missing', 'c'),
      issue('canonical-missing', 'a'),
      issue('img-alt-missing', 'a'),
      issue('h1-missing', 'a'),
      issue('h1-missing', 'b'),
      issue('title-missing', 'c'),
      issue('viewport-missing', 'b'),
    ]);
    expect(report.checks.map((c) => [c.check, c.count])).toEqual([
      ['title-missing', 1],
      ['viewport-missing', 1],
      ['h1-missing', 2],
      ['img-alt-missing', 1],
      ['lang-missing', 3],
      ['canonical-missing', 1],
    ]);
  });

  it('breaks ties in catalogue order so the report is the same for any input order', () => {
    const issues = [issue('redirect-only', 'a'), issue('h1-missing', 'b'), issue('img-alt-missing', 'c')];
    const forward = buildSeoReport(issues);
    const backward = buildSeoReport([...issues].reverse());
    expect(forward).toEqual(backward);
    expect(forward.checks.map((c) => c.check)).toEqual(['h1-missing', 'img-alt-missing', 'redirect-only']);
  });

  it('summarises counts, affected pages and failing checks, listing a repeated issue once', () => {
    const report = buildSeoReport([
      issue('title-missing', 'a'),
      issue('title-missing', 'a'),
      issue('noindex', 'b'),
      issue('lang-missing', 'a'),
      issue('lang-missing', 'b'),
    ]);
    expect(report.summary).toEqual({
      issueCount: 4,
      pagesAffected: 2,
      checksFailing: 3,
      critical: 1,
      serious: 1,
      moderate: 0,
      minor: 2,
    });
    expect(report.checks[0]?.pages).toHaveLength(1);
  });

  it('agrees with the run counters for issues derived from real pages', () => {
    const pages: SeoPage[] = [
      ['https://example.com/', '<html lang="en"><title>Home</title><h1>Hi</h1><img src="/x.png"></html>'],
      ['https://example.com/about', '<title>Home</title><h1>A</h1><h1>B</h1>'],
      ['https://example.com/old', '<html lang="en"><meta name="robots" content="noindex"></html>'],
    ].map(([url, html]) => ({ url: url!, facts: extractSeoFacts(parseHtml(html!), url!) }));

    const issues = deriveSeoIssues(pages, () => ({ state: 'unknown' }));
    const report = buildSeoReport(issues);
    const score = scoreSeo(issues, pages.length);

    expect(report.summary).toMatchObject({
      issueCount: score.issueCount,
      critical: score.critical,
      serious: score.serious,
      moderate: score.moderate,
      minor: score.minor,
      pagesAffected: 3,
    });
    const duplicate = report.checks.find((c) => c.check === 'title-duplicate');
    expect(duplicate?.pages.map((p) => p.pageUrl)).toEqual([
      'https://example.com/',
      'https://example.com/about',
    ]);
    const value = report.checks.find((c) => c.check === 'img-alt-missing')?.pages[0]?.value;
    expect(value).toBe(1);
  });
});
