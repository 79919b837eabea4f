import { describe, expect, it } from 'vitest';
import { parseHtml } from '@/lib/html/document';
import { deriveSeoIssues, SEO_CHECKS, type SeoCheckId, type SeoPage } from '@/lib/seo/checks';
import { extractSeoFacts } from '@/lib/seo/extract';
import { type SeoCheckPages, seoReportChecks, seoSummary } from '@/lib/seo/report';
import { scoreSeo } from '@/lib/seo/score';

/*
 * The SEO report's order and headline (lib/seo/report.ts), as GET /seo-report assembles them from the
 * stored parts' counts (lib/crawl/views/seo-report.ts; its paging is tested against a database in
 * crawl-seo-report-parts.test.ts).
 */

/** A failing check with `count` pages in all, of which none listed (the order reads counts only). */
const failing = (check: SeoCheckId, count: number): SeoCheckPages => ({
  check,
  count,
  pages: [],
  nextCursor: null,
});

describe('seoReportChecks', () => {
  it('is empty for no failing check', () => {
    expect(seoReportChecks([])).toEqual([]);
  });

  it('gives each check its catalogue title, impact and help, its pages and cursor as they were read', () => {
    const h1 = SEO_CHECKS.find((c) => c.id === 'h1-missing')!;
    const pages = [{ pageUrl: 'https://example.com/a', detail: 'The page has no <h1> heading' }];
    expect(seoReportChecks([{ check: 'h1-missing', count: 2, pages, nextCursor: 'next' }])).toEqual([
      {
        check: 'h1-missing',
        title: h1.title,
        impact: 'moderate',
        help: h1.help,
        pages,
        count: 2,
        nextCursor: 'next',
      },
    ]);
  });

  it('orders checks by impact, then by how many pages fail them', () => {
    const checks = seoReportChecks([
      failing('lang-missing', 3),
      failing('canonical-missing', 1),
      failing('img-alt-missing', 1),
      failing('h1-missing', 2),
      failing('title-missing', 1),
      failing('viewport-missing', 1),
    ]);
    expect(checks.map((c) => [c.check, c.count])).toEqual([
      ['title-missing', 1],
      ['viewport-missing', 1],
      ['h1-missing', 2],
      ['img-alt-missing', 1],
      ['lang-missing', 3],
      ['canonical-missing', 1],
    ]);
  });

  it('breaks ties in catalogue order so the report is the same for any input order', () => {
    const input = [failing('redirect-only', 1), failing('h1-missing', 1), failing('img-alt-missing', 1)];
    const forward = seoReportChecks(input);
    expect(seoReportChecks([...input].reverse())).toEqual(forward);
    expect(forward.map((c) => c.check)).toEqual(['h1-missing', 'img-alt-missing', 'redirect-only']);
  });
});

describe('seoSummary', () => {
  it('is all zeros for no failing check', () => {
    expect(seoSummary(new Map(), 0)).toEqual({
      issueCount: 0,
      pagesAffected: 0,
      checksFailing: 0,
      critical: 0,
      serious: 0,
      moderate: 0,
      minor: 0,
    });
  });

  it('sums the pages of each failing check by impact, leaving out checks with none', () => {
    const counts = new Map<SeoCheckId, number>([
      ['title-missing', 1],
      ['noindex', 1],
      ['lang-missing', 2],
      ['h1-missing', 0],
    ]);
    expect(seoSummary(counts, 2)).toEqual({
      issueCount: 4,
      pagesAffected: 2,
      checksFailing: 3,
      critical: 1,
      serious: 1,
      moderate: 0,
      minor: 2,
    });
  });

  it('agrees with the run counters for issues derived from real pages', () => {
    const pages: SeoPage[] = [
      ['https://example.com/', '<html lang="en"><title>Home</title><h1>Hi</h1><img src="/x.png"></html>'],
      ['https://example.com/about', '<title>Home</title><h1>A</h1><h1>B</h1>'],
      ['https://example.com/old', '<html lang="en"><meta name="robots" content="noindex"></html>'],
    ].map(([url, html]) => ({ url: url!, facts: extractSeoFacts(parseHtml(html!), url!) }));

    const issues = deriveSeoIssues(pages, () => ({ state: 'unknown' }));
    const counts = new Map<SeoCheckId, number>();
    for (const issue of issues) counts.set(issue.check, (counts.get(issue.check) ?? 0) + 1);
    const summary = seoSummary(counts, new Set(issues.map((i) => i.pageUrl)).size);
    const score = scoreSeo(issues, pages.length);

    expect(summary).toMatchObject({
      issueCount: score.issueCount,
      critical: score.critical,
      serious: score.serious,
      moderate: score.moderate,
      minor: score.minor,
      pagesAffected: 3,
    });
    expect(issues.filter((i) => i.check === 'title-duplicate').map((i) => i.pageUrl)).toEqual([
      'https://example.com/',
      'https://example.com/about',
    ]);
    expect(issues.find((i) => i.check === 'img-alt-missing')?.value).toBe(1);
  });
});
