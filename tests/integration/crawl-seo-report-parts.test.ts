import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SEO_FACTS_PAGE } from '@/lib/crawl/runs/finalize-seo';
import { MAX_LISTED_CHANGES, storeRunChanges } from '@/lib/crawl/views/history';
import {
  type Run,
  runChanges,
  runs,
  SEO_REPORT_PART,
  type StoredSeoIssue,
  seoReports,
} from '@/lib/db/schema';
import { isSeoCheckId, isSeoImpact, type SeoIssue } from '@/lib/seo/checks';
import { scoreSeo } from '@/lib/seo/score';
import { v1 } from '../support/api-client';
import { crawlTestbed, registerAndCrawl } from '../support/crawl';
import { signInOwner } from '../support/http';
import { startSyntheticSite } from '../support/test-site';

// Every synthetic page lacks a description and a canonical: 2,100 pages give well over
// SEO_REPORT_PART issues, so the run's report is stored in several parts, and more pages than
// finalization reads per statement.
const PAGES = SEO_FACTS_PAGE + 100;

const bed = crawlTestbed(() => startSyntheticSite({ pages: PAGES, extraLinks: 2, brokenEvery: 0 }));

interface Check {
  check: string;
  count: number;
  pages: { pageUrl: string; detail: string }[];
  nextCursor: string | null;
}
type Report = {
  score: number | null;
  pagesScanned: number;
  summary: Record<string, number>;
  checks: Check[];
  sincePreviousRun: {
    previousRunId: string | null;
    newIssues: { check: string; pageUrl: string }[];
    fixedIssues: { check: string; pageUrl: string }[];
    newIssueCount: number;
    fixedIssueCount: number;
  };
};

let token: string;
let siteId: string;
let run: Run;
/** Every stored issue of the run, in part order. */
let stored: StoredSeoIssue[];

async function report(query: Record<string, string | number> = {}) {
  return v1({ token }).GET('/v1/sites/{id}/seo-report', {
    params: { path: { id: siteId }, query: query as never },
  }) as Promise<{ status: number; body: Report & { error?: string } }>;
}

/** One check's pages after its first page, followed cursor by cursor. */
async function walk(first: Check, limit = 500): Promise<{ pages: string[]; requests: number }> {
  const pages = first.pages.map((p) => p.pageUrl);
  let cursor = first.nextCursor;
  let requests = 0;
  while (cursor !== null) {
    const next = await report({ check: first.check, cursor, limit });
    expect(next.status).toBe(200);
    expect(next.body.checks).toHaveLength(1);
    const [check] = next.body.checks as [Check];
    expect(check.count).toBe(first.count);
    expect(check.pages.length).toBeLessThanOrEqual(limit);
    pages.push(...check.pages.map((p) => p.pageUrl));
    cursor = check.nextCursor;
    requests++;
  }
  return { pages, requests };
}

/** Expected pages by check, URL order, from the stored issues (pages not `hidden`). */
function expectedPages(hidden: (url: string) => boolean = () => false): Map<string, string[]> {
  const byCheck = new Map<string, string[]>();
  for (const [check, , url] of stored) {
    if (hidden(url)) continue;
    byCheck.set(check, [...(byCheck.get(check) ?? []), url]);
  }
  for (const urls of byCheck.values()) urls.sort();
  return byCheck;
}

async function setExcludes(excludePaths: string[]) {
  const patched = await v1({ token }).PATCH('/v1/sites/{id}', {
    params: { path: { id: siteId } },
    body: { excludePaths },
  });
  expect(patched.status).toBe(200);
}

describe('a large SEO report', () => {
  beforeAll(async () => {
    const { db, site } = bed;
    ({ token } = await signInOwner(db, 'seo-parts@example.com'));
    siteId = await registerAndCrawl(token, site.rootUrl, { maxPages: PAGES + 10 });
    [run] = (await db.select().from(runs).where(eq(runs.site_id, siteId))) as [Run];
    const parts = await db
      .select({ issues: seoReports.issues })
      .from(seoReports)
      .where(eq(seoReports.run_id, run.id))
      .orderBy(seoReports.part);
    stored = parts.flatMap((p) => p.issues);
  });

  it('is stored in parts with their counts by check and pages', async () => {
    const { db, site } = bed;
    expect(run.state).toBe('completed');
    expect(run.seo_pages_scanned).toBe(site.expected.pages);
    const issueCount = run.seo_issue_count;
    expect(issueCount).toBeGreaterThan(SEO_REPORT_PART);
    expect(stored).toHaveLength(issueCount);

    const parts = await db
      .select()
      .from(seoReports)
      .where(eq(seoReports.run_id, run.id))
      .orderBy(seoReports.part);
    expect(parts.map((p) => p.part)).toEqual(
      Array.from({ length: Math.ceil(issueCount / SEO_REPORT_PART) }, (_, i) => i),
    );
    for (const part of parts) {
      expect(part.issues.length).toBeLessThanOrEqual(SEO_REPORT_PART);
      // Each part names the pages of its first and last issue, counts its issues by check and its pages.
      expect(part.first_page_url).toBe(part.issues[0]?.[2]);
      expect(part.last_page_url).toBe(part.issues.at(-1)?.[2]);
      const counts: Record<string, number> = {};
      for (const [check] of part.issues) counts[check] = (counts[check] ?? 0) + 1;
      expect(part.check_counts).toEqual(counts);
      expect(part.page_count).toBe(new Set(part.issues.map((i) => i[2])).size);
    }

    // A page whose issues straddle two parts: its URL's view reads them from both (the parts whose
    // range holds it), every one of them.
    const straddling = parts.slice(1).find((part, i) => parts[i]?.last_page_url === part.first_page_url)
      ?.first_page_url as string;
    expect(straddling).toBeDefined();
    const own = stored.filter((i) => i[2] === straddling).map((i) => i[0]);
    const detail = await v1({ token }).GET('/v1/sites/{id}/url-details', {
      params: { path: { id: siteId }, query: { url: straddling } },
    });
    expect(detail.status).toBe(200);
    expect(detail.body.seoIssues.map((i: { check: string }) => i.check).sort()).toEqual(own.sort());
    expect(own.length).toBeGreaterThan(1);
    // ...and the summary counts it once, though both parts count it.
    const body = (await report()).body;
    expect(body.summary.pagesAffected).toBe(new Set(stored.map((i) => i[2])).size);
  });

  it('lists a page of pages per check with its exact count; the cursor walks the rest once, in URL order', async () => {
    const { site } = bed;
    const first = await report();
    expect(first.status).toBe(200);
    const expected = expectedPages();
    expect(first.body.summary.issueCount).toBe(stored.length);
    expect(first.body.summary.checksFailing).toBe(expected.size);
    expect(first.body.checks.map((c) => c.check).sort()).toEqual([...expected.keys()].sort());
    let walked = 0;
    for (const check of first.body.checks) {
      const urls = expected.get(check.check) as string[];
      expect(check.count).toBe(urls.length);
      expect(check.pages.map((p) => p.pageUrl)).toEqual(urls.slice(0, 100));
      expect(check.nextCursor === null).toBe(urls.length <= 100);
      const { pages, requests } = await walk(check);
      expect(pages).toEqual(urls);
      expect(requests).toBe(Math.max(0, Math.ceil((urls.length - 100) / 500)));
      walked += pages.length;
    }
    expect(walked).toBe(stored.length);

    // Every page shares the template's title: duplicates are counted across all pages of rows read,
    // and each page names the first page by URL (the first names the second).
    const shared = first.body.checks.find((c) => c.check === 'title-duplicate') as Check;
    expect(shared.count).toBe(site.expected.pages);
    const [one, two] = shared.pages.map((p) => p.pageUrl);
    for (const page of shared.pages) {
      expect(page.detail).toBe(
        `Title is shared with ${PAGES} other pages, e.g. ${page.pageUrl === one ? two : one}`,
      );
    }

    // ?pagesPerCheck= sizes every check's first page; a small ?limit= pages one check.
    const small = await report({ pagesPerCheck: 1 });
    expect(small.body.summary).toEqual(first.body.summary);
    for (const check of small.body.checks) expect(check.pages).toHaveLength(1);
    const check = small.body.checks[0] as Check;
    const next = await report({ check: check.check, cursor: check.nextCursor as string, limit: 3 });
    expect(next.body.checks[0]?.pages.map((p) => p.pageUrl)).toEqual(expected.get(check.check)?.slice(1, 4));
    // A check failing nowhere: an empty list, the summary still the whole report's.
    const none = await report({ check: 'title-missing' });
    expect(none.status).toBe(200);
    expect(none.body.checks).toEqual([]);
    expect(none.body.summary).toEqual(first.body.summary);
  });

  it('refuses a cursor not from this endpoint, a check not in the catalogue, and paging without check', async () => {
    const before = await report();
    const [a, b] = before.body.checks as [Check, Check];
    for (const query of <Record<string, string | number>[]>[
      { check: a.check, cursor: 'not-a-cursor' },
      { check: b.check, cursor: a.nextCursor as string },
      { check: a.check, cursor: Buffer.from('[1,2]').toString('base64url') },
      { check: 'no-such-check' },
      { cursor: a.nextCursor as string },
      { limit: 5 },
      { check: a.check, pagesPerCheck: 5 },
      { check: a.check, limit: 501 },
      { pagesPerCheck: 0 },
    ]) {
      const res = await report(query);
      expect(res.status, JSON.stringify(query)).toBe(422);
      expect(res.body.error).toEqual(expect.any(String));
    }
    expect((await report()).body).toEqual(before.body);

    // Another organization's owner: the site is not theirs, with or without a check's cursor.
    const other = await signInOwner(bed.db, 'seo-parts-other@example.com');
    for (const path of ['/v1/sites/{id}/seo-report', '/v1/sites/{id}/runs/{runId}/seo-report'] as const) {
      const res = await v1({ token: other.token }).GET(path, {
        params: {
          path: { id: siteId, runId: run.id } as never,
          query: { check: a.check as never, cursor: a.nextCursor as string },
        },
      });
      expect(res.status).toBe(404);
    }
  });

  it('reads the same from parts written before their counts, and under excludePaths hiding nothing', async () => {
    const { db } = bed;
    const counted = (await report()).body;
    const firstCheck = counted.checks[0] as Check;
    const counted2 = (await report({ check: firstCheck.check, cursor: firstCheck.nextCursor as string }))
      .body;

    await setExcludes(['/nothing-here/**']);
    expect((await report()).body).toEqual(counted);
    expect((await report({ check: firstCheck.check, cursor: firstCheck.nextCursor as string })).body).toEqual(
      counted2,
    );
    await setExcludes([]);

    await db.execute(
      sql`update seo_reports set check_counts = null, page_count = null where run_id = ${run.id}`,
    );
    try {
      expect((await report()).body).toEqual(counted);
      const { pages } = await walk(firstCheck);
      expect(pages).toEqual(expectedPages().get(firstCheck.check));
    } finally {
      // Finalization's counts again (the same as it wrote: see the first test).
      await db.execute(
        sql`update seo_reports r set check_counts = c.counts, page_count = c.pages
            from (select part, (select jsonb_object_agg(k, n) from (select e ->> 0 as k, count(*) as n
                                 from jsonb_array_elements(s.issues) e group by 1) x) as counts,
                         (select count(distinct e ->> 2) from jsonb_array_elements(s.issues) e)::int as pages
                  from seo_reports s where s.run_id = ${run.id}) c
            where r.run_id = ${run.id} and r.part = c.part`,
      );
    }
    expect((await report()).body).toEqual(counted);
  });

  it('leaves out pages excluded now: counts, pages affected and score exact', async () => {
    const hidden = (url: string) => /^\/p\/1\d*$/.test(new URL(url).pathname);
    await setExcludes(['/p/1*']);
    try {
      const res = await report({ pagesPerCheck: 50 });
      expect(res.status).toBe(200);
      const expected = expectedPages(hidden);
      const visible = stored.filter((i) => !hidden(i[2]));
      expect(res.body.summary.issueCount).toBe(visible.length);
      expect(res.body.summary.pagesAffected).toBe(new Set(visible.map((i) => i[2])).size);
      const scanned = bed.site.expected.pages - [...new Set(stored.map((i) => i[2]))].filter(hidden).length;
      expect(res.body.pagesScanned).toBe(scanned);
      const issues = visible.flatMap(([check, impact, pageUrl, detail]): SeoIssue[] =>
        isSeoCheckId(check) && isSeoImpact(impact) ? [{ check, impact, pageUrl, detail }] : [],
      );
      expect(res.body.score).toBe(scoreSeo(issues, scanned).score);
      for (const check of res.body.checks) {
        const urls = expected.get(check.check) as string[];
        expect(check.count).toBe(urls.length);
        expect(check.pages.map((p) => p.pageUrl)).toEqual(urls.slice(0, 50));
        expect((await walk(check, 400)).pages).toEqual(urls);
      }
    } finally {
      await setExcludes([]);
    }
  });

  it('bounds the issues new and fixed since the previous run and counts them exactly', async () => {
    const { db } = bed;
    // A previous completed crawl (stored as finalization would): it had none of this run's issues
    // but one per gone page, more than the lists show.
    const { id: _id, ...fields } = run;
    const [previous] = await db
      .insert(runs)
      .values({ ...fields, started_at: run.started_at - 60_000, finished_at: run.started_at - 1000 })
      .returning();
    const gone: StoredSeoIssue[] = Array.from({ length: MAX_LISTED_CHANGES + 234 }, (_, i) => [
      'h1-missing',
      'moderate',
      new URL(`/gone/${String(i).padStart(5, '0')}`, bed.site.rootUrl).href,
      'The page has no <h1> heading',
    ]);
    for (let part = 0; part * SEO_REPORT_PART < gone.length; part++) {
      const issues = gone.slice(part * SEO_REPORT_PART, (part + 1) * SEO_REPORT_PART);
      await db.insert(seoReports).values({
        run_id: previous!.id,
        part,
        tenant_id: run.tenant_id,
        issues,
        first_page_url: issues[0]?.[2] ?? null,
        last_page_url: issues.at(-1)?.[2] ?? null,
        check_counts: { 'h1-missing': issues.length },
        page_count: issues.length,
        created_at: Date.now(),
      });
    }
    const byPageThenCheck = (a: { check: string; pageUrl: string }, b: { check: string; pageUrl: string }) =>
      a.pageUrl < b.pageUrl
        ? -1
        : a.pageUrl > b.pageUrl
          ? 1
          : a.check < b.check
            ? -1
            : a.check > b.check
              ? 1
              : 0;
    const newIssues = stored.map(([check, , pageUrl]) => ({ check, pageUrl })).sort(byPageThenCheck);
    const fixedIssues = gone.map(([check, , pageUrl]) => ({ check, pageUrl }));
    const expected = {
      previousRunId: previous!.id,
      newIssues: newIssues.slice(0, MAX_LISTED_CHANGES),
      fixedIssues: fixedIssues.slice(0, MAX_LISTED_CHANGES),
      newIssueCount: stored.length,
      fixedIssueCount: gone.length,
    };
    expect((await report()).body.sincePreviousRun).toEqual(expected);
    // The streamed path (under excludePaths) lists and counts the same.
    await setExcludes(['/nothing-here/**']);
    try {
      expect((await report()).body.sincePreviousRun).toEqual(expected);
    } finally {
      await setExcludes([]);
    }

    // What finalization stores (run_changes) is the same difference, and the report reads it
    // instead of differencing the runs again: with the previous run's parts gone, it still says what
    // was fixed against that run.
    await storeRunChanges(db, run, { seo: true });
    const [changes] = await db.select().from(runChanges).where(eq(runChanges.run_id, run.id));
    expect(changes?.seo).toMatchObject({
      previousRunId: previous!.id,
      newCount: stored.length,
      fixedCount: gone.length,
    });
    await db.delete(seoReports).where(eq(seoReports.run_id, previous!.id));
    try {
      expect((await report()).body.sincePreviousRun).toEqual(expected);
    } finally {
      await db.delete(runChanges).where(eq(runChanges.run_id, run.id));
    }
  });
});
