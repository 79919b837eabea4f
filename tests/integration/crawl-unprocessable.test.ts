import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setOverage } from '@/lib/billing/settings';
import { enqueueUrls, UNPROCESSABLE_DETAIL } from '@/lib/crawl/engine/frontier';
import {
  deferLeases,
  leaseSuspect,
  leaseUrls,
  reclaimExpiredLeases,
  releaseLeases,
} from '@/lib/crawl/engine/frontier-leases';
import { workRun } from '@/lib/crawl/engine/step';
import { finalizeRun } from '@/lib/crawl/runs/finalize';
import { seedRun } from '@/lib/crawl/runs/seed';
import type { Db } from '@/lib/db/client';
import { crawlUrls, runs } from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import { v1 } from '../support/api-client';
import { htmlPage, registerAndStart } from '../support/crawl';
import { useTestDatabase } from '../support/db';
import { signInOwner } from '../support/http';
import { hang, startServer, type TestServer } from '../support/http-server';

/*
 * Issue 10 item 6: a URL whose processing died twice is recorded as an error ("could not be
 * processed") and never leased again, so a page that kills the crawler cannot loop the crash.
 */

let db: Db;
let teardown: () => Promise<void>;
let site: TestServer;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  site = await startServer('127.0.0.1', {
    '/robots.txt': { status: 404 },
    '/sitemap.xml': { status: 404 },
    '/': htmlPage('<a href="/a">A</a> <a href="/b">B</a> <a href="/deadly">Deadly</a> <a href="/c">C</a>'),
    '/a': htmlPage('<p>A</p>'),
    '/b': htmlPage('<p>B</p>'),
    // Stands in for a page that kills or hangs the worker: the test "crashes" while it is fetched.
    '/deadly': hang,
    '/c': htmlPage('<p>C</p>'),
  });
});

afterAll(async () => {
  await site.close();
  await closeDispatchers();
  await teardown();
});

/**
 * A crawl run of a new site (no job runtime: the test works it by hand). Each run gets an
 * organization of its own, since an organization registers a root URL once.
 */
let owners = 0;
async function startRun() {
  const owner = await signInOwner(db, `unprocessable-${++owners}@example.com`);
  await setOverage(db, owner.tenantId, true);
  const started = await registerAndStart(owner.token, site.url(), {}, { chainA11y: false });
  return { ...started, token: owner.token };
}

const urlRow = async (runId: string, url: string) =>
  (
    await db.select().from(crawlUrls).where(sql`${crawlUrls.run_id} = ${runId} and ${crawlUrls.url} = ${url}`)
  )[0];

describe('the frontier tells a lost lease from a deferral', () => {
  it('a URL whose lease is lost twice is finished as an error and never leased again', async () => {
    const { runId } = await startRun();
    const url = site.url('/lost');
    await enqueueUrls(db, runId, [{ url, kind: 'internal', depth: 1, foundOn: null, isAsset: false }]);
    const now = 1_000_000;

    expect((await leaseUrls(db, runId, 'internal', 10, now + 100)).map((l) => l.url)).toEqual([url]);
    // Not expired yet: nothing is reclaimed.
    expect(await reclaimExpiredLeases(db, runId, now + 99)).toEqual({ pending: 0, unprocessable: 0 });
    expect(await reclaimExpiredLeases(db, runId, now + 100)).toEqual({ pending: 1, unprocessable: 0 });
    expect(await urlRow(runId, url)).toMatchObject({ state: 'pending', lost_leases: 1 });

    // Once lost, the URL is only leased on its own.
    expect(await leaseUrls(db, runId, 'internal', 10, now + 200)).toEqual([]);
    expect(await leaseSuspect(db, runId, now + 200)).toMatchObject({ url, kind: 'internal', token: 2 });
    expect(await reclaimExpiredLeases(db, runId, now + 200)).toEqual({ pending: 0, unprocessable: 1 });
    expect(await urlRow(runId, url)).toMatchObject({
      state: 'done',
      verdict: 'error',
      detail: UNPROCESSABLE_DETAIL,
      lost_leases: 2,
    });
    expect(await leaseSuspect(db, runId, now + 300)).toBeNull();
    expect(await leaseUrls(db, runId, 'internal', 10, now + 300)).toEqual([]);
  });

  it('a deferred lease (Retry-After) that expires is no loss, however often', async () => {
    const { runId } = await startRun();
    const url = site.url('/deferred');
    await enqueueUrls(db, runId, [{ url, kind: 'internal', depth: 1, foundOn: null, isAsset: false }]);
    let now = 2_000_000;
    for (let round = 1; round <= 3; round++) {
      const [lease] = await leaseUrls(db, runId, 'internal', 10, now + 100);
      expect(lease).toMatchObject({ url, token: round });
      await deferLeases(db, runId, [{ url, token: round, until: now + 500 }]);
      expect(await reclaimExpiredLeases(db, runId, now + 500)).toEqual({ pending: 1, unprocessable: 0 });
      now += 1000;
    }
    expect(await urlRow(runId, url)).toMatchObject({ state: 'pending', lost_leases: 0, deferred: 0 });
  });
});

describe('a lease starts where the last one ended', () => {
  it('takes the queue in discovery order after a place, and what was given back behind it from the start', async () => {
    const { runId } = await startRun();
    const urls = [1, 2, 3, 4].map((n) => site.url(`/queued/${n}`));
    await enqueueUrls(
      db,
      runId,
      urls.map((url) => ({ url, kind: 'internal' as const, depth: 1, foundOn: null, isAsset: false })),
    );
    const now = 2_000_000;
    const first = await leaseUrls(db, runId, 'internal', 100, now + 100);
    const mine = first.filter((l) => urls.includes(l.url));
    expect(mine.map((l) => l.url)).toEqual(urls);
    expect(first.map((l) => l.seq)).toEqual([...first.map((l) => l.seq)].sort((a, b) => a - b));
    // Two given back unworked: behind the last place leased, so a lease after it does not see them.
    await releaseLeases(db, runId, [mine[0]!, mine[2]!]);
    const last = first.at(-1)!.seq;
    expect(await leaseUrls(db, runId, 'internal', 100, now + 200, last)).toEqual([]);
    expect((await leaseUrls(db, runId, 'internal', 100, now + 200)).map((l) => l.url)).toEqual([
      urls[0],
      urls[2],
    ]);
    // URLs found later are after it.
    const later = site.url('/queued/5');
    await enqueueUrls(db, runId, [{ url: later, kind: 'internal', depth: 2, foundOn: null, isAsset: false }]);
    expect((await leaseUrls(db, runId, 'internal', 100, now + 300, last)).map((l) => l.url)).toEqual([later]);
  });
});

describe('a page that stops the crawler', () => {
  it('is recorded as an error after its second death, alone, and the crawl completes', async () => {
    const { siteId, runId, token } = await startRun();
    await seedRun(db, runId);
    const deadly = site.url('/deadly');

    /** Works the run until /deadly has been requested `times` in all, then "kills" the worker. */
    const crashOn = async (times: number) => {
      const crash = new AbortController();
      const watcher = setInterval(() => {
        if (site.hits('/deadly') >= times) crash.abort();
      }, 1);
      const outcome = await workRun(db, runId, { signal: crash.signal, requestTimeoutMs: 2000 });
      clearInterval(watcher);
      expect(outcome.status).toBe('aborted');
      // Time passes: the dead worker's leases expire.
      await db.execute(
        sql`update crawl_urls set lease_expires_at = 0 where run_id = ${runId}::uuid and state = 'leased'`,
      );
    };
    const hitsBefore = site.hits('/deadly');
    await crashOn(hitsBefore + 1);
    await crashOn(hitsBefore + 2);

    // A third worker finishes the crawl without touching /deadly again.
    for (let steps = 0; steps < 20; steps++) {
      const outcome = await workRun(db, runId, { requestTimeoutMs: 2000 });
      if (outcome.status === 'exhausted') break;
    }
    expect(site.hits('/deadly')).toBe(hitsBefore + 2);
    await finalizeRun(db, runId);

    expect(await urlRow(runId, deadly)).toMatchObject({
      verdict: 'error',
      detail: UNPROCESSABLE_DETAIL,
      lost_leases: 2,
    });
    // The URLs that died with it the first time were worked again, alone, and are fine.
    for (const path of ['/a', '/b', '/c']) {
      expect(await urlRow(runId, site.url(path))).toMatchObject({ verdict: 'ok', is_page: 1 });
    }
    const [run] = await db.select().from(runs).where(eq(runs.id, runId));
    expect(run).toMatchObject({ state: 'completed', pages_crawled: 4 });
    expect(run?.limits_hit).toEqual([
      { limit: 'unprocessable-urls', detail: expect.stringMatching(/stopped twice/) },
    ]);

    const report = await v1({ token }).GET('/v1/sites/{id}/report', { params: { path: { id: siteId } } });
    expect(report.status).toBe(200);
    expect(report.body.run).toMatchObject({ cut_short: 1, broken_count: 1 });
    expect(report.body.brokenLinks).toEqual([
      expect.objectContaining({
        source_url: site.url(),
        target_url: deadly,
        status: 'error',
        detail: UNPROCESSABLE_DETAIL,
      }),
    ]);
  });
});
