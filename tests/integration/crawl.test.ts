import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCrawlFunctions } from '@/jobs/functions/crawl';
import { jobsIdle, startJobRuntime, stopJobRuntime } from '@/jobs/runtime';
import type { Db } from '@/lib/db/client';
import { crawlUrls, runs, usageLedger } from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import { v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { signInOwner } from '../support/http';
import { type KnownSite, startKnownSite } from '../support/test-site';

const quiet = { info() {}, warn() {}, error() {}, debug() {} };

let db: Db;
let teardown: () => Promise<void>;
let known: KnownSite;
let token: string;
let siteId: string;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  known = await startKnownSite();
  ({ token } = await signInOwner(db, 'crawler@example.com'));
  const created = await v1({ token }).POST('/v1/sites', {
    body: { rootUrl: known.rootUrl, maxConcurrency: 8 },
  });
  expect(created.status).toBe(201);
  siteId = created.body.site.id;
  const patched = await v1({ token }).PATCH('/v1/sites/{id}', {
    params: { path: { id: siteId } },
    body: { excludePaths: known.excludePaths, stripParams: known.stripParams },
  });
  expect(patched.status).toBe(200);
  await startJobRuntime({
    functions: createCrawlFunctions({ requestTimeoutMs: 1000, retryAfterCapMs: 2000 }),
    force: true,
    runner: { logger: quiet, retryDelay: () => 50 },
  });
});

afterAll(async () => {
  await stopJobRuntime();
  await known.close();
  await closeDispatchers();
  await teardown();
});

type Row = {
  target_url: string;
  source_url: string;
  status: string;
  status_code: number | null;
  kind: string;
  detail: string | null;
  redirect_chain: string | null;
  link_text: string | null;
};

/** The known answers for tests/support/test-site.ts's site, in report order (target, then source). */
function expectedRows(): Omit<Row, 'link_text'>[] {
  const S = known.site.origin;
  const E = known.external.origin;
  const row = (
    target: string,
    source: string,
    status: string,
    status_code: number | null,
    kind: 'internal' | 'external',
    detail: string,
    redirect_chain: string | null = null,
  ) => ({ target_url: target, source_url: source, status, status_code, kind, detail, redirect_chain });
  return [
    row(`${S}/docs/v2/guide`, `${S}/docs/`, 'broken', 404, 'internal', 'not found (404)'),
    row(`${S}/everyone-else/missing`, `${S}/`, 'broken', 404, 'internal', 'not found (404)'),
    row(`${S}/from-throttled-missing`, `${S}/throttled`, 'broken', 404, 'internal', 'not found (404)'),
    row(`${S}/gone`, `${S}/`, 'broken', 410, 'internal', 'gone (410)'),
    row(`${S}/img/missing.png`, `${S}/`, 'broken', 404, 'internal', 'not found (404)'),
    row(
      `${S}/loop-a`,
      `${S}/`,
      'error',
      null,
      'internal',
      `redirect loop: ${S}/loop-a -> ${S}/loop-b -> ${S}/loop-a`,
      JSON.stringify([
        { status: 301, url: `${S}/loop-a` },
        { status: 301, url: `${S}/loop-b` },
      ]),
    ),
    row(`${S}/missing`, `${S}/`, 'broken', 404, 'internal', 'not found (404)'),
    row(`${S}/missing`, `${S}/about`, 'broken', 404, 'internal', 'not found (404)'),
    row(`${S}/orphan-broken`, `${S}/orphan`, 'broken', 404, 'internal', 'not found (404)'),
    row(
      `${S}/redirect-broken`,
      `${S}/`,
      'broken',
      404,
      'internal',
      'not found (404)',
      JSON.stringify([
        { status: 302, url: `${S}/redirect-broken` },
        { status: 404, url: `${S}/missing-after-redirect` },
      ]),
    ),
    row(`${S}/slow-page`, `${S}/`, 'error', null, 'internal', 'timed out after 1 s'),
    row(`${E}/missing`, `${S}/`, 'broken', 404, 'external', 'not found (404)'),
    row(`${E}/slow`, `${S}/`, 'error', null, 'external', 'timed out after 1 s'),
    row(`${known.unreachable}/`, `${S}/`, 'error', null, 'external', `connection refused by 127.0.0.3`),
  ];
}

describe('a crawl of the known-answer site', () => {
  it('starts with 202 and a seeding live state, and finishes with the exact report', async () => {
    const started = await v1({ token }).POST('/v1/sites/{id}/crawl', { params: { path: { id: siteId } } });
    expect(started.status).toBe(202);
    expect(started.body.started).toBe(true);
    expect(started.body.status).toMatchObject({
      state: 'seeding',
      pagesCrawled: 0,
      linksChecked: 0,
      brokenCount: 0,
    });
    expect(started.body.status.runId).toEqual(expect.any(String));

    await jobsIdle();

    const report = await v1({ token }).GET('/v1/sites/{id}/report', { params: { path: { id: siteId } } });
    expect(report.status).toBe(200);
    const rows = (report.body.brokenLinks as Row[]).map(({ link_text: _, ...rest }) => ({
      target_url: rest.target_url,
      source_url: rest.source_url,
      status: rest.status,
      status_code: rest.status_code,
      kind: rest.kind,
      detail: rest.detail,
      redirect_chain: rest.redirect_chain,
    }));
    expect(rows).toEqual(expectedRows());

    const run = report.body.run;
    expect(run).toMatchObject({
      state: 'completed',
      kind: 'crawl',
      error: null,
      broken_count: 13,
      pages_with_broken_count: 5,
      internal_broken: 10,
      external_broken: 3,
    });
    expect(run.finished_at).toBeGreaterThanOrEqual(run.started_at);
    expect(Object.keys(run)).not.toContain('settings');

    // The element behind a link is kept: text, positional selector and attributes.
    const missingFromHome = (
      report.body.brokenLinks as Row[] & { link_selector: string; link_attrs: string }[]
    ).find(
      (r) => r.target_url === `${known.site.origin}/missing` && r.source_url === `${known.site.origin}/`,
    );
    expect(missingFromHome).toMatchObject({
      link_text: 'Missing',
      link_selector: '#m1',
      link_attrs: JSON.stringify({ id: 'm1', class: 'bad link', title: 'Missing page' }),
    });
  });

  it('honours robots.txt, exclusions, stripped parameters and fragments', async () => {
    const site = known.site;
    // Our own robots group applies; the `*` group does not.
    expect(site.hits('/no-bots/secret')).toBe(0);
    expect(site.hits('/everyone-else/missing')).toBe(1);
    // excludePaths never enter the frontier.
    expect(site.hits('/private/secret')).toBe(0);
    // Two spellings of the product page (utm_source, fragment) are one URL, fetched once.
    expect(site.requests.filter((r) => r.path.startsWith('/products')).map((r) => r.path)).toEqual([
      '/products?id=1',
    ]);
    // Fragments never reach the server.
    expect(site.requests.some((r) => r.path.includes('#'))).toBe(false);
    // The sitemap named in robots.txt seeded the unlinked page.
    expect(site.hits('/orphan')).toBe(1);
    // A 429 with Retry-After was waited out and the page then parsed (its broken link is reported).
    expect(site.hits('/throttled')).toBe(2);

    const [run] = await db.select().from(runs).where(eq(runs.site_id, siteId));
    const frontier = await db
      .select()
      .from(crawlUrls)
      .where(eq(crawlUrls.run_id, run?.id as string));
    const urls = frontier.map((u) => u.url);
    expect(urls.filter((u) => u.includes('/products'))).toEqual([`${site.origin}/products?id=1`]);
    expect(urls.some((u) => u.includes('#'))).toBe(false);
    expect(urls.some((u) => u.includes('/private/') || u.includes('/no-bots/'))).toBe(false);
    // Each distinct target was checked exactly once, externals included.
    expect(known.external.hits('/missing', 'GET')).toBe(1);
    expect(known.external.hits('/forbidden', 'GET')).toBe(1);
  });

  it('keeps bot walls and rate limits out of the report', async () => {
    const [run] = await db.select().from(runs).where(eq(runs.site_id, siteId));
    const frontier = await db
      .select()
      .from(crawlUrls)
      .where(eq(crawlUrls.run_id, run?.id as string));
    const verdict = (url: string) => frontier.find((u) => u.url === url)?.verdict;
    const E = known.external.origin;
    expect(verdict(`${E}/forbidden`)).toBe('unverifiable');
    expect(verdict(`${E}/linkedin`)).toBe('unverifiable');
    expect(verdict(`${E}/rate-limited`)).toBe('ok');
    expect(verdict(`${E}/ok`)).toBe('ok');
    expect(verdict(`${known.site.origin}/redirect-ok`)).toBe('ok');
  });

  it('records counters derived from the frontier, the window, SEO results and one ledger row', async () => {
    const [run] = await db.select().from(runs).where(eq(runs.site_id, siteId));
    if (!run) throw new Error('no run');
    const frontier = await db.select().from(crawlUrls).where(eq(crawlUrls.run_id, run.id));
    expect(run.pages_crawled).toBe(frontier.filter((u) => u.is_page === 1).length);
    expect(run.links_checked).toBe(
      frontier.filter((u) => u.verdict !== null && u.verdict !== 'skipped').length,
    );
    // Pages parsed: /, /about, /docs/, /docs/v1/intro, /orphan, /products?id=1, /throttled. /redirect-ok
    // lands on /about, which the frontier already had: it is not parsed a second time.
    expect(run.pages_crawled).toBe(7);
    expect(run.window).toBeGreaterThanOrEqual(2);
    expect(run.window).toBeLessThanOrEqual(8);
    expect(run.seo_pages_scanned).toBe(7);
    expect(run.seo_score).toEqual(expect.any(Number));

    const ledger = await db.select().from(usageLedger).where(eq(usageLedger.run_id, run.id));
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({
      pages_crawled: 7,
      links_checked: run.links_checked,
      hostname: '127.0.0.1',
    });

    const seo = await v1({ token }).GET('/v1/sites/{id}/seo-report', { params: { path: { id: siteId } } });
    expect(seo.status).toBe(200);
    expect(seo.body.run.id).toBe(run.id);
    expect(seo.body.pagesScanned).toBe(7);
    // Test pages share one title and have no description or canonical.
    const checks = (seo.body.checks as { check: string; count: number }[]).map((c) => c.check);
    expect(checks).toEqual(
      expect.arrayContaining(['title-duplicate', 'description-missing', 'canonical-missing']),
    );

    const status = await v1({ token }).GET('/v1/sites/{id}/status', { params: { path: { id: siteId } } });
    expect(status.body.live).toMatchObject({ state: 'idle' });
    expect(status.body.latestRun.id).toBe(run.id);
  });

  it('applies the current excludePaths to the report retroactively', async () => {
    const patched = await v1({ token }).PATCH('/v1/sites/{id}', {
      params: { path: { id: siteId } },
      body: { excludePaths: [...known.excludePaths, '/about', '/docs/**'] },
    });
    expect(patched.status).toBe(200);
    const report = await v1({ token }).GET('/v1/sites/{id}/report', { params: { path: { id: siteId } } });
    const S = known.site.origin;
    const expected = expectedRows().filter(
      (r) => r.source_url !== `${S}/about` && !r.source_url.startsWith(`${S}/docs/`),
    );
    expect((report.body.brokenLinks as Row[]).map((r) => [r.target_url, r.source_url])).toEqual(
      expected.map((r) => [r.target_url, r.source_url]),
    );
    // /missing is still linked from / ; /docs/v2/guide is gone with its only source.
    expect(report.body.run).toMatchObject({
      broken_count: 12,
      pages_with_broken_count: 3,
      internal_broken: 9,
    });

    await v1({ token }).PATCH('/v1/sites/{id}', {
      params: { path: { id: siteId } },
      body: { excludePaths: known.excludePaths },
    });
  });

  it('re-finalizing changes nothing', async () => {
    const { finalizeRun } = await import('@/lib/crawl/runs/finalize');
    const [run] = await db
      .select()
      .from(runs)
      .where(and(eq(runs.site_id, siteId), eq(runs.kind, 'crawl')));
    const again = await finalizeRun(db, run?.id as string);
    expect(again?.finalizedNow).toBe(false);
    const ledger = await db
      .select()
      .from(usageLedger)
      .where(eq(usageLedger.run_id, run?.id as string));
    expect(ledger).toHaveLength(1);
  });
});
