import { AxeBuilder } from '@axe-core/playwright';
import { and, asc, eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { a11yEvents } from '@/jobs/a11y-events';
import { createA11yFunctions } from '@/jobs/functions/a11y';
import { createCrawlFunctions } from '@/jobs/functions/crawl';
import { jobsIdle, startJobRuntime, stopJobRuntime } from '@/jobs/runtime';
import { BrowserHolder, launchChromium } from '@/lib/a11y/engine/browser';
import { storePageScans } from '@/lib/a11y/engine/store';
import { AXE_RUN_ONLY_TAGS } from '@/lib/a11y/report/rules';
import type { A11yEvents } from '@/lib/a11y/runs/events';
import { finalizePass } from '@/lib/a11y/runs/finalize';
import { renderBatch, seedPass } from '@/lib/a11y/runs/pass';
import { resumeInterruptedPasses } from '@/lib/a11y/runs/resume';
import { runA11ySchedulerTick } from '@/lib/a11y/runs/scheduler';
import { NO_CRAWL_MESSAGE, startA11yRun } from '@/lib/a11y/runs/start';
import { billingPeriod } from '@/lib/billing/period';
import { setOverage } from '@/lib/billing/settings';
import { resetConfig } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import {
  a11yFindings,
  a11yPages,
  appPauses,
  notificationOutbox,
  type Run,
  runs,
  type Site,
  sites,
  usageLedger,
} from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import { pagesRenderedInPeriod } from '@/lib/usage/allowance';
import { type RequestBody, v1 } from '../support/api-client';
import { htmlPage, quietLogger } from '../support/crawl';
import { useTestDatabase } from '../support/db';
import { insertSite } from '../support/fixtures';
import { signInOwner } from '../support/http';
import { startServer, type TestServer } from '../support/http-server';

/** The site's "allowance reached" notifications (the outbox also holds each crawl's summary). */
const allowanceNotesOf = (siteId: string) =>
  and(eq(notificationOutbox.site_id, siteId), eq(notificationOutbox.kind, 'allowance-reached'));

/**
 * The render pass as a run, through the job functions on the embedded runner, in real Chromium
 * against a local site: chained after a crawl, standalone on the accessibility clock, interrupted
 * and resumed, and held at the rendered-pages allowance. The findings stored are compared with what
 * axe-core reports when this file runs it itself on the same pages.
 */

const SCANNED = ['/', '/violations', '/clean', '/frame-same', '/inner', '/target-size', '/contrast-review'];
const MIN = 60_000;

let db: Db;
let teardown: () => Promise<void>;
let owner: { token: string; tenantId: string };
let server: TestServer;
let browsers: BrowserHolder;
let reference: Browser;
let siteId: string;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  owner = await signInOwner(db, 'a11y-pass@example.com');
  server = await startServer('127.0.0.1', {
    '/': htmlPage(
      `<main><h1>Home</h1><ul>${[...SCANNED.slice(1), '/private/secret', '/gone', '/data.json']
        .map((p) => `<li><a href="${p}">${p}</a></li>`)
        .join('')}</ul></main>`,
      'Home',
    ),
    '/violations': htmlPage('<main><img src="/a.png"><button></button><input type="text"></main>'),
    '/clean': htmlPage('<main><h1>Fine</h1><p>Readable text.</p></main>'),
    '/inner': htmlPage('<main><img src="/c.png"><button></button></main>'),
    '/frame-same': htmlPage('<main><h1>Outer</h1><iframe title="inner" src="/inner"></iframe></main>'),
    '/target-size': htmlPage(
      '<main><p>Controls:</p><div><button style="width:10px;height:10px;padding:0;margin:0;border:0">a</button><button style="width:10px;height:10px;padding:0;margin:0;border:0">b</button></div></main>',
    ),
    '/contrast-review': htmlPage(
      '<main><p style="color:#777;background-image:url(/bg.png);background-color:#fff">Text over an image</p></main>',
    ),
    '/private/secret': htmlPage('<main><img src="/p.png"></main>'),
    '/gone': { status: 404, headers: { 'content-type': 'text/html' }, body: '<p>gone</p>' },
    '/data.json': { headers: { 'content-type': 'application/json' }, body: '{}' },
  });
  browsers = new BrowserHolder();
  reference = await launchChromium();
  await startJobRuntime({
    functions: [
      ...createCrawlFunctions({ requestTimeoutMs: 2000 }),
      // Small batches and invocations: the pass goes through several steps and a continue event.
      ...createA11yFunctions({ browsers, batchSize: 2, batchesPerInvocation: 2 }),
    ],
    force: true,
    runner: { logger: quietLogger },
  });
  const created = await v1({ token: owner.token }).POST('/v1/sites', {
    body: { rootUrl: server.url('/'), a11yEnabled: true, excludePaths: ['/private/**'] },
  });
  expect(created.status).toBe(201);
  siteId = created.body.site.id;
});

afterAll(async () => {
  await stopJobRuntime();
  delete process.env.ALLOWANCE_PAGES_RENDERED;
  resetConfig();
  await browsers?.close();
  await reference?.close();
  await server?.close();
  await closeDispatchers();
  await teardown();
});

async function loadSite(): Promise<Site> {
  const [site] = await db.select().from(sites).where(eq(sites.id, siteId));
  return site!;
}

async function loadRun(runId: string): Promise<Run> {
  const [run] = await db.select().from(runs).where(eq(runs.id, runId));
  return run!;
}

async function crawl(body?: RequestBody<'/v1/sites/{id}/crawl', 'post'>): Promise<string> {
  const started = await v1({ token: owner.token }).POST('/v1/sites/{id}/crawl', {
    params: { path: { id: siteId } },
    body,
  });
  expect(started.status).toBe(202);
  await jobsIdle();
  return started.body.status.runId;
}

const status = async () =>
  (await v1({ token: owner.token }).GET('/v1/sites/{id}/status', { params: { path: { id: siteId } } })).body;

const ledgerOf = (runId: string) => db.select().from(usageLedger).where(eq(usageLedger.run_id, runId));

async function pagesOf(runId: string) {
  return db
    .select({ url: a11yPages.page_url, status: a11yPages.status })
    .from(a11yPages)
    .where(eq(a11yPages.run_id, runId))
    .orderBy(asc(a11yPages.page_url));
}

/** What axe itself reports on the page, in every frame, with the pass's tags: "rule type count". */
async function axeDirectly(url: string): Promise<string[]> {
  const context = await reference.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    const results = await new AxeBuilder({ page }).withTags([...AXE_RUN_ONLY_TAGS]).analyze();
    return [
      ...results.violations.map((r) => `${r.id} violation ${r.nodes.length}`),
      ...results.incomplete.map((r) => `${r.id} incomplete ${r.nodes.length}`),
    ].sort();
  } finally {
    await context.close();
  }
}

async function storedFindings(runId: string, url: string): Promise<string[]> {
  const rows = await db
    .select()
    .from(a11yFindings)
    .where(and(eq(a11yFindings.run_id, runId), eq(a11yFindings.page_url, url)));
  return rows.map((r) => `${r.rule} ${r.type} ${r.count}`).sort();
}

const expectedPages = () => SCANNED.map((p) => server.url(p)).sort();

/** A11yEvents that only records: the test works the pass by hand, as a worker that then dies would. */
function recordingEvents(): A11yEvents & { requested_: string[] } {
  const requested_: string[] = [];
  return {
    requested_,
    async requested(run) {
      requested_.push(run.runId);
    },
    async resumed() {},
  };
}

let chainedRunId: string;

describe('a chained pass', () => {
  it('renders the crawl’s own 2xx HTML pages after it, with findings equal to axe’s own', async () => {
    const before = await loadSite();
    chainedRunId = await crawl();
    const run = await loadRun(chainedRunId);
    expect(run).toMatchObject({ kind: 'crawl', state: 'completed', chain_a11y: 1, a11y_phase: 'done' });

    // The page set: 2xx HTML pages of the crawl, excludePaths applied (no 404, JSON or /private page).
    const pages = await pagesOf(chainedRunId);
    expect(pages.map((p) => p.url)).toEqual(expectedPages());
    expect(pages.every((p) => p.status === 'scanned')).toBe(true);

    for (const url of expectedPages()) {
      expect(await storedFindings(chainedRunId, url), url).toEqual(await axeDirectly(url));
    }

    const violations = await db
      .select()
      .from(a11yFindings)
      .where(and(eq(a11yFindings.run_id, chainedRunId), eq(a11yFindings.type, 'violation')));
    // The spec keeps a11y_issue_count 0 for crawl runs; the pass's issues are the report's.
    expect(new Set(violations.map((f) => `${f.page_url} ${f.rule}`)).size).toBeGreaterThan(0);
    expect(run.a11y_issue_count).toBe(0);
    expect(run.a11y_pages_scanned).toBe(SCANNED.length);
    expect(run.a11y_score).toEqual(expect.any(Number));
    expect(run.a11y_critical + run.a11y_serious + run.a11y_moderate + run.a11y_minor).toBe(violations.length);
    expect(run.a11y_resolved).toBe(0);

    // One ledger row for the run, carrying both what it crawled and what it rendered.
    const ledger = await ledgerOf(chainedRunId);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({
      run_kind: 'crawl',
      pages_crawled: run.pages_crawled,
      pages_rendered: SCANNED.length,
    });

    // The pass is the site's scan: the standalone clock moved on by its cadence.
    const after = await loadSite();
    expect(after.a11y_next_run_at!).toBeGreaterThan(before.a11y_next_run_at!);
    expect(after.a11y_next_run_at!).toBeGreaterThanOrEqual(
      run.finished_at! + (after.a11y_cadence_minutes ?? after.cadence_minutes) * MIN,
    );

    const body = await status();
    expect(body.a11yLive).toEqual({ state: 'idle', runId: null, pagesRendered: 0, pagesTotal: 0 });
    expect(body.latestA11yRun).toMatchObject({ id: chainedRunId, a11y_pages_scanned: SCANNED.length });
  });

  it('renders nothing for a crawl with chainA11y false', async () => {
    const runId = await crawl({ chainA11y: false });
    expect(await loadRun(runId)).toMatchObject({ state: 'completed', chain_a11y: 0, a11y_phase: null });
    expect(await pagesOf(runId)).toEqual([]);
    expect(await ledgerOf(runId)).toMatchObject([{ pages_rendered: 0 }]);
    // The accessibility run is still the chained one.
    expect((await status()).latestA11yRun).toMatchObject({ id: chainedRunId });
  });
});

describe('a crawl that finishes while an earlier pass still renders', () => {
  it('does not chain a second pass beside it', async () => {
    const [earlier] = await db
      .insert(runs)
      .values({
        site_id: siteId,
        tenant_id: owner.tenantId,
        started_at: Date.now() - MIN,
        state: 'completed',
        kind: 'crawl',
        trigger: 'manual',
        chain_a11y: 1,
        a11y_phase: 'rendering',
      })
      .returning();
    try {
      const runId = await crawl();
      expect(await loadRun(runId)).toMatchObject({ state: 'completed', chain_a11y: 0, a11y_phase: null });
      expect(await pagesOf(runId)).toEqual([]);
    } finally {
      await db.delete(runs).where(eq(runs.id, earlier!.id));
    }
  });
});

describe('a standalone scan on the accessibility clock', () => {
  it('renders the last crawl’s pages when due and moves the clock', async () => {
    const due = Date.now();
    await db
      .update(sites)
      .set({ a11y_next_run_at: due - MIN })
      .where(eq(sites.id, siteId));
    const tick = await runA11ySchedulerTick(db, due, a11yEvents);
    expect(tick.started).toHaveLength(1);
    await jobsIdle();
    const runId = tick.started[0]!;
    const run = await loadRun(runId);
    expect(run).toMatchObject({ kind: 'a11y', state: 'completed', a11y_phase: 'done', trigger: 'schedule' });
    expect((await pagesOf(runId)).map((p) => p.url)).toEqual(expectedPages());
    // The same pages as the chained pass: the same findings, nothing resolved.
    for (const url of expectedPages()) {
      expect(await storedFindings(runId, url)).toEqual(await storedFindings(chainedRunId, url));
    }
    expect(run).toMatchObject({ a11y_resolved: 0, a11y_pages_scanned: SCANNED.length });
    const violations = await db
      .select()
      .from(a11yFindings)
      .where(and(eq(a11yFindings.run_id, runId), eq(a11yFindings.type, 'violation')));
    // A standalone scan counts its distinct (page, rule) violations.
    expect(run.a11y_issue_count).toBe(new Set(violations.map((f) => `${f.page_url} ${f.rule}`)).size);
    expect(run.a11y_issue_count).toBeGreaterThan(0);
    expect(await ledgerOf(runId)).toMatchObject([
      { run_kind: 'a11y', pages_crawled: 0, pages_rendered: SCANNED.length },
    ]);

    const site = await loadSite();
    expect(site.a11y_next_run_at).toBe(due - MIN + (site.a11y_cadence_minutes ?? site.cadence_minutes) * MIN);
    expect((await runA11ySchedulerTick(db, due, a11yEvents)).started).toEqual([]);
    expect((await status()).latestA11yRun).toMatchObject({ id: runId, kind: 'a11y' });
  });

  it('records why when the site has no completed crawl, and moves the clock', async () => {
    const otherId = await insertSite(db, owner.tenantId, 'never-crawled.example');
    const [other] = await db
      .update(sites)
      .set({ a11y_enabled: 1, a11y_next_run_at: Date.now() - MIN })
      .where(eq(sites.id, otherId))
      .returning();
    const now = Date.now();
    const tick = await runA11ySchedulerTick(db, now, a11yEvents);
    expect(tick.noCrawl).toEqual([other!.id]);
    const [run] = await db.select().from(runs).where(eq(runs.site_id, other!.id));
    expect(run).toMatchObject({ kind: 'a11y', state: 'failed', error: NO_CRAWL_MESSAGE });
    const [moved] = await db.select().from(sites).where(eq(sites.id, other!.id));
    expect(moved!.a11y_next_run_at!).toBeGreaterThan(now);
    await db.delete(sites).where(eq(sites.id, other!.id));
  });

  it('does not start a scan while a pass of the site is rendering', async () => {
    const events = recordingEvents();
    const { run } = await startA11yRun(db, await loadSite(), { trigger: 'manual', events });
    // A second start while it runs gets the running one back.
    const again = await startA11yRun(db, await loadSite(), { trigger: 'manual', events });
    expect(again).toMatchObject({ started: false, run: { id: run.id } });
    expect(events.requested_).toEqual([run.id]);
    await db
      .update(sites)
      .set({ a11y_next_run_at: Date.now() - MIN })
      .where(eq(sites.id, siteId));
    const tick = await runA11ySchedulerTick(db, Date.now(), a11yEvents);
    expect(tick).toMatchObject({ started: [], busy: [siteId] });
    // Worked to its end by hand so the site is free again.
    await seedPass(db, run.id);
    while ((await renderBatch(db, run.id, { browsers, batchSize: 4 })).status === 'more');
    expect(await finalizePass(db, run.id)).toMatchObject({ finalizedNow: true });
  });
});

describe('an interrupted pass', () => {
  it('resumes after its worker died mid-pass and ends with one ledger row and no duplicate findings', async () => {
    const events = recordingEvents();
    const { started, run } = await startA11yRun(db, await loadSite(), { trigger: 'manual', events });
    expect(started).toBe(true);
    expect(events.requested_).toEqual([run.id]);
    // The worker seeds and renders one batch, starts the next and dies after storing one of its pages.
    await seedPass(db, run.id);
    expect(await renderBatch(db, run.id, { browsers, batchSize: 2 })).toMatchObject({
      status: 'more',
      rendered: 2,
    });
    const [next] = (await pagesOf(run.id)).filter((p) => p.status === 'pending');
    const { renderPages } = await import('@/lib/a11y/engine/render');
    for await (const scan of renderPages([next!.url], { browsers })) {
      await storePageScans(db, { tenantId: run.tenant_id, runId: run.id }, [scan]);
    }
    const live = (await status()).a11yLive;
    expect(live).toEqual({ state: 'rendering', runId: run.id, pagesRendered: 3, pagesTotal: SCANNED.length });

    // The sweep finds it silent and hands it to the runner, which finishes it.
    expect(await resumeInterruptedPasses(db, a11yEvents, { now: Date.now(), staleAfterMs: 0 })).toEqual([
      run.id,
    ]);
    await jobsIdle();
    expect(await loadRun(run.id)).toMatchObject({ state: 'completed', a11y_phase: 'done' });
    // A duplicated finalize changes nothing.
    expect(await finalizePass(db, run.id)).toMatchObject({ finalizedNow: false });

    const pages = await pagesOf(run.id);
    expect(pages.map((p) => p.url)).toEqual(expectedPages());
    const findings = await db.select().from(a11yFindings).where(eq(a11yFindings.run_id, run.id));
    const chained = await db.select().from(a11yFindings).where(eq(a11yFindings.run_id, chainedRunId));
    const key = (f: typeof a11yFindings.$inferSelect) => `${f.page_url} ${f.rule} ${f.type} ${f.count}`;
    expect(findings.map(key).sort()).toEqual(chained.map(key).sort());
    expect(await ledgerOf(run.id)).toMatchObject([{ pages_rendered: SCANNED.length }]);
  });
});

describe('the rendered-pages allowance', () => {
  it('cuts the scan at the allowance with overage off, pauses scans and notifies once; overage on continues', async () => {
    const period = billingPeriod(Date.now());
    const used = await pagesRenderedInPeriod(db, { tenantId: owner.tenantId, siteId, period });
    process.env.ALLOWANCE_PAGES_RENDERED = String(used + 3);
    resetConfig();

    await db
      .update(sites)
      .set({ a11y_next_run_at: Date.now() - MIN })
      .where(eq(sites.id, siteId));
    const tick = await runA11ySchedulerTick(db, Date.now(), a11yEvents);
    expect(tick.started).toHaveLength(1);
    await jobsIdle();
    const cut = await loadRun(tick.started[0]!);
    expect(cut).toMatchObject({ state: 'completed', a11y_pages_scanned: 3 });
    expect(cut.limits_hit).toEqual([
      { limit: 'allowance', detail: expect.stringContaining(`3 of ${SCANNED.length} pages rendered`) },
    ]);
    expect(await ledgerOf(cut.id)).toMatchObject([{ pages_rendered: 3 }]);
    expect(await db.select().from(appPauses).where(eq(appPauses.site_id, siteId))).toMatchObject([
      { app: 'a11y', billing_period: period },
    ]);
    const notes = await db.select().from(notificationOutbox).where(allowanceNotesOf(siteId));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ kind: 'allowance-reached', payload: { app: 'a11y' } });
    const billing = await v1({ token: owner.token }).GET('/v1/billing');
    expect(billing.body).toMatchObject({ a11yPaused: true, crawlPaused: false });

    // Paused: the scheduler skips the site and leaves its clock, so it scans once un-paused.
    const dueAt = Date.now() - MIN;
    await db.update(sites).set({ a11y_next_run_at: dueAt }).where(eq(sites.id, siteId));
    expect(await runA11ySchedulerTick(db, Date.now(), a11yEvents)).toMatchObject({
      started: [],
      paused: [siteId],
    });
    expect((await loadSite()).a11y_next_run_at).toBe(dueAt);
    expect(await db.select().from(notificationOutbox).where(allowanceNotesOf(siteId))).toHaveLength(1);

    // Overage on: the scan runs in full, metered beyond the allowance.
    await setOverage(db, owner.tenantId, true);
    const resumed = await runA11ySchedulerTick(db, Date.now(), a11yEvents);
    expect(resumed.started).toHaveLength(1);
    await jobsIdle();
    const full = await loadRun(resumed.started[0]!);
    expect(full).toMatchObject({ state: 'completed', a11y_pages_scanned: SCANNED.length, limits_hit: [] });
    expect((await v1({ token: owner.token }).GET('/v1/billing')).body).toMatchObject({
      a11yPaused: false,
    });
    const usage = await v1({ token: owner.token }).GET('/v1/sites/{id}/usage', {
      params: { path: { id: siteId } },
    });
    expect(usage.body.current.pagesRendered).toBe(used + 3 + SCANNED.length);
    expect(await pagesRenderedInPeriod(db, { tenantId: owner.tenantId, siteId, period })).toBe(
      used + 3 + SCANNED.length,
    );
  });
});
