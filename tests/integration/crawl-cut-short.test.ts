import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setOverage } from '@/lib/billing/settings';
import { crawlUrls, runs, usageLedger } from '@/lib/db/schema';
import { v1 } from '../support/api-client';
import { crawlTestbed, htmlPage, registerAndCrawl } from '../support/crawl';
import { signInOwner } from '../support/http';
import { startServer, type TestServer } from '../support/http-server';

/*
 * Issue 10 item 9 at a small scale: a 60-page site crawled with maxPages 50. The pages beyond the
 * cap are not crawled, but every link found on the 50 pages crawled still gets its verdict, and the
 * run says it was cut short and why.
 */

const PAGES = 60;
const CAP = 50;
const ORPHANS = 5;

interface CutShortSite {
  site: TestServer;
  external: TestServer;
  close(): Promise<void>;
}

/**
 * The root links to /p/1 ... /p/60, then to an internal and an external broken target. Every tenth
 * page links to a missing page of its own and a dead external page. The sitemap lists the pages and
 * five orphans that no page links to.
 */
async function startCutShortSite(): Promise<CutShortSite> {
  const external = await startServer('127.0.0.2', {
    '*': (_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('gone');
    },
  });
  const site = await startServer('127.0.0.1');
  const E = external.origin;
  const pageLinks = Array.from({ length: PAGES }, (_, k) => `<a href="/p/${k + 1}">Page ${k + 1}</a>`);
  site.route('/robots.txt', { status: 404 });
  site.route(
    '/',
    htmlPage(`${pageLinks.join('\n')}<a href="/gone-root">Gone</a><a href="${E}/dead-root">Dead</a>`),
  );
  const sitemapUrls = [
    ...Array.from({ length: PAGES }, (_, k) => `/p/${k + 1}`),
    ...Array.from({ length: ORPHANS }, (_, k) => `/orphan/${k}`),
  ];
  site.route('/sitemap.xml', {
    headers: { 'content-type': 'application/xml' },
    body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${sitemapUrls
      .map((path) => `<url><loc>${site.origin}${path}</loc></url>`)
      .join('')}</urlset>`,
  });
  site.route('*', (req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const page = /^\/p\/(\d+)$/.exec(path);
    const i = page ? Number(page[1]) : -1;
    if (i >= 1 && i <= PAGES) {
      const broken =
        i % 10 === 0 ? `<a href="/missing/${i}">Missing</a><a href="${E}/dead/${i}">Dead</a>` : '';
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(htmlPage(`<a href="/">Home</a>${broken}`).body);
      return;
    }
    if (path.startsWith('/orphan/')) {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(htmlPage('<a href="/orphan-missing">Missing</a>').body);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  return {
    site,
    external,
    close: async () => {
      await Promise.all([site.close(), external.close()]);
    },
  };
}

const bed = crawlTestbed(startCutShortSite);

async function crawlWith(email: string, maxPages: number) {
  const { token, tenantId } = await signInOwner(bed.db, email);
  await setOverage(bed.db, tenantId, true);
  const siteId = await registerAndCrawl(token, bed.site.site.url(), { maxPages });
  const report = await v1({ token }).GET('/v1/sites/{id}/report', { params: { path: { id: siteId } } });
  expect(report.status).toBe(200);
  const status = await v1({ token }).GET('/v1/sites/{id}/status', { params: { path: { id: siteId } } });
  expect(status.status).toBe(200);
  const runId = report.body.run.id as string;
  const targets = new Set<string>(report.body.brokenLinks.map((b: { target_url: string }) => b.target_url));
  return { runId, report: report.body, status: status.body, targets };
}

describe('a crawl cut short by maxPages', () => {
  it('checks every link found on the pages crawled, and the run, report and status say it was cut short', async () => {
    const S = bed.site.site.origin;
    const E = bed.site.external.origin;
    const requestsBefore = bed.site.site.requests.length;
    const { runId, report, status, targets } = await crawlWith('cut-short@example.com', CAP);

    // The root and /p/1 ... /p/49 are crawled; the broken targets linked from them are all reported.
    const expected = [
      `${S}/gone-root`,
      `${E}/dead-root`,
      ...[10, 20, 30, 40].flatMap((i) => [`${S}/missing/${i}`, `${E}/dead/${i}`]),
    ];
    expect([...targets].sort()).toEqual(expected.sort());

    expect(report.run).toMatchObject({
      id: runId,
      state: 'completed',
      error: null,
      pages_crawled: CAP,
      broken_count: expected.length,
      cut_short: 1,
      limits_hit: [{ limit: 'max-pages', detail: expect.stringMatching(/after 50 pages.*maxPages \(50\)/) }],
    });
    expect(status.latestRun).toMatchObject({ id: runId, cut_short: 1, limits_hit: report.run.limits_hit });

    // Pages beyond the cap linked from the root were checked once each, not crawled.
    const frontier = await bed.db.select().from(crawlUrls).where(eq(crawlUrls.run_id, runId));
    const byUrl = new Map(frontier.map((u) => [u.url, u]));
    for (let i = CAP; i <= PAGES; i++) {
      expect(byUrl.get(`${S}/p/${i}`)).toMatchObject({
        state: 'done',
        verdict: 'ok',
        is_page: 0,
        links: null,
        detail: expect.stringMatching(/checked but not crawled: the site's maxPages \(50\)/),
      });
    }
    const requested = bed.site.site.requests.slice(requestsBefore).map((r) => r.path);
    for (let i = CAP; i <= PAGES; i++) expect(requested.filter((p) => p === `/p/${i}`)).toHaveLength(1);
    // Their own links were never discovered: nothing found only on them was checked.
    expect(byUrl.has(`${S}/missing/${CAP}`)).toBe(false);
    // Sitemap URLs no crawled page links to are skipped, never requested.
    for (let k = 0; k < ORPHANS; k++) {
      expect(byUrl.get(`${S}/orphan/${k}`)).toMatchObject({
        verdict: 'skipped',
        detail: "not crawled: the site's maxPages (50) was reached",
      });
    }
    expect(requested.filter((p) => p.startsWith('/orphan/'))).toEqual([]);

    // The allowance meters pages crawled: the ledger has the 50 pages, checks apart.
    const [run] = await bed.db.select().from(runs).where(eq(runs.id, runId));
    const ledger = await bed.db.select().from(usageLedger).where(eq(usageLedger.run_id, runId));
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ pages_crawled: CAP, links_checked: run?.links_checked });
    const checkedPages = await bed.db
      .select()
      .from(crawlUrls)
      .where(and(eq(crawlUrls.run_id, runId), eq(crawlUrls.is_page, 1)));
    expect(checkedPages).toHaveLength(CAP);
  });

  it('a crawl that fits under maxPages is complete and says nothing about limits', async () => {
    const { report, targets } = await crawlWith('fits@example.com', 1000);
    expect(report.run).toMatchObject({
      state: 'completed',
      pages_crawled: 1 + PAGES + ORPHANS,
      cut_short: 0,
      limits_hit: [],
    });
    expect(targets.size).toBe(2 + 2 * (PAGES / 10) + 1);
  });
});
