import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlEvents } from '@/jobs/crawl-events';
import { createCrawlFunctions } from '@/jobs/functions/crawl';
import { jobsIdle, startJobRuntime, stopJobRuntime } from '@/jobs/runtime';
import { billingPeriod } from '@/lib/billing/period';
import { setOverage } from '@/lib/billing/settings';
import { resetConfig } from '@/lib/config';
import { runSchedulerTick } from '@/lib/crawl/runs/scheduler';
import type { Db } from '@/lib/db/client';
import { appPauses, crawlUrls, notificationOutbox, runs, sites, usageLedger } from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import { v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { addMember, signInOwner } from '../support/http';
import { type SyntheticSite, startSyntheticSite } from '../support/test-site';

/** The site's "allowance reached" notifications (the outbox also holds each crawl's summary). */
const allowanceNotesOf = (siteId: string) =>
  and(eq(notificationOutbox.site_id, siteId), eq(notificationOutbox.kind, 'allowance-reached'));

const quiet = { info() {}, warn() {}, error() {}, debug() {} };
const ALLOWANCE = 5;

let db: Db;
let teardown: () => Promise<void>;
let token: string;
let tenantId: string;
let synthetic: SyntheticSite;
let siteId: string;
let firstRunId: string;
const previousAllowance = process.env.ALLOWANCE_PAGES_CRAWLED;

beforeAll(async () => {
  process.env.ALLOWANCE_PAGES_CRAWLED = String(ALLOWANCE);
  ({ db, teardown } = await useTestDatabase()); // resets the parsed configuration
  ({ token, tenantId } = await signInOwner(db, 'usage@example.com'));
  synthetic = await startSyntheticSite({ pages: 20, extraLinks: 2, brokenEvery: 0 });
  const created = await v1({ token }).POST('/v1/sites', {
    body: { rootUrl: synthetic.rootUrl, maxConcurrency: 2 },
  });
  expect(created.status).toBe(201);
  siteId = created.body.site.id;
  await startJobRuntime({
    functions: createCrawlFunctions({ requestTimeoutMs: 2000 }),
    force: true,
    runner: { logger: quiet, retryDelay: () => 50 },
  });
});

afterAll(async () => {
  await stopJobRuntime();
  await synthetic.close();
  await closeDispatchers();
  await teardown();
  if (previousAllowance === undefined) delete process.env.ALLOWANCE_PAGES_CRAWLED;
  else process.env.ALLOWANCE_PAGES_CRAWLED = previousAllowance;
  resetConfig();
});

describe('the monthly pages-crawled allowance with overage off', () => {
  it('stops the crawl at the allowance, pauses crawling for the month and queues one notification', async () => {
    const started = await v1({ token }).POST('/v1/sites/{id}/crawl', { params: { path: { id: siteId } } });
    expect(started.status).toBe(202);
    firstRunId = started.body.status.runId;
    await jobsIdle();

    const [run] = await db.select().from(runs).where(eq(runs.id, firstRunId));
    expect(run).toMatchObject({ state: 'completed', pages_crawled: ALLOWANCE, error: null });
    // The run says it was cut short, and why (issue 10 item 9).
    expect(run?.limits_hit).toEqual([
      { limit: 'allowance', detail: expect.stringMatching(/after 5 pages.*monthly crawl allowance/) },
    ]);
    // Pages beyond the allowance linked from the pages crawled were checked, not crawled: each
    // requested once, none parsed or counted.
    const checkedOnly = await db
      .select()
      .from(crawlUrls)
      .where(and(eq(crawlUrls.run_id, firstRunId), eq(crawlUrls.is_page, 0), eq(crawlUrls.verdict, 'ok')));
    expect(checkedOnly.length).toBeGreaterThan(0);
    for (const url of checkedOnly) {
      expect(url.links).toBeNull();
      expect(url.detail).toMatch(/checked but not crawled: the monthly crawl allowance/);
    }
    const pageRequests = synthetic.server.requests.filter((r) => r.path.startsWith('/p/') || r.path === '/');
    expect(pageRequests.length).toBe(ALLOWANCE + checkedOnly.length);
    expect(new Set(pageRequests.map((r) => r.path)).size).toBe(pageRequests.length);

    const period = billingPeriod(run?.started_at as number);
    const pauses = await db.select().from(appPauses).where(eq(appPauses.site_id, siteId));
    expect(pauses).toEqual([
      expect.objectContaining({ tenant_id: tenantId, app: 'crawl', billing_period: period }),
    ]);
    const outbox = await db.select().from(notificationOutbox).where(allowanceNotesOf(siteId));
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ kind: 'allowance-reached', state: 'pending', tenant_id: tenantId });
    expect(outbox[0]?.payload).toMatchObject({ app: 'crawl', period, allowance: ALLOWANCE, used: ALLOWANCE });

    const billing = await v1({ token }).GET('/v1/billing');
    expect(billing.body.crawlPaused).toBe(true);
  });

  it('the scheduler skips the paused site and keeps it due', async () => {
    const now = Date.now();
    await db
      .update(sites)
      .set({ next_run_at: now - 1000 })
      .where(eq(sites.id, siteId));
    const tick = await runSchedulerTick(db, now, crawlEvents);
    expect(tick.paused).toContain(siteId);
    expect(tick.started).toEqual([]);
    expect(await db.select().from(runs).where(eq(runs.site_id, siteId))).toHaveLength(1);
    const [site] = await db.select().from(sites).where(eq(sites.id, siteId));
    expect(site?.next_run_at).toBe(now - 1000);
  });

  it('shows the month in the site usage, the running crawl included', async () => {
    const usage = await v1({ token }).GET('/v1/sites/{id}/usage', { params: { path: { id: siteId } } });
    expect(usage.status).toBe(200);
    const [ledger] = await db.select().from(usageLedger).where(eq(usageLedger.run_id, firstRunId));
    const period = billingPeriod(Date.now());
    expect(usage.body).toEqual({
      byMonth: [
        { billing_period: period, runs: 1, pages_crawled: ALLOWANCE, links_checked: ledger?.links_checked },
      ],
      current: {
        period,
        pagesCrawled: ALLOWANCE,
        pagesRendered: 0,
        monitors: 0,
        allowances: { pagesCrawled: ALLOWANCE, pagesRendered: 1000, monitors: 2 },
      },
    });
  });

  it('overage on un-pauses from the next tick', async () => {
    await setOverage(db, tenantId, true);
    const tick = await runSchedulerTick(db, Date.now(), crawlEvents);
    expect(tick.paused).not.toContain(siteId);
    expect(tick.started).toHaveLength(1);
    await jobsIdle();
    const [second] = await db
      .select()
      .from(runs)
      .where(eq(runs.id, tick.started[0] as string));
    // No cap beyond maxPages with overage on: the whole site (20 pages and the root).
    expect(second).toMatchObject({ state: 'completed', pages_crawled: synthetic.expected.pages });
    expect(await db.select().from(notificationOutbox).where(allowanceNotesOf(siteId))).toHaveLength(1);
  });

  it('overage off again re-arms pause-and-notify', async () => {
    await setOverage(db, tenantId, false);
    const now = Date.now();
    await db
      .update(sites)
      .set({ next_run_at: now - 1000 })
      .where(eq(sites.id, siteId));
    const tick = await runSchedulerTick(db, now, crawlEvents);
    expect(tick.paused).toContain(siteId);
    expect(await db.select().from(appPauses).where(eq(appPauses.site_id, siteId))).toHaveLength(1);
    expect(await db.select().from(notificationOutbox).where(allowanceNotesOf(siteId))).toHaveLength(2);
  });
});

describe('organization usage', () => {
  it('lists every site of the period by hostname, deleted ones included, for owners and admins only', async () => {
    const period = billingPeriod(Date.now());
    const deleted = await v1({ token }).DELETE('/v1/sites/{id}', { params: { path: { id: siteId } } });
    expect(deleted.status).toBe(200);
    const usage = await v1({ token }).GET('/v1/usage');
    expect(usage.status).toBe(200);
    const ledger = await db.select().from(usageLedger).where(eq(usageLedger.site_id, siteId));
    const links = ledger.reduce((n, l) => n + l.links_checked, 0);
    expect(usage.body).toEqual({
      period,
      periods: [period],
      totals: {
        runs: 2,
        pages_crawled: ALLOWANCE + synthetic.expected.pages,
        pages_rendered: 0,
        links_checked: links,
      },
      allowances: { pagesCrawled: ALLOWANCE, pagesRendered: 1000, monitors: 2 },
      sites: [
        {
          site_id: siteId,
          hostname: '127.0.0.1',
          deleted: true,
          runs: 2,
          pages_crawled: ALLOWANCE + synthetic.expected.pages,
          pages_rendered: 0,
          links_checked: links,
          over_allowance: { pages_crawled: synthetic.expected.pages, pages_rendered: 0 },
          in_progress: { pages_crawled: 0, pages_rendered: 0 },
          monitors: 0,
        },
      ],
    });

    const past = await v1({ token }).GET('/v1/usage', { params: { query: { period: '2020-01' } } });
    expect(past.body).toMatchObject({ period: '2020-01', totals: { runs: 0 }, sites: [] });
    const bad = await v1({ token }).GET('/v1/usage', { params: { query: { period: '2020-13' } } });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatch(/^period: /);

    const member = await addMember(db, {
      ownerToken: token,
      tenantId,
      email: 'member@example.com',
      role: 'member',
    });
    expect((await v1({ token: member.token }).GET('/v1/usage')).status).toBe(403);
  });
});
