import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { jobsIdle } from '@/jobs/runtime';
import { runChanges } from '@/lib/db/schema';
import { type Query, v1 } from '../support/api-client';
import { crawlTestbed, htmlPage, registerAndCrawl } from '../support/crawl';
import { type CallResult, signInOwner } from '../support/http';
import { startServer } from '../support/http-server';

/** A page with a meta description (so description-missing is fixed on it). */
const describedPage = (body: string, title: string) => ({
  headers: { 'content-type': 'text/html' },
  body: `<!doctype html><html lang="en"><head><title>${title}</title><meta name="description" content="${'A page about the things this page is about, described at a length search engines keep.'}"></head><body>${body}</body></html>`,
});

const bed = crawlTestbed(() =>
  startServer('127.0.0.1', {
    '/': htmlPage(
      '<a href="/a">A</a> <a href="/b">B</a> <a href="/gone">Gone</a> <a href="/old">Old</a> <a href="/c">C</a>',
      'Home',
    ),
    '/a': htmlPage('<a href="/missing">Missing</a>', 'Alpha page'),
    '/b': htmlPage('<p>b</p>', 'Bravo page'),
    // A link that is not a URL: broken without any HTTP answer (the pages list's `error` class).
    '/c': htmlPage('<a href="/a">A</a> <a href="/b">B</a> <a href="http://">Bad</a>', 'Charlie page'),
    '/gone': { status: 404 },
    '/old': { status: 301, headers: { location: '/new' } },
    '/new': htmlPage('<p>new</p>', 'New page'),
  }),
);

type Run = { id: string; started_at: number; kind: string; state: string };
type PageRow = {
  url: string;
  kind: string;
  depth: number;
  status_code: number | null;
  final_status_code: number | null;
  redirect_target: string | null;
  title: string | null;
  content_type: string | null;
  response_ms: number | null;
  inlinks: number | null;
  outlinks: number | null;
};

let token: string;
let siteId: string;
let firstRun: string;
let secondRun: string;

const site = () => ({ path: { id: siteId } });
const run = (runId: string) => ({ path: { id: siteId, runId } });
const runs = (query: Query<'/v1/sites/{id}/runs', 'get'> = {}) =>
  v1({ token }).GET('/v1/sites/{id}/runs', { params: { ...site(), query } });
/** Queries the document refuses, sent as they are: the route's own validation is what the test checks. */
const getUnchecked = (path: string) => v1({ token }).raw({ path: `/v1/sites/${siteId}${path}` });

/** Every row of /pages for `query`, `limit` at a time, following nextCursor to the end. */
async function allPages(query: Query<'/v1/sites/{id}/pages', 'get'>, limit: number): Promise<PageRow[]> {
  const rows: PageRow[] = [];
  let cursor: string | null = null;
  do {
    const res: CallResult = await v1({ token }).GET('/v1/sites/{id}/pages', {
      params: { ...site(), query: { limit, ...query, ...(cursor ? { cursor } : {}) } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.pages.length).toBeLessThanOrEqual(limit);
    rows.push(...res.body.pages);
    cursor = res.body.nextCursor;
  } while (cursor);
  return rows;
}

beforeAll(async () => {
  const { db, site } = bed;
  ({ token } = await signInOwner(db, 'history@example.com'));
  siteId = await registerAndCrawl(token, site.url(), { seoEnabled: true });
  // The site changes between the runs: /gone comes back, /a links a new dead page, /b gains a
  // description, /c loses its lang.
  site.route('/gone', htmlPage('<p>back</p>', 'Back page'));
  site.route('/a', htmlPage('<a href="/missing">Missing</a> <a href="/vanished">Vanished</a>', 'Alpha page'));
  site.route('/b', describedPage('<p>b</p>', 'Bravo page'));
  site.route('/c', {
    headers: { 'content-type': 'text/html' },
    body: '<!doctype html><html><head><title>Charlie page</title></head><body><a href="/a">A</a> <a href="/b">B</a> <a href="http://">Bad</a></body></html>',
  });
  const started = await v1({ token }).POST('/v1/sites/{id}/crawl', { params: { path: { id: siteId } } });
  expect(started.status).toBe(202);
  await jobsIdle();
  const listed = await runs();
  expect(listed.status).toBe(200);
  const crawls = (listed.body.runs as Run[]).filter((r) => r.kind === 'crawl');
  expect(crawls.map((r) => r.state)).toEqual(['completed', 'completed']);
  [secondRun, firstRun] = crawls.map((r) => r.id) as [string, string];
});

describe('GET /v1/sites/{id}/runs', () => {
  it('lists runs newest first, every run exactly once across pages', async () => {
    const all = await runs();
    expect(all.body.nextCursor).toBeNull();
    const ids = (all.body.runs as Run[]).map((r) => r.id);
    const starts = (all.body.runs as Run[]).map((r) => r.started_at);
    expect(starts).toEqual([...starts].sort((x, y) => y - x));
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const res: CallResult = await runs({ limit: 1, ...(cursor ? { cursor } : {}) });
      expect(res.body.runs).toHaveLength(1);
      paged.push(res.body.runs[0].id);
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(paged).toEqual(ids);
    const crawls = await runs({ kind: 'crawl' });
    expect((crawls.body.runs as Run[]).map((r) => r.id)).toEqual([secondRun, firstRun]);
  });

  it('names the field of a bad limit or cursor (422)', async () => {
    for (const [qs, message] of [
      ['limit=0', 'limit: must be at least 1'],
      ['limit=101', 'limit: must be at most 100'],
      ['limit=ten', 'limit: must be a whole number'],
      ['cursor=not-a-cursor', 'cursor: is not a cursor this endpoint returned'],
    ]) {
      const res = await getUnchecked(`/runs?${qs}`);
      expect(res.status).toBe(422);
      expect(res.body.error).toBe(message);
    }
  });
});

describe('new and fixed since the previous run', () => {
  it('the broken-link report names new and fixed targets, latest and per run alike', async () => {
    const latest = await v1({ token }).GET('/v1/sites/{id}/report', { params: site() });
    expect(latest.status).toBe(200);
    expect(latest.body.run.id).toBe(secondRun);
    expect(latest.body.sincePreviousRun).toEqual({
      previousRunId: firstRun,
      newTargets: [bed.site.url('/vanished')],
      fixedTargets: [bed.site.url('/gone')],
      newTargetCount: 1,
      fixedTargetCount: 1,
    });
    const second = await v1({ token }).GET('/v1/sites/{id}/runs/{runId}/report', { params: run(secondRun) });
    expect(second.body).toEqual(latest.body);
    // Finalization stored that difference with the run, which every read of the reports then uses.
    const [stored] = await bed.db.select().from(runChanges).where(eq(runChanges.run_id, secondRun));
    expect(stored!.broken).toEqual({
      previousRunId: firstRun,
      newCount: 1,
      fixedCount: 1,
      newTargets: [bed.site.url('/vanished')],
      fixedTargets: [bed.site.url('/gone')],
    });

    const first = await v1({ token }).GET('/v1/sites/{id}/runs/{runId}/report', { params: run(firstRun) });
    expect(first.status).toBe(200);
    expect(first.body.run.id).toBe(firstRun);
    expect(first.body.brokenLinks.map((b: { target_url: string }) => b.target_url)).toEqual([
      'http://',
      bed.site.url('/gone'),
      bed.site.url('/missing'),
    ]);
    expect(first.body.sincePreviousRun).toEqual({
      previousRunId: null,
      newTargets: [],
      fixedTargets: [],
      newTargetCount: 0,
      fixedTargetCount: 0,
    });
  });

  it('the SEO report names new and fixed (check, page) issues', async () => {
    const latest = await v1({ token }).GET('/v1/sites/{id}/seo-report', { params: site() });
    expect(latest.status).toBe(200);
    const changes = latest.body.sincePreviousRun;
    expect(changes.previousRunId).toBe(firstRun);
    expect(changes.newIssues).toEqual(
      expect.arrayContaining([{ check: 'lang-missing', pageUrl: bed.site.url('/c') }]),
    );
    expect(changes.fixedIssues).toEqual(
      expect.arrayContaining([{ check: 'description-missing', pageUrl: bed.site.url('/b') }]),
    );
    // An issue in both runs is neither.
    // Short lists: counted and listed alike.
    expect(changes.newIssueCount).toBe(changes.newIssues.length);
    expect(changes.fixedIssueCount).toBe(changes.fixedIssues.length);
    const unchanged = { check: 'description-missing', pageUrl: bed.site.url('/a') };
    expect(changes.newIssues).not.toContainEqual(unchanged);
    expect(changes.fixedIssues).not.toContainEqual(unchanged);

    const first = await v1({ token }).GET('/v1/sites/{id}/runs/{runId}/seo-report', {
      params: run(firstRun),
    });
    expect(first.status).toBe(200);
    expect(first.body.run.id).toBe(firstRun);
    expect(first.body.sincePreviousRun).toEqual({
      previousRunId: null,
      newIssues: [],
      fixedIssues: [],
      newIssueCount: 0,
      fixedIssueCount: 0,
    });
  });
});

describe('GET /v1/sites/{id}/pages', () => {
  it('lists every URL of the latest crawl with its status, title, depth, links and redirect', async () => {
    const rows = await allPages({}, 500);
    const byUrl = new Map(rows.map((r) => [r.url, r]));
    expect(byUrl.get(bed.site.url('/'))).toMatchObject({
      depth: 0,
      status_code: 200,
      title: 'Home',
      outlinks: 5,
    });
    expect(byUrl.get(bed.site.url('/old'))).toMatchObject({
      status_code: 301,
      final_status_code: 200,
      redirect_target: bed.site.url('/new'),
      depth: 1,
    });
    expect(byUrl.get(bed.site.url('/vanished'))).toMatchObject({
      status_code: 404,
      depth: 2,
      outlinks: null,
    });
    expect(byUrl.get(bed.site.url('/a'))).toMatchObject({
      title: 'Alpha page',
      content_type: 'text/html',
      inlinks: 2,
      outlinks: 2,
    });
    expect(byUrl.get(bed.site.url('/'))).toMatchObject({ inlinks: 0 });
    expect(byUrl.get(bed.site.url('/new'))).toMatchObject({
      inlinks: 0,
      is_page: 1,
      content_type: 'text/html',
    });
    expect(byUrl.get(bed.site.url('/vanished'))).toMatchObject({ inlinks: 1 });
    // Every URL that answered has a response time; the link that is not a URL was never requested.
    for (const row of rows) {
      if (row.url === 'http://')
        expect(row).toMatchObject({ status_code: null, response_ms: null, content_type: null });
      else expect(row.response_ms, row.url).toBeGreaterThanOrEqual(0);
    }
  });

  it('pages through every row exactly once, in order, for each sort and direction', async () => {
    const everything = (await allPages({}, 500)).map((r) => r.url).sort();
    for (const sort of ['url', 'status', 'depth', 'inlinks', 'outlinks', 'responseTime'] as const) {
      for (const order of ['asc', 'desc'] as const) {
        const whole = await allPages({ sort, order }, 500);
        const paged = await allPages({ sort, order }, 2);
        expect(paged.map((r) => r.url)).toEqual(whole.map((r) => r.url));
        expect([...paged.map((r) => r.url)].sort()).toEqual(everything);
        const keyOf: Record<string, (r: PageRow) => number> = {
          status: (r) => r.status_code ?? -1,
          depth: (r) => r.depth,
          inlinks: (r) => r.inlinks ?? -1,
          outlinks: (r) => r.outlinks ?? -1,
          responseTime: (r) => r.response_ms ?? -1,
        };
        const key = keyOf[sort] ?? (() => 0);
        if (sort !== 'url') {
          const keys = paged.map(key);
          expect(keys).toEqual([...keys].sort((x, y) => (order === 'asc' ? x - y : y - x)));
        }
      }
    }
  });

  it('filters by status class, kind, depth and a search on URL or title', async () => {
    const urls = async (query: Query<'/v1/sites/{id}/pages', 'get'>) =>
      (await allPages(query, 3)).map((r) => r.url).sort();
    expect(await urls({ status: '4xx' })).toEqual([bed.site.url('/missing'), bed.site.url('/vanished')]);
    expect(await urls({ status: '3xx' })).toEqual([bed.site.url('/old')]);
    expect(await urls({ status: '5xx' })).toEqual([]);
    expect(await urls({ status: 'error' })).toEqual(['http://']);
    expect(await urls({ kind: 'external' })).toEqual(['http://']);
    expect(await urls({ depth: 0 })).toEqual([bed.site.url('/')]);
    expect(await urls({ q: 'charlie' })).toEqual([bed.site.url('/c')]);
    const html = ['/', '/a', '/b', '/c', '/gone', '/new', '/old'].map((p) => bed.site.url(p)).sort();
    expect(await urls({ contentType: 'text/html' })).toEqual(html);
    // A type with a slash takes all of its subtypes: the 404s answered text/plain.
    const missing = [bed.site.url('/missing'), bed.site.url('/vanished')];
    expect(await urls({ contentType: 'TEXT/' })).toEqual([...html, ...missing].sort());
    expect(await urls({ contentType: 'text/plain' })).toEqual(missing);
    expect(await urls({ contentType: 'image/' })).toEqual([]);
    expect(await urls({ q: 'VANISH' })).toEqual([bed.site.url('/vanished')]);
    expect(await urls({ q: '100%' })).toEqual([]);
    expect(await urls({ status: '2xx', depth: 2, sort: 'status' })).toEqual([]);
  });

  it('answers the latest run under /runs/{runId}/pages; an older run no longer keeps its URLs (404)', async () => {
    const latest = await v1({ token }).GET('/v1/sites/{id}/pages', { params: site() });
    const second = await v1({ token }).GET('/v1/sites/{id}/runs/{runId}/pages', { params: run(secondRun) });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(latest.body);
    const first = await v1({ token }).GET('/v1/sites/{id}/runs/{runId}/pages', { params: run(firstRun) });
    expect(first.status).toBe(404);
    expect(first.body.error).toMatch(/no longer stored/);
  });

  it('names the field of a bad query (422)', async () => {
    for (const [qs, field] of [
      ['status=6xx', 'status'],
      ['sort=title', 'sort'],
      ['limit=501', 'limit'],
      ['depth=-1', 'depth'],
      ['cursor=e30', 'cursor'],
    ]) {
      const res = await getUnchecked(`/pages?${qs}`);
      expect(res.status, qs).toBe(422);
      expect(res.body.error).toMatch(new RegExp(`^${field}: `));
    }
  });
});

describe('runs of another site or organization', () => {
  it('are 404 on every per-run endpoint, as are unknown and malformed run ids', async () => {
    const other = await signInOwner(bed.db, 'other-tenant@example.com');
    const otherSite = await registerAndCrawl(other.token, bed.site.url('/b'));
    const reports = [
      '/v1/sites/{id}/runs/{runId}/report',
      '/v1/sites/{id}/runs/{runId}/seo-report',
      '/v1/sites/{id}/runs/{runId}/pages',
    ] as const;
    for (const report of reports) {
      // The other organization's own site, this organization's run: not its run.
      const foreign = await v1({ token: other.token }).GET(report, {
        params: { path: { id: otherSite, runId: secondRun } },
      });
      expect(foreign.status, report).toBe(404);
      // This organization's site, named by the other organization: not its site.
      const site = await v1({ token: other.token }).GET(report, { params: run(secondRun) });
      expect(site.status).toBe(404);
      expect(site.body.error).toBe('site not found');
      for (const runId of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
        const unknown = await v1({ token }).GET(report, { params: run(runId) });
        expect(unknown.status).toBe(404);
        expect(unknown.body.error).toBe('run not found');
      }
    }
    const otherRuns = await v1({ token: other.token }).GET('/v1/sites/{id}/runs', {
      params: { path: { id: siteId } },
    });
    expect(otherRuns.status).toBe(404);
  });
});
