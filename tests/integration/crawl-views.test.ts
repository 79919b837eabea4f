import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser } from 'playwright-core';
import { createElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as brokenLinksCsvRoute from '@/app/(dashboard)/sites/[id]/broken-links.csv/route';
import * as pagesCsvRoute from '@/app/(dashboard)/sites/[id]/pages.csv/route';
import { BrokenTargetsReport } from '@/components/sites/broken-targets-table';
import { PagesTable } from '@/components/sites/pages-table';
import { RedirectsTable } from '@/components/sites/redirects-table';
import { UrlDetailView } from '@/components/sites/url-detail';
import { jobsIdle } from '@/jobs/runtime';
import { launchChromium } from '@/lib/a11y/engine/browser';
import { type Query, v1 } from '../support/api-client';
import { crawlTestbed, htmlPage, registerAndCrawl } from '../support/crawl';
import { type CallResult, signInOwner } from '../support/http';
import { startServer, type TestServer } from '../support/http-server';

/*
 * The CSV exports (app/(dashboard)/sites/[id]/*.csv) are called by hand: they are dashboard
 * routes, not in the /v1 document the typed client (tests/support/api-client) is generated from;
 * the /v1 calls use the client.
 */

/*
 * Issue 12 items 2 and 3: the dead-link report grouped by target (sorted, filtered, paged, first
 * seen, new since the previous run), the redirects with their chains and linking pages, and one
 * URL's view (inlinks with anchor text and selector, outlinks with their outcome, SEO issues), on
 * three real crawls of a site that changes between them.
 */

/** Every page (/, /a, /b, /new) carries the site navigation, whose /gone link is broken: a sitewide problem. */
const nav = '<nav><a href="/">Home</a> <a href="/gone" id="nav-gone">Gone</a></nav>';

let external: TestServer;
const bed = crawlTestbed(async () => {
  external = await startServer('127.0.0.2', { '/down': { status: 500 }, '/ok': { status: 200 } });
  return startServer('127.0.0.1', {
    '/': htmlPage(
      `${nav}<main><a href="/a">Alpha</a> <a href="/b">Bravo</a> <a href="/old">Old</a> <a href="/older">Older</a></main>`,
      'Home',
    ),
    '/a': htmlPage(`${nav}<p><a href="/missing">Missing page</a></p>`, 'Alpha page'),
    '/b': htmlPage(
      `${nav}<p><a href="${external.url('/down')}">Down</a> <a href="/old">Old again</a></p>`,
      'Bravo',
    ),
    '/gone': { status: 404 },
    '/missing': { status: 410 },
    '/old': { status: 301, headers: { location: '/new' } },
    '/older': { status: 302, headers: { location: '/old' } },
    '/new': htmlPage(`${nav}<p>new</p>`, 'New page'),
  });
});
afterAll(() => external?.close());

type Target = {
  target_url: string;
  kind: string;
  status_code: number | null;
  linking_pages: number;
  first_seen: number;
  is_new: boolean;
  sources: { source_url: string; link_text: string | null; link_selector: string | null }[];
};

let token: string;
let siteId: string;
/** The crawls, oldest first, with their start times. */
const crawls: { id: string; started_at: number }[] = [];

const site = () => ({ path: { id: siteId } });
const brokenTargets = (query: Query<'/v1/sites/{id}/broken-targets', 'get'> = {}) =>
  v1({ token }).GET('/v1/sites/{id}/broken-targets', { params: { ...site(), query } });
const runBrokenTargets = (
  runId: string,
  query: Query<'/v1/sites/{id}/runs/{runId}/broken-targets', 'get'> = {},
) =>
  v1({ token }).GET('/v1/sites/{id}/runs/{runId}/broken-targets', {
    params: { path: { id: siteId, runId }, query },
  });
const redirects = (query: Query<'/v1/sites/{id}/redirects', 'get'> = {}) =>
  v1({ token }).GET('/v1/sites/{id}/redirects', { params: { ...site(), query } });
const urlDetails = (query: Query<'/v1/sites/{id}/url-details', 'get'>) =>
  v1({ token }).GET('/v1/sites/{id}/url-details', { params: { ...site(), query } });
/** Queries the document refuses, sent as they are: the route's own validation is what the test checks. */
const getUnchecked = (path: string) => v1({ token }).raw({ path: `/v1/sites/${siteId}${path}` });

async function crawlAgain() {
  const started = await v1({ token }).POST('/v1/sites/{id}/crawl', { params: { path: { id: siteId } } });
  expect(started.status).toBe(202);
  await jobsIdle();
}

beforeAll(async () => {
  ({ token } = await signInOwner(bed.db, 'views@example.com'));
  siteId = await registerAndCrawl(token, bed.site.url(), { seoEnabled: true });
  // Crawl 2: /missing is fixed (and /a links a page that answers).
  bed.site.route('/missing', htmlPage('<p>here</p>', 'Here'));
  await crawlAgain();
  // Crawl 3: /missing is broken again; /gone stays broken throughout.
  bed.site.route('/missing', { status: 410 });
  await crawlAgain();
  const runs = await v1({ token }).GET('/v1/sites/{id}/runs', {
    params: { ...site(), query: { kind: 'crawl' } },
  });
  expect(runs.body.runs.map((r: { state: string }) => r.state)).toEqual([
    'completed',
    'completed',
    'completed',
  ]);
  crawls.push(...[...runs.body.runs].reverse());
});

describe('GET /v1/sites/{id}/broken-targets', () => {
  it('groups the report by target, the most-linked first, with first seen and new since the previous run', async () => {
    const res = await brokenTargets();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.run.id).toBe(crawls[2]!.id);
    const targets = res.body.targets as Target[];
    expect(targets.map((t) => [t.target_url, t.linking_pages])).toEqual([
      [bed.site.url('/gone'), 4],
      // A tie goes by target URL.
      [bed.site.url('/missing'), 1],
      [external.url('/down'), 1],
    ]);
    const [gone, missing, down] = targets;
    // Broken in every crawl: first seen in the first. Fixed in crawl 2 and broken again: new in 3.
    expect(gone).toMatchObject({
      kind: 'internal',
      status_code: 404,
      first_seen: crawls[0]!.started_at,
      is_new: false,
    });
    expect(missing).toMatchObject({ status_code: 410, first_seen: crawls[2]!.started_at, is_new: true });
    expect(down).toMatchObject({ kind: 'external', status_code: 500, is_new: false });
    expect(gone!.sources).toContainEqual({
      source_url: bed.site.url('/a'),
      link_text: 'Gone',
      link_selector: '#nav-gone',
    });
    expect(gone!.sources.map((s) => s.source_url)).toEqual(
      [...gone!.sources.map((s) => s.source_url)].sort(),
    );
    expect(res.body.matching).toEqual({ targets: 3, rows: 6 });
    expect(res.body.sincePreviousRun).toEqual({
      previousRunId: crawls[1]!.id,
      newTargets: [bed.site.url('/missing')],
      fixedTargets: [],
      newTargetCount: 1,
      fixedTargetCount: 0,
    });
    expect(res.body.nextCursor).toBeNull();
  });

  it('filters by kind, status class, search and change, and sorts by any column', async () => {
    const urls = async (query: Query<'/v1/sites/{id}/broken-targets', 'get'>) =>
      ((await brokenTargets(query)).body.targets as Target[]).map((t) => t.target_url);
    expect(await urls({ kind: 'external' })).toEqual([external.url('/down')]);
    expect(await urls({ status: '5xx' })).toEqual([external.url('/down')]);
    expect(await urls({ status: 'error' })).toEqual([]);
    expect(await urls({ change: 'new' })).toEqual([bed.site.url('/missing')]);
    // A search matches the target or a linking page (/a links /missing and, in its nav, /gone).
    expect(await urls({ q: 'MISSING' })).toEqual([bed.site.url('/missing')]);
    expect(await urls({ q: '/a', sort: 'target' })).toEqual(
      [bed.site.url('/gone'), bed.site.url('/missing')].sort(),
    );
    expect(await urls({ sort: 'status', order: 'desc' })).toEqual([
      external.url('/down'),
      bed.site.url('/missing'),
      bed.site.url('/gone'),
    ]);
    expect(await urls({ sort: 'firstSeen', order: 'desc' })).toEqual([
      bed.site.url('/missing'),
      ...[bed.site.url('/gone'), external.url('/down')].sort(),
    ]);
    expect(await urls({ sort: 'kind' })).toEqual([
      bed.site.url('/gone'),
      bed.site.url('/missing'),
      external.url('/down'),
    ]);
  });

  it('pages by cursor, every target once, and refuses a cursor of another run', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: CallResult = await brokenTargets({ limit: 1, ...(cursor ? { cursor } : {}) });
      expect(res.body.targets).toHaveLength(1);
      expect(res.body.matching.targets).toBe(3);
      seen.push(res.body.targets[0].target_url);
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([bed.site.url('/gone'), bed.site.url('/missing'), external.url('/down')]);

    const first = await runBrokenTargets(crawls[0]!.id, { limit: 1 });
    expect(first.status).toBe(200);
    const res = await brokenTargets({ cursor: first.body.nextCursor });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('cursor: belongs to an earlier crawl: start again from the first page');
  });

  it("answers any run's grouped report, compared with the run before it", async () => {
    const res = await runBrokenTargets(crawls[1]!.id);
    expect(res.status).toBe(200);
    expect(res.body.run.id).toBe(crawls[1]!.id);
    expect((res.body.targets as Target[]).map((t) => t.target_url)).toEqual([
      bed.site.url('/gone'),
      external.url('/down'),
    ]);
    expect(res.body.sincePreviousRun).toEqual({
      previousRunId: crawls[0]!.id,
      newTargets: [],
      fixedTargets: [bed.site.url('/missing')],
      newTargetCount: 0,
      fixedTargetCount: 1,
    });
  });

  it('names the field of a bad query (422)', async () => {
    for (const [qs, message] of [
      ['sort=size', 'sort:'],
      ['status=2xx', 'status:'],
      ['limit=501', 'limit: must be at most 500'],
      ['cursor=nope', 'cursor: is not a cursor this endpoint returned'],
    ]) {
      const res = await getUnchecked(`/broken-targets?${qs}`);
      expect(res.status, qs).toBe(422);
      expect(res.body.error).toContain(message);
    }
  });
});

describe('GET /v1/sites/{id}/redirects', () => {
  it('lists each redirecting URL with its whole chain, final status and linking pages', async () => {
    const res = await redirects();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.run.id).toBe(crawls[2]!.id);
    const byUrl = new Map(res.body.redirects.map((r: { url: string }) => [r.url, r]));
    expect(byUrl.get(bed.site.url('/older'))).toMatchObject({
      status_code: 302,
      final_status_code: 200,
      final_url: bed.site.url('/new'),
      hops: [
        { status: 302, url: bed.site.url('/older') },
        { status: 301, url: bed.site.url('/old') },
        { status: 200, url: bed.site.url('/new') },
      ],
      inlinks: 1,
      linking_pages: [
        { source_url: bed.site.url('/'), link_text: 'Older', link_selector: expect.any(String) },
      ],
    });
    expect(byUrl.get(bed.site.url('/old'))).toMatchObject({
      status_code: 301,
      final_url: bed.site.url('/new'),
      inlinks: 2,
      linking_pages: [
        { source_url: bed.site.url('/'), link_text: 'Old' },
        { source_url: bed.site.url('/b'), link_text: 'Old again' },
      ],
    });
    // Most linked first by default.
    expect(res.body.redirects[0].url).toBe(bed.site.url('/old'));
    const byUrlSort = await redirects({ sort: 'url', limit: 1 });
    expect(byUrlSort.body.redirects.map((r: { url: string }) => r.url)).toEqual([bed.site.url('/old')]);
    expect(byUrlSort.body.nextCursor).toEqual(expect.any(String));
  });
});

describe('GET /v1/sites/{id}/url-details', () => {
  const details = (url: string, more: Omit<Query<'/v1/sites/{id}/url-details', 'get'>, 'url'> = {}) =>
    urlDetails({ url, ...more });

  it("lists a URL's inlinks with anchor text and selector, a page at a time", async () => {
    const res = await details(bed.site.url('/gone'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.page).toMatchObject({ url: bed.site.url('/gone'), status_code: 404, inlinks: 4 });
    expect(res.body.inlinks).toHaveLength(4);
    expect(res.body.inlinks[0]).toEqual({
      source_url: bed.site.url('/'),
      link_text: 'Gone',
      link_selector: '#nav-gone',
    });
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: CallResult = await details(bed.site.url('/gone'), {
        inlinksLimit: 2,
        ...(cursor ? { inlinksCursor: cursor } : {}),
      });
      paged.push(...page.body.inlinks.map((i: { source_url: string }) => i.source_url));
      cursor = page.body.inlinksNextCursor;
    } while (cursor);
    expect(paged).toEqual(res.body.inlinks.map((i: { source_url: string }) => i.source_url));
  });

  it("lists a page's outlinks in document order with their targets' outcome, and its SEO issues", async () => {
    const res = await details(bed.site.url('/b'));
    expect(res.status).toBe(200);
    expect(res.body.outlinks.map((o: { target_url: string }) => o.target_url)).toEqual([
      bed.site.url('/'),
      bed.site.url('/gone'),
      external.url('/down'),
      bed.site.url('/old'),
    ]);
    expect(res.body.outlinks[2]).toMatchObject({ kind: 'external', status_code: 500, verdict: 'broken' });
    expect(res.body.outlinks[3]).toMatchObject({ status_code: 301, final_status_code: 200, verdict: 'ok' });
    // No description, no h1, no canonical: the run's stored issues for the page, most severe first.
    const checks = res.body.seoIssues.map((i: { check: string }) => i.check);
    expect(checks).toEqual(
      expect.arrayContaining(['description-missing', 'h1-missing', 'canonical-missing']),
    );
    expect(res.body.seoIssues[0].impact).not.toBe('minor');
    expect(res.body.hops).toEqual([]);
  });

  it('shows a redirect with its chain, and 404s a URL the crawl did not find', async () => {
    const old = await details(bed.site.url('/old'));
    expect(old.body.hops.map((h: { status: number }) => h.status)).toEqual([301, 200]);
    expect(old.body.outlinks).toEqual([]);
    const unknown = await details(bed.site.url('/never-linked'));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('url: this crawl did not find that URL');
    // Without the url the document requires: the route's own validation is what this checks.
    const missing = await getUnchecked('/url-details');
    expect(missing.status).toBe(422);
  });
});

/*
 * The dashboard's views of the same data: the server-rendered components given what the API
 * answers, checked for what they say and how (sorted column, links to each URL's view, the CSV and
 * the pager), and run through axe-core in Chromium (WCAG 2.2 AA and best practices, as the e2e
 * suite checks the dashboard) without the stylesheet, so minus the rules on sizes and colours. The
 * e2e server cannot crawl a local site, so this is where the tables are seen filled.
 */
describe('the dashboard views, rendered with real crawl data', () => {
  const require = createRequire(import.meta.url);
  const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  async function axeViolations(element: ReactElement): Promise<string[]> {
    const html = renderToStaticMarkup(element);
    const page = await browser.newPage();
    try {
      await page.setContent(
        `<!doctype html><html lang="en"><head><title>View</title></head><body><main><h1>Site</h1><h2>View</h2>${html}</main></body></html>`,
      );
      await page.addScriptTag({ content: axeSource });
      return await page.evaluate(async (tags) => {
        type Axe = {
          run: (c: Document, o: unknown) => Promise<{ violations: { id: string; nodes: unknown[] }[] }>;
        };
        const result = await (window as unknown as { axe: Axe }).axe.run(document, {
          runOnly: { type: 'tag', values: tags },
          // Without the stylesheet, sizes and colours are the browser's defaults: the rules that
          // judge them are left to the e2e suite and the screenshots, which see the real ones.
          rules: { 'target-size': { enabled: false }, 'color-contrast': { enabled: false } },
        });
        return result.violations.map((v) => `${v.id} (${v.nodes.length})`);
      }, TAGS);
    } finally {
      await page.close();
    }
  }

  const detailHref = (url: string) =>
    `/sites/${siteId}/pages/detail?url=${encodeURIComponent(url)}`.replace(/&/g, '&amp;');

  it('Broken links: sorted by linking pages, each target linking to its view, the CSV and axe clean', async () => {
    const data = (await brokenTargets()).body;
    const element = createElement(BrokenTargetsReport, {
      siteId,
      data,
      path: `/sites/${siteId}/links`,
      query: {},
      pageSize: 50,
      csvHref: `/sites/${siteId}/broken-links.csv`,
    });
    const html = renderToStaticMarkup(element);
    expect(html).toMatch(/<th scope="col"[^>]* aria-sort="descending"><a [^>]*>Linking pages/);
    expect(html).toContain(`href="${detailHref(bed.site.url('/gone'))}"`);
    expect(html).toContain('Linked from 4 pages');
    expect(html).toContain('>New<');
    expect(html).toContain('1 new</strong> and <strong class="font-semibold text-zinc-900">0 fixed');
    expect(html).toContain(`href="/sites/${siteId}/broken-links.csv"`);
    // The count is said once, by the result count above the table (it read "N broken targets
    // linked from M places." above and "N broken targets." again under the table).
    expect(html).toMatch(/role="status"[^>]*>\d+ broken targets? linked from/);
    expect(html).not.toMatch(/>\d+ broken targets?\.</);
    expect(await axeViolations(element)).toEqual([]);
  });

  it('Pages, Redirects and a URL view: axe clean with their rows', async () => {
    const pages = (
      await v1({ token }).GET('/v1/sites/{id}/pages', {
        params: { ...site(), query: { sort: 'inlinks', order: 'desc' } },
      })
    ).body;
    const query = { sort: 'inlinks', order: 'desc' };
    const pagesView = createElement(PagesTable, {
      siteId,
      data: pages,
      path: `/sites/${siteId}/pages`,
      query,
      pageSize: 100,
      csvHref: `/sites/${siteId}/pages.csv`,
    });
    expect(renderToStaticMarkup(pagesView)).toContain('Redirects to <span class="font-mono break-all">');
    expect(await axeViolations(pagesView)).toEqual([]);

    const redirectRows = (await redirects()).body;
    const redirectsView = createElement(RedirectsTable, {
      siteId,
      data: redirectRows,
      path: `/sites/${siteId}/redirects`,
      query: {},
      pageSize: 50,
    });
    expect(renderToStaticMarkup(redirectsView)).toContain('2-hop chain');
    expect(await axeViolations(redirectsView)).toEqual([]);

    const detailOf = async (url: string) => {
      const data = (await urlDetails({ url, inlinksLimit: 1 })).body;
      return createElement(UrlDetailView, {
        siteId,
        data,
        path: `/sites/${siteId}/pages/detail`,
        query: { url },
        pageSize: 1,
      });
    };
    const page = await detailOf(bed.site.url('/b'));
    expect(renderToStaticMarkup(page)).toContain('Missing meta description');
    expect(await axeViolations(page)).toEqual([]);
    // Four pages link to /gone: one shown, the next a cursor away.
    const gone = await detailOf(bed.site.url('/gone'));
    expect(renderToStaticMarkup(gone)).toMatch(/href="[^"]*inlinksCursor=[^"]*"[^>]*>Next/);
    expect(await axeViolations(gone)).toEqual([]);
  });
});

describe('CSV downloads', () => {
  const csv = async (route: typeof brokenLinksCsvRoute, file: string, query = '', auth = true) => {
    const res = await route.GET(
      new Request(`http://localhost/sites/${siteId}/${file}${query}`, {
        headers: auth ? { authorization: `Bearer ${token}` } : {},
      }),
      { params: Promise.resolve({ id: siteId }) },
    );
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      disposition: res.headers.get('content-disposition'),
      cache: res.headers.get('cache-control'),
      lines: (await res.text()).trimEnd().split('\r\n'),
    };
  };

  it('writes every (target, linking page) row of the filtered broken links, sitewide first', async () => {
    const all = await csv(brokenLinksCsvRoute, 'broken-links.csv');
    expect(all.status).toBe(200);
    expect(all.type).toBe('text/csv; charset=utf-8');
    // The same attachment headers as the API's file routes (lib/api/file.ts).
    expect(all.disposition).toMatch(/^attachment; filename="[\w.-]+-broken-links\.csv"$/);
    expect(all.cache).toBe('private, no-store');
    // Every cell is quoted (lib/dashboard/csv.ts: CSV that no spreadsheet runs).
    expect(all.lines[0]).toBe(
      '"target_url","status","status_code","kind","detail","linking_pages","first_seen","new_since_previous_run","source_url","link_text","link_selector","redirect_chain"',
    );
    expect(all.lines).toHaveLength(1 + 6);
    expect(all.lines[1]!.startsWith(`"${bed.site.url('/gone')}","broken","404","internal",`)).toBe(true);
    const externalRows = await csv(brokenLinksCsvRoute, 'broken-links.csv', '?kind=external');
    expect(externalRows.lines).toHaveLength(2);
    expect(externalRows.lines[1]!.startsWith(`"${external.url('/down')}","broken","500","external",`)).toBe(
      true,
    );
    const past = await csv(brokenLinksCsvRoute, 'broken-links.csv', `?run=${crawls[1]!.id}`);
    expect(past.lines.slice(1).some((line) => line.includes('/missing'))).toBe(false);
  });

  it('streams every crawled URL the filters match, and refuses without a session or for a hidden site', async () => {
    const all = await csv(pagesCsvRoute, 'pages.csv');
    const listed = (
      await v1({ token }).GET('/v1/sites/{id}/pages', { params: { ...site(), query: { limit: 500 } } })
    ).body.pages.length;
    expect(all.lines).toHaveLength(1 + listed);
    const redirects = await csv(pagesCsvRoute, 'pages.csv', '?status=3xx');
    expect(
      redirects.lines
        .slice(1)
        .map((line) => line.split(',')[0])
        .sort(),
    ).toEqual([`"${bed.site.url('/old')}"`, `"${bed.site.url('/older')}"`].sort());
    expect((await csv(pagesCsvRoute, 'pages.csv', '', false)).status).toBe(401);
    const other = await pagesCsvRoute.GET(
      new Request('http://localhost/sites/x/pages.csv', { headers: { authorization: `Bearer ${token}` } }),
      { params: Promise.resolve({ id: '00000000-0000-4000-8000-000000000000' }) },
    );
    expect(other.status).toBe(404);
  });
});
