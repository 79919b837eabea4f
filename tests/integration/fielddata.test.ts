import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldDataSyncFunction } from '@/jobs/functions/integrations';
import { jobsIdle, startJobRuntime, stopJobRuntime } from '@/jobs/runtime';
import { resetConfig } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import {
  apiRateSlots,
  fieldData,
  fieldDataSyncs,
  memberSiteGrants,
  notificationOutbox,
  sites,
} from '@/lib/db/schema';
import type { FieldDataSyncRequest } from '@/lib/fielddata/events';
import { CRUX_PACE, takeSlot } from '@/lib/fielddata/pacing';
import { runFieldDataSchedulerTick } from '@/lib/fielddata/scheduler';
import { syncFieldData } from '@/lib/fielddata/sync';
import { closeDispatchers } from '@/lib/net';
import { dailyMinute } from '@/lib/sites/daily-slot';
import { type Query, v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { insertSite } from '../support/fixtures';
import { type CruxPoint, cruxKey, type FakeCrux, startFakeCrux } from '../support/google';
import { addMember, insertApiKey, signInOwner } from '../support/http';
import { startServer, type TestServer } from '../support/http-server';

const API_KEY = 'crux-test-key-AIzaSyExample';
const DAY = 86_400_000;
const quiet = { info() {}, warn() {}, error() {}, debug() {} };
const noWait = { sleep: async () => {} };

let db: Db;
let teardown: () => Promise<void>;
let crux: FakeCrux;
let www: TestServer;
let apex: TestServer;
let owner: { token: string; tenantId: string };
let siteId: string;
let origin: string;

/** A known series: a gap in INP, a week with no data at all, CLS as strings. Latest passes. */
const SERIES: CruxPoint[] = [
  { lastDate: '2026-10-18', lcp: 2000, inp: 150, cls: '0.05', ttfb: 700 },
  { lastDate: '2026-10-25', lcp: 2100, inp: 160, cls: '0.06', ttfb: 720 },
  { lastDate: '2026-11-01', lcp: 2200, inp: null, cls: '0.07', ttfb: 710 },
  { lastDate: '2026-11-08', lcp: null, inp: null, cls: null, ttfb: null },
  { lastDate: '2026-11-15', lcp: 2300, inp: 180, cls: '0.08', ttfb: 690 },
];

const get = (
  id: string,
  query: Query<'/v1/sites/{id}/fielddata', 'get'> = {},
  credentials: { token?: string; apiKey?: string } = { token: owner.token },
) => v1(credentials).GET('/v1/sites/{id}/fielddata', { params: { path: { id }, query } });

const storedWindows = (id: string) => db.select().from(fieldData).where(eq(fieldData.site_id, id));
const alerts = (id: string) =>
  db
    .select()
    .from(notificationOutbox)
    .where(and(eq(notificationOutbox.site_id, id), eq(notificationOutbox.kind, 'perf-regression')));

async function siteAt(rootUrl: string, host: string): Promise<string> {
  const id = await insertSite(db, owner.tenantId, host);
  await db.update(sites).set({ root_url: rootUrl }).where(eq(sites.id, id));
  return id;
}

beforeAll(async () => {
  crux = await startFakeCrux(API_KEY);
  process.env.CRUX_API_KEY = API_KEY;
  process.env.CRUX_API_URL = crux.baseUrl;
  ({ db, teardown } = await useTestDatabase());
  // The root URL redirects to another host: CrUX is asked about where it ends up.
  www = await startServer('127.0.0.3', {
    '/': { body: '<title>home</title>', headers: { 'content-type': 'text/html' } },
  });
  apex = await startServer('127.0.0.2', { '/': { status: 301, headers: { location: www.url('/') } } });
  origin = www.origin;
  owner = await signInOwner(db, 'perf-owner@example.com');
  siteId = await siteAt(apex.url('/'), 'perf.example');
  crux.data.set(cruxKey(origin), SERIES);
  crux.data.set(
    cruxKey(origin, 'PHONE'),
    SERIES.map((p) => ({ ...p, lcp: p.lcp === null ? null : (p.lcp ?? 0) + 400 })),
  );
});

afterAll(async () => {
  await stopJobRuntime();
  await Promise.all([crux.server.close(), www.close(), apex.close()]);
  await closeDispatchers();
  await teardown();
  delete process.env.CRUX_API_KEY;
  delete process.env.CRUX_API_URL;
  resetConfig();
});

describe('the sync', () => {
  it('asks CrUX about the origin after redirects, for all devices, phones and desktops, with every metric', async () => {
    const outcome = await syncFieldData(
      db,
      { tenantId: owner.tenantId, siteId },
      { retry: noWait, now: Date.UTC(2026, 10, 20) },
    );
    expect(outcome).toMatchObject({ status: 'ok', origin, verdict: 'pass', alerted: false, windows: 10 });
    expect(crux.queries.map((q) => [q.origin, q.formFactor])).toEqual([
      [origin, undefined],
      [origin, 'PHONE'],
      [origin, 'DESKTOP'],
    ]);
    for (const q of crux.queries) {
      expect(q.metrics).toEqual([
        'largest_contentful_paint',
        'interaction_to_next_paint',
        'cumulative_layout_shift',
        'experimental_time_to_first_byte',
      ]);
      expect(q.collectionPeriodCount).toBe(40);
      expect(q.key).toBe(API_KEY);
    }
    // The key travels in a header, never in the URL.
    expect(crux.server.requests.every((r) => !r.path.includes(API_KEY))).toBe(true);
    const [site] = await db.select().from(sites).where(eq(sites.id, siteId));
    expect(site).toMatchObject({ fielddata_status: 'ok', fielddata_checked_at: Date.UTC(2026, 10, 20) });
  });

  it('stores gaps as null, never zero, and CLS strings as numbers', async () => {
    const rows = (await storedWindows(siteId)).filter((r) => r.form_factor === 'ALL');
    const byDate = Object.fromEntries(rows.map((r) => [r.period_end, r]));
    expect(byDate['2026-11-08']).toMatchObject({ lcp: null, inp: null, cls: null, ttfb: null });
    expect(byDate['2026-11-01']).toMatchObject({ lcp: 2200, inp: null, cls: 0.07, ttfb: 710 });
    expect(byDate['2026-11-15']?.cls).toBe(0.08);
  });

  it('is idempotent: a re-sync refreshes the same windows and adds none', async () => {
    const before = await storedWindows(siteId);
    await syncFieldData(db, { tenantId: owner.tenantId, siteId }, { retry: noWait });
    const after = await storedWindows(siteId);
    expect(after).toHaveLength(before.length);
    expect(after.map((r) => r.id).sort()).toEqual(before.map((r) => r.id).sort());
  });

  it('waits what a 429 asks (Retry-After) and tries again', async () => {
    const waits: number[] = [];
    crux.throttleNext(1, 3);
    const outcome = await syncFieldData(
      db,
      { tenantId: owner.tenantId, siteId },
      { retry: { sleep: async (ms) => void waits.push(ms) } },
    );
    expect(outcome.status).toBe('ok');
    expect(waits).toEqual([3000]);
  });

  it('fails after its retries, keeping what was stored and recording why', async () => {
    crux.throttleNext(10, 1);
    const before = await storedWindows(siteId);
    await expect(
      syncFieldData(db, { tenantId: owner.tenantId, siteId }, { retry: { ...noWait, attempts: 2 } }),
    ).rejects.toThrow(/CrUX API answered 429: Quota exceeded/);
    crux.throttleNext(0, 0);
    expect(await storedWindows(siteId)).toHaveLength(before.length);
    const [state] = await db.select().from(fieldDataSyncs).where(eq(fieldDataSyncs.site_id, siteId));
    expect(state?.last_error).toMatch(/429/);
    expect(state?.last_error).not.toContain(API_KEY);
  });

  it('marks an origin CrUX does not know (404 NOT_FOUND) as no-data', async () => {
    const unknown = await siteAt(`${www.origin.replace('127.0.0.3', '127.0.0.4')}/`, 'unknown-perf.example');
    const outcome = await syncFieldData(db, { tenantId: owner.tenantId, siteId: unknown }, { retry: noWait });
    expect(outcome).toMatchObject({ status: 'no-data', windows: 0, verdict: null });
    const [site] = await db.select().from(sites).where(eq(sites.id, unknown));
    expect(site?.fielddata_status).toBe('no-data');
    const res = await get(unknown);
    expect(res.status).toBe(404);
    expect(res.body.error).toMatch(/does not have enough data for this site's origin/);
  });

  it('drops the previous origin history when the root URL now ends elsewhere', async () => {
    const moving = await siteAt(www.url('/'), 'moving.example');
    await syncFieldData(db, { tenantId: owner.tenantId, siteId: moving }, { retry: noWait });
    expect((await storedWindows(moving)).length).toBe(10);
    const other = await startServer('127.0.0.5', { '/': { body: 'x' } });
    crux.data.set(cruxKey(other.origin), [
      { lastDate: '2026-11-15', lcp: 1000, inp: 100, cls: '0.01', ttfb: 100 },
    ]);
    await db
      .update(sites)
      .set({ root_url: other.url('/') })
      .where(eq(sites.id, moving));
    await syncFieldData(db, { tenantId: owner.tenantId, siteId: moving }, { retry: noWait });
    const rows = await storedWindows(moving);
    expect(rows.map((r) => [r.form_factor, r.period_end])).toEqual([['ALL', '2026-11-15']]);
    await other.close();
  });
});

describe('GET /v1/sites/{id}/fielddata', () => {
  it('answers the latest window, verdict, 7- and 28-day deltas and the series oldest first', async () => {
    const res = await get(siteId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      formFactor: 'ALL',
      checkedAt: expect.any(Number),
      latest: { periodEnd: '2026-11-15', lcp: 2300, inp: 180, cls: 0.08, ttfb: 690 },
      verdict: 'pass',
      deltas: {
        // The window 7 days back has no data at all: every movement is unknown, not zero.
        d7: { lcp: null, inp: null, cls: null, ttfb: null },
        d28: { lcp: 300, inp: 30, cls: 0.03, ttfb: -10 },
      },
      series: SERIES.map((p) => ({
        periodEnd: p.lastDate,
        lcp: p.lcp,
        inp: p.inp,
        cls: p.cls === null || p.cls === undefined ? null : Number(p.cls),
        ttfb: p.ttfb,
      })),
    });
  });

  it('answers phones with their own series, and a 404 saying so for desktops CrUX has no data for', async () => {
    const phones = await get(siteId, { formFactor: 'PHONE' });
    expect(phones.status).toBe(200);
    expect(phones.body.formFactor).toBe('PHONE');
    expect(phones.body.latest.lcp).toBe(2700);
    expect(phones.body.verdict).toBe('fail');
    const desktops = await get(siteId, { formFactor: 'DESKTOP' });
    expect(desktops.status).toBe(404);
    expect(desktops.body.error).toMatch(/no field data for desktops/);
    // A query the document refuses, sent as it is: the route's own validation is what this checks.
    const bad = await v1({ token: owner.token }).raw({
      path: `/v1/sites/${siteId}/fielddata?formFactor=TABLET`,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatch(/^formFactor: must be one of ALL, PHONE, DESKTOP/);
  });

  it('is readable with an API key and by a member granted the site', async () => {
    const key = await insertApiKey(db, owner.tenantId);
    expect((await get(siteId, {}, { apiKey: key })).status).toBe(200);
  });

  it('404s with its own message when the app is off and before the first sync', async () => {
    const fresh = await siteAt(www.url('/'), 'fresh-perf.example');
    const never = await get(fresh);
    expect(never).toMatchObject({
      status: 404,
      body: { error: expect.stringMatching(/has not checked this origin yet/) },
    });
    await db.update(sites).set({ performance_enabled: 0 }).where(eq(sites.id, fresh));
    const off = await get(fresh);
    expect(off).toMatchObject({
      status: 404,
      body: { error: 'the Performance app is not enabled for this site' },
    });
  });
});

describe('the regression alert', () => {
  const point = (lastDate: string, lcp: number, inp = 150, cls = '0.05'): CruxPoint => ({
    lastDate,
    lcp,
    inp,
    cls,
    ttfb: 600,
  });

  it('fires once when the verdict flips from pass to fail, never while it stays failing, and again after a recovery', async () => {
    const id = await siteAt(`${www.origin.replace('127.0.0.3', '127.0.0.6')}/`, 'regress.example');
    const flipOrigin = `${www.origin.replace('127.0.0.3', '127.0.0.6')}`;
    const sync = async (points: CruxPoint[]) => {
      crux.data.set(cruxKey(flipOrigin), points);
      return syncFieldData(db, { tenantId: owner.tenantId, siteId: id }, { retry: noWait });
    };
    const weeks = ['2026-10-04', '2026-10-11', '2026-10-18', '2026-10-25', '2026-11-01'];
    const history: CruxPoint[] = [point(weeks[0]!, 2000)];

    expect(await sync(history)).toMatchObject({ verdict: 'pass', alerted: false });
    // LCP and INP over their bounds: the flip.
    history.push(point(weeks[1]!, 2900, 250));
    expect(await sync(history)).toMatchObject({ verdict: 'fail', alerted: true });
    const [alert] = await alerts(id);
    expect(alert?.payload).toMatchObject({
      hostname: 'regress.example',
      formFactor: 'ALL',
      verdict: { before: 'pass', after: 'fail' },
      periodEnd: weeks[1],
      previousPeriodEnd: weeks[0],
      failing: [
        { metric: 'lcp', threshold: 2500, before: 2000, after: 2900 },
        { metric: 'inp', threshold: 200, before: 150, after: 250 },
      ],
    });
    // Still failing, a sync again (retried or daily): nothing more.
    expect(await sync(history)).toMatchObject({ alerted: false });
    history.push(point(weeks[2]!, 3100));
    expect(await sync(history)).toMatchObject({ verdict: 'fail', alerted: false });
    expect(await alerts(id)).toHaveLength(1);
    // Recovers, then fails anew: a second alert.
    history.push(point(weeks[3]!, 2100));
    expect(await sync(history)).toMatchObject({ verdict: 'pass', alerted: false });
    history.push(point(weeks[4]!, 2400, 150, '0.3'));
    expect(await sync(history)).toMatchObject({ verdict: 'fail', alerted: true });
    const all = await alerts(id);
    expect(all).toHaveLength(2);
    expect(
      all.map((a) => (a.payload as { failing: { metric: string }[] }).failing.map((f) => f.metric)),
    ).toEqual([['lcp', 'inp'], ['cls']]);
  });

  it('does not alert on a first sync that fails (no pass to flip from), and survives a gap between pass and fail', async () => {
    const host = '127.0.0.7';
    const id = await siteAt(`${www.origin.replace('127.0.0.3', host)}/`, 'gap.example');
    const gapOrigin = www.origin.replace('127.0.0.3', host);
    const sync = async (points: CruxPoint[]) => {
      crux.data.set(cruxKey(gapOrigin), points);
      return syncFieldData(db, { tenantId: owner.tenantId, siteId: id }, { retry: noWait });
    };
    expect(await sync([point('2026-10-04', 3000)])).toMatchObject({ verdict: 'fail', alerted: false });
    expect(await sync([point('2026-10-04', 3000), point('2026-10-11', 2000)])).toMatchObject({
      verdict: 'pass',
    });
    const gap: CruxPoint = { lastDate: '2026-10-18', lcp: null, inp: null, cls: null, ttfb: null };
    expect(await sync([point('2026-10-11', 2000), gap])).toMatchObject({ verdict: null, alerted: false });
    expect(await sync([point('2026-10-11', 2000), gap, point('2026-10-25', 2600)])).toMatchObject({
      verdict: 'fail',
      alerted: true,
    });
  });
});

describe('pacing under the shared quota', () => {
  it('gives each slot its budget and sends the rest to wait for the next slot', async () => {
    const pace = { api: 'test-pace', perSlot: 2, slotMs: 10_000 };
    let now = 1_000_000_000_000;
    const waits: number[] = [];
    const clock = {
      now: () => now,
      sleep: async (ms: number) => {
        waits.push(ms);
        now += ms;
      },
    };
    await takeSlot(db, pace, clock);
    await takeSlot(db, pace, clock);
    expect(waits).toEqual([]);
    await takeSlot(db, pace, clock);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(10_000);
    const slots = await db.select().from(apiRateSlots).where(eq(apiRateSlots.api, 'test-pace'));
    expect(slots.map((s) => s.used).sort()).toEqual([1, 2]);
  });

  it('keeps the CrUX budget under 150 queries in any minute', () => {
    // A 60 s window overlaps at most 7 slots of 10 s.
    expect(CRUX_PACE.perSlot * Math.ceil(60_000 / CRUX_PACE.slotMs + 1)).toBeLessThan(150);
  });
});

describe('the scheduler', () => {
  it('hands due sites with the app on to the sync once, then each at its own minute of the day', async () => {
    const requested: FieldDataSyncRequest[] = [];
    const events = { syncRequested: async (r: FieldDataSyncRequest[]) => void requested.push(...r) };
    const other = await signInOwner(db, 'perf-scheduler@example.com');
    const on = await Promise.all(
      ['a', 'b', 'c'].map((n) => insertSite(db, other.tenantId, `sched-${n}.example`)),
    );
    const off = await insertSite(db, other.tenantId, 'sched-off.example');
    await db.update(sites).set({ performance_enabled: 0 }).where(eq(sites.id, off));
    const now = Date.UTC(2026, 10, 24, 12, 0);
    await runFieldDataSchedulerTick(db, now, events);
    const claimed = requested.map((r) => r.siteId);
    for (const id of on) expect(claimed).toContain(id);
    expect(claimed).not.toContain(off);
    // The same minute again (a second scheduler, a retried step): nothing twice.
    requested.length = 0;
    await runFieldDataSchedulerTick(db, now, events);
    expect(requested).toEqual([]);
    const states = await db.select().from(fieldDataSyncs);
    const next = states.filter((s) => on.includes(s.site_id));
    for (const s of next) {
      expect(s.next_sync_at).toBeGreaterThan(now);
      expect(s.next_sync_at).toBeLessThanOrEqual(now + DAY);
      expect(new Date(s.next_sync_at).getUTCMinutes() + new Date(s.next_sync_at).getUTCHours() * 60).toBe(
        dailyMinute(s.site_id, 'fielddata'),
      );
    }
    // Due again a day later, at its minute.
    requested.length = 0;
    await runFieldDataSchedulerTick(db, now + DAY, events);
    expect(
      requested
        .map((r) => r.siteId)
        .filter((id) => on.includes(id))
        .sort(),
    ).toEqual([...on].sort());
  });

  it('spreads sites over the day rather than one minute', () => {
    const minutes = new Set(Array.from({ length: 200 }, (_, i) => dailyMinute(`site-${i}`, 'fielddata')));
    expect(minutes.size).toBeGreaterThan(150);
  });
});

describe('POST /v1/sites/{id}/fielddata/sync', () => {
  it('queues a sync (202) that the job runs', async () => {
    await startJobRuntime({
      functions: [fieldDataSyncFunction],
      force: true,
      runner: { logger: quiet, retryDelay: () => 50 },
    });
    const id = await siteAt(www.url('/'), 'manual-perf.example');
    const res = await v1({ token: owner.token }).POST('/v1/sites/{id}/fielddata/sync', {
      params: { path: { id } },
    });
    expect(res).toMatchObject({ status: 202, body: { queued: true } });
    await jobsIdle();
    const [site] = await db.select().from(sites).where(eq(sites.id, id));
    expect(site?.fielddata_status).toBe('ok');
    expect((await get(id)).status).toBe(200);
    await stopJobRuntime();
  });

  it('is for owners, admins and keys: a member granted the site gets 403', async () => {
    const member = await addMember(db, {
      ownerToken: owner.token,
      tenantId: owner.tenantId,
      email: 'perf-member@example.com',
      role: 'member',
    });
    await db.insert(memberSiteGrants).values({
      tenant_id: owner.tenantId,
      member_id: member.memberId,
      site_id: siteId,
      created_at: Date.now(),
    });
    const res = await v1({ token: member.token }).POST('/v1/sites/{id}/fielddata/sync', {
      params: { path: { id: siteId } },
    });
    expect(res.status).toBe(403);
    expect((await get(siteId, {}, { token: member.token })).status).toBe(200);
  });

  it("without a CrUX key a new site keeps the spec's default (on), and the API says the app is inactive and how to enable it (issue 24 item 11)", async () => {
    // An organization of its own: the shared one's sites are past its included count.
    const own = await signInOwner(db, 'nokey-owner@example.com');
    process.env.CRUX_API_KEY = '';
    resetConfig();
    try {
      const created = await v1({ token: own.token }).POST('/v1/sites', {
        body: { rootUrl: 'https://nokey-new.example/' },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      // The spec fixes the default (Apps: Performance on at creation); the API keeps it.
      expect(created.body.site.performance_enabled).toBe(1);
      const id = created.body.site.id as string;
      const enable =
        /inactive until whoever runs the server sets CRUX_API_KEY to a Google Cloud API key with the Chrome UX Report API enabled/;
      const report = await get(id, {}, { token: own.token });
      expect(report.status).toBe(404);
      expect(report.body.error).toMatch(enable);
      const sync = await v1({ token: own.token }).POST('/v1/sites/{id}/fielddata/sync', {
        params: { path: { id } },
      });
      expect(sync.status).toBe(409);
      expect(sync.body.error).toMatch(enable);
      // Nothing syncs on its own either: the daily schedule has nothing due, the sync skips and says why.
      expect(await syncFieldData(db, { siteId: id, tenantId: own.tenantId })).toEqual({
        status: 'skipped',
        reason: 'CRUX_API_KEY is not set',
      });
      expect(await storedWindows(id)).toEqual([]);
    } finally {
      process.env.CRUX_API_KEY = API_KEY;
      resetConfig();
    }
  });

  it('404s with the app off and 409s on a server without a CrUX key', async () => {
    const id = await siteAt(www.url('/'), 'nokey-perf.example');
    process.env.CRUX_API_KEY = '';
    resetConfig();
    try {
      const res = await v1({ token: owner.token }).POST('/v1/sites/{id}/fielddata/sync', {
        params: { path: { id } },
      });
      expect(res).toMatchObject({ status: 409, body: { error: expect.stringMatching(/CRUX_API_KEY/) } });
      expect((await get(id)).body.error).toMatch(/not configured on this server/);
    } finally {
      process.env.CRUX_API_KEY = API_KEY;
      resetConfig();
    }
    await db.update(sites).set({ performance_enabled: 0 }).where(eq(sites.id, id));
    const off = await v1({ token: owner.token }).POST('/v1/sites/{id}/fielddata/sync', {
      params: { path: { id } },
    });
    expect(off).toMatchObject({
      status: 404,
      body: { error: 'the Performance app is not enabled for this site' },
    });
  });
});
