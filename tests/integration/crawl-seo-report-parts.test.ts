import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { SEO_FACTS_PAGE } from '@/lib/crawl/runs/finalize-seo';
import { runs, SEO_REPORT_PART, seoReports } from '@/lib/db/schema';
import { v1 } from '../support/api-client';
import { crawlTestbed, registerAndCrawl } from '../support/crawl';
import { signInOwner } from '../support/http';
import { startSyntheticSite } from '../support/test-site';

// Every synthetic page lacks a description and a canonical: 2,100 pages give well over
// SEO_REPORT_PART issues, so the run's report is stored in several parts, and more pages than
// finalization reads per statement.
const PAGES = SEO_FACTS_PAGE + 100;

const bed = crawlTestbed(() => startSyntheticSite({ pages: PAGES, extraLinks: 2, brokenEvery: 0 }));

describe('a large SEO report', () => {
  it('is stored in parts and read back whole, every issue once', async () => {
    const { db, site } = bed;
    const { token } = await signInOwner(db, 'seo-parts@example.com');
    const siteId = await registerAndCrawl(token, site.rootUrl, { maxPages: PAGES + 10 });
    const [run] = await db.select().from(runs).where(eq(runs.site_id, siteId));
    expect(run?.state).toBe('completed');
    expect(run?.seo_pages_scanned).toBe(site.expected.pages);
    const issueCount = run?.seo_issue_count ?? 0;
    expect(issueCount).toBeGreaterThan(SEO_REPORT_PART);

    const parts = await db
      .select({
        part: seoReports.part,
        issues: seoReports.issues,
        first: seoReports.first_page_url,
        last: seoReports.last_page_url,
      })
      .from(seoReports)
      .where(eq(seoReports.run_id, run?.id as string))
      .orderBy(seoReports.part);
    expect(parts.map((p) => p.part).sort((a, b) => a - b)).toEqual(
      Array.from({ length: Math.ceil(issueCount / SEO_REPORT_PART) }, (_, i) => i),
    );
    expect(parts.every((p) => p.issues.length <= SEO_REPORT_PART)).toBe(true);
    // Each part names the pages of its first and last issue.
    for (const part of parts) {
      expect(part.first).toBe(part.issues[0]?.[2]);
      expect(part.last).toBe(part.issues.at(-1)?.[2]);
    }

    const report = await v1({ token }).GET('/v1/sites/{id}/seo-report', { params: { path: { id: siteId } } });
    expect(report.status).toBe(200);
    const checks = report.body.checks as { check: string; pages: { pageUrl: string; detail: string }[] }[];
    const listed = checks.flatMap((c) => c.pages.map((p) => `${c.check} ${p.pageUrl}`));
    expect(listed).toHaveLength(issueCount);
    expect(new Set(listed).size).toBe(issueCount);
    // Page order within a check survives the split: the report lists pages in URL order.
    for (const check of checks) {
      const urls = check.pages.map((p) => p.pageUrl);
      expect(urls).toEqual([...urls].sort());
    }
    // A page whose issues straddle two parts: its URL's view reads them from both (the parts whose
    // range holds it), every one of them.
    const straddling = parts.slice(1).find((part, i) => parts[i]?.last === part.first)?.first;
    expect(straddling).toBeDefined();
    const own = checks.filter((c) => c.pages.some((p) => p.pageUrl === straddling)).map((c) => c.check);
    const detail = await v1({ token }).GET('/v1/sites/{id}/url-details', {
      params: { path: { id: siteId }, query: { url: straddling! } },
    });
    expect(detail.status).toBe(200);
    expect(detail.body.seoIssues.map((i: { check: string }) => i.check).sort()).toEqual(own.sort());
    expect(own.length).toBeGreaterThan(1);

    // Every page shares the template's title: duplicates are counted across all pages of rows read,
    // and each page names the first page by URL (the first names the second).
    const shared = checks.find((c) => c.check === 'title-duplicate')?.pages ?? [];
    expect(shared).toHaveLength(site.expected.pages);
    const [first, second] = shared.map((p) => p.pageUrl);
    for (const page of shared) {
      const example = page.pageUrl === first ? second : first;
      expect(page.detail).toBe(`Title is shared with ${PAGES} other pages, e.g. ${example}`);
    }
  });
});
