import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCrawlFunctions } from '@/jobs/functions/crawl';
import { jobsIdle, startJobRuntime, stopJobRuntime } from '@/jobs/runtime';
import { setOverage } from '@/lib/billing/settings';
import { workRun } from '@/lib/crawl/engine/step';
import { finalizeRun } from '@/lib/crawl/runs/finalize';
import { seedRun } from '@/lib/crawl/runs/seed';
import type { Db } from '@/lib/db/client';
import { brokenLinks, crawlUrls, runs, usageLedger } from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import { type RequestBody, v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { addMember, signInOwner } from '../support/http';
import { closedPort } from '../support/http-server';
import { type SyntheticSite, startSyntheticSite } from '../support/test-site';

const quiet = { info() {}, warn() {}, error() {}, debug() {} };

let db: Db;
let teardown: () => Promise<void>;
let token: string;
let tenantId: string;
let synthetic: SyntheticSite;

async function createSite(body: RequestBody<'/v1/sites', 'post'>): Promise<string> {
  const created = await v1({ token }).POST('/v1/sites', { body });
  expect(created.status).toBe(201);
  return created.body.site.id;
}

const trigger = (
  siteId: string,
  options: { token?: string; body?: RequestBody<'/v1/sites/{id}/crawl', 'post'> } = {},
) =>
  v1({ token: options.token ?? token }).POST('/v1/sites/{id}/crawl', {
    params: { path: { id: siteId } },
    body: options.body,
  });

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  ({ token, tenantId } = await signInOwner(db, 'lifecycle@example.com'));
  // More sites than the included count: overage on.
  await setOverage(db, tenantId, true);
  synthetic = await startSyntheticSite({ pages: 120, extraLinks: 4, brokenEvery: 10 });
});

afterAll(async () => {
  await stopJobRuntime();
  await synthetic.close();
  await closeDispatchers();
  await teardown();
});

describe('triggering crawls', () => {
  let unreachableSite: string;

  it('starts exactly one crawl when two triggers arrive at once', async () => {
    unreachableSite = await createSite({ rootUrl: `http://127.0.0.3:${await closedPort('127.0.0.3')}/` });
    const [a, b] = await Promise.all([trigger(unreachableSite), trigger(unreachableSite)]);
    expect([a.status, b.status].sort()).toEqual([200, 202]);
    const loser = a.status === 200 ? a : b;
    const winner = a.status === 202 ? a : b;
    expect(winner.body.started).toBe(true);
    expect(loser.body).toMatchObject({
      started: false,
      status: { state: 'seeding', runId: winner.body.status.runId },
    });
    const rows = await db.select().from(runs).where(eq(runs.site_id, unreachableSite));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: 'running', kind: 'crawl', trigger: 'manual' });
  });

  it('does not move the cadence clock for a manual crawl', async () => {
    const site = await db.execute(sql`select next_run_at from sites where id = ${unreachableSite}::uuid`);
    const before = (site as unknown as { rows: { next_run_at: string | number }[] }).rows[0]?.next_run_at;
    const again = await trigger(unreachableSite);
    expect(again.status).toBe(200);
    const after = (
      (await db.execute(
        sql`select next_run_at from sites where id = ${unreachableSite}::uuid`,
      )) as unknown as {
        rows: { next_run_at: string | number }[];
      }
    ).rows[0]?.next_run_at;
    expect(Number(after)).toBe(Number(before));
  });

  it('refuses a site with neither Broken Links nor Accessibility on (409)', async () => {
    const id = await createSite({
      rootUrl: 'http://127.0.0.1:1/',
      scannerEnabled: false,
      a11yEnabled: false,
    });
    const res = await trigger(id);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/neither Broken Links nor Accessibility/);
  });

  it('records chainA11y: on by default with the Accessibility app, off when asked or without the app', async () => {
    const withA11y = await createSite({ rootUrl: 'http://127.0.0.1:2/', a11yEnabled: true });
    expect((await trigger(withA11y)).status).toBe(202);
    const linksOnly = await createSite({ rootUrl: 'http://127.0.0.1:3/', a11yEnabled: true });
    expect((await trigger(linksOnly, { body: { chainA11y: false } })).status).toBe(202);
    const noApp = await createSite({ rootUrl: 'http://127.0.0.1:4/' });
    expect((await trigger(noApp, { body: { chainA11y: true } })).status).toBe(202);
    const chain = async (siteId: string) =>
      (await db.select({ chain: runs.chain_a11y }).from(runs).where(eq(runs.site_id, siteId)))[0]?.chain;
    expect(await chain(withA11y)).toBe(1);
    expect(await chain(linksOnly)).toBe(0);
    expect(await chain(noApp)).toBe(0);
    // A body the document refuses, sent as it is: the route's own validation is what this checks.
    expect(
      (
        await v1({ token }).raw({
          method: 'POST',
          path: `/v1/sites/${noApp}/crawl`,
          body: { chainA11y: 'yes' },
        })
      ).status,
    ).toBe(422);
  });

  it('hides sites a member was not granted (404 before any permission check)', async () => {
    // Granted members without canCrawl get 403 and with it 202: tests/integration/matrix-credentials.test.ts.
    const member = await addMember(db, {
      ownerToken: token,
      tenantId,
      email: 'viewer@example.com',
      role: 'member',
    });
    const id = await createSite({ rootUrl: 'http://127.0.0.1:5/' });
    const hidden = await trigger(id, { token: member.token });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toBe('site not found');
    const unknown = await trigger('00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('site not found');
  });

  it('reports 404 before any run and when the Broken Links app is off', async () => {
    const id = await createSite({ rootUrl: 'http://127.0.0.1:6/' });
    const none = await v1({ token }).GET('/v1/sites/{id}/report', { params: { path: { id } } });
    expect(none.status).toBe(404);
    await v1({ token }).PATCH('/v1/sites/{id}', {
      params: { path: { id } },
      body: { scannerEnabled: false, a11yEnabled: true },
    });
    const off = await v1({ token }).GET('/v1/sites/{id}/report', { params: { path: { id } } });
    expect(off.status).toBe(404);
    expect(off.body.error).toMatch(/Broken Links app is not enabled/);
  });

  it('sends nothing more while maxHeldResults wait for a write, and writes them at once', async () => {
    // A site answering in 20 ms lets the window open to 8 requests; a bound of 3 results held or in
    // flight holds it at 3. Writes are otherwise due only at 250 results or every minute: a held step that
    // waited for either would take minutes for this site.
    const slow = await startSyntheticSite({ pages: 40, extraLinks: 2, brokenEvery: 10, delayMs: 20 });
    try {
      const siteId = await createSite({ rootUrl: slow.rootUrl, maxConcurrency: 8 });
      const started = await trigger(siteId, { body: { chainA11y: false } });
      const runId: string = started.body.status.runId;
      await seedRun(db, runId);
      const begun = Date.now();
      const tuning = { maxHeldResults: 3, flushSize: 250, flushIntervalMs: 60_000 };
      while ((await workRun(db, runId, tuning)).status !== 'exhausted');
      expect(Date.now() - begun).toBeLessThan(30_000);
      expect(slow.peakInFlight()).toBe(3);
      const finalized = await finalizeRun(db, runId);
      expect(finalized?.run).toMatchObject({
        state: 'completed',
        pages_crawled: slow.expected.pages,
        broken_count: slow.expected.broken.length,
      });
    } finally {
      await slow.close();
    }
  });

  it('a crash mid-crawl loses nothing: the resumed run gives the same report and one ledger row', async () => {
    const siteId = await createSite({ rootUrl: synthetic.rootUrl, maxConcurrency: 4 });
    const started = await trigger(siteId, { body: { chainA11y: false } });
    expect(started.status).toBe(202);
    const runId: string = started.body.status.runId;

    // Work the crawl in this process and "kill" it after 40 page requests: in-flight work is
    // dropped unwritten and its leases stay behind, as when a process dies.
    await seedRun(db, runId);
    const crash = new AbortController();
    const requestsBefore = synthetic.server.requests.length;
    const watcher = setInterval(() => {
      if (synthetic.server.requests.length - requestsBefore >= 40) crash.abort();
    }, 1);
    const outcome = await workRun(db, runId, { signal: crash.signal });
    clearInterval(watcher);
    expect(outcome.status).toBe('aborted');
    const [midway] = await db.select().from(runs).where(eq(runs.id, runId));
    expect(midway?.state).toBe('running');
    const leased = await db
      .select()
      .from(crawlUrls)
      .where(sql`${crawlUrls.run_id} = ${runId} and state = 'leased'`);
    expect(leased.length).toBeGreaterThan(0);
    // Time passes: the dead worker's leases expire.
    await db.execute(
      sql`update crawl_urls set lease_expires_at = 0 where run_id = ${runId}::uuid and state = 'leased'`,
    );

    // A new process boots: its runner resumes every interrupted crawl.
    await startJobRuntime({
      functions: createCrawlFunctions({ requestTimeoutMs: 1000 }),
      force: true,
      runner: { logger: quiet, retryDelay: () => 50 },
    });
    await jobsIdle();

    const report = await v1({ token }).GET('/v1/sites/{id}/report', { params: { path: { id: siteId } } });
    expect(report.status).toBe(200);
    expect(report.body.run).toMatchObject({
      id: runId,
      state: 'completed',
      pages_crawled: synthetic.expected.pages,
      broken_count: synthetic.expected.broken.length,
      pages_with_broken_count: synthetic.expected.broken.length,
      internal_broken: synthetic.expected.broken.length,
      external_broken: 0,
    });
    const rows = (report.body.brokenLinks as { target_url: string; source_url: string }[]).map((r) => ({
      target: r.target_url,
      source: r.source_url,
    }));
    const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    expect(rows).toEqual([...synthetic.expected.broken].sort((a, b) => byText(a.target, b.target)));
    expect(await db.select().from(usageLedger).where(eq(usageLedger.run_id, runId))).toHaveLength(1);

    // Finalizing again (a retried step) changes nothing.
    expect((await finalizeRun(db, runId))?.finalizedNow).toBe(false);
    expect(await db.select().from(brokenLinks).where(eq(brokenLinks.run_id, runId))).toHaveLength(
      rows.length,
    );
    expect(await db.select().from(usageLedger).where(eq(usageLedger.run_id, runId))).toHaveLength(1);
  });

  it('the same boot also resumed the crawl of the unreachable site, which failed with a plain error', async () => {
    const [run] = await db.select().from(runs).where(eq(runs.site_id, unreachableSite));
    expect(run?.state).toBe('failed');
    expect(run?.error).toMatch(
      /^the root URL http:\/\/127\.0\.0\.3:\d+\/ could not be fetched: connection refused by 127\.0\.0\.3$/,
    );
    expect(run?.finished_at).toEqual(expect.any(Number));
    expect(
      await db
        .select()
        .from(usageLedger)
        .where(eq(usageLedger.run_id, run?.id as string)),
    ).toHaveLength(1);
  });
});
