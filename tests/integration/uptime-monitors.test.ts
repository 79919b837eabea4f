import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/client';
import { notificationOutbox, uptimeIncidents, uptimeMonitors } from '@/lib/db/schema';
import { notifyMonitorsHeld } from '@/lib/uptime/held-notice';
import { claimDueRounds, releaseRounds } from '@/lib/uptime/rounds';
import { type RequestBody, v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { signInOwner } from '../support/http';

/*
 * The monitors API (spec: Uptime monitors; the Monitor rows of the state table; Limits): field
 * rules, the Uptime app's 409, the pooled allowance with overage, pause and resume, the app off and
 * on, and what the scheduler then claims. The rounds themselves are in uptime-rounds.test.ts.
 */

let db: Db;
let teardown: () => Promise<void>;
let token: string;
let siteId: string;

const monitorsPath = (site: string) => `/v1/sites/${site}/uptime/monitors`;
const create = (body: RequestBody<'/v1/sites/{id}/uptime/monitors', 'post'>, site = siteId) =>
  v1({ token }).POST('/v1/sites/{id}/uptime/monitors', { params: { path: { id: site } }, body });
/** Bodies the document refuses, sent as they are: the route's own validation is what the test checks. */
const createUnchecked = (body: unknown) =>
  v1({ token }).raw({ method: 'POST', path: monitorsPath(siteId), body });
const patch = (
  monitorId: string,
  body: RequestBody<'/v1/sites/{id}/uptime/monitors/{monitorId}', 'patch'>,
  site = siteId,
) =>
  v1({ token }).PATCH('/v1/sites/{id}/uptime/monitors/{monitorId}', {
    params: { path: { id: site, monitorId } },
    body,
  });
const get = (monitorId: string, site = siteId) =>
  v1({ token }).GET('/v1/sites/{id}/uptime/monitors/{monitorId}', {
    params: { path: { id: site, monitorId } },
  });
const live = (monitorId: string) =>
  v1({ token }).GET('/v1/sites/{id}/uptime/monitors/{monitorId}/live', {
    params: { path: { id: siteId, monitorId } },
  });
const remove = (monitorId: string, site = siteId) =>
  v1({ token }).DELETE('/v1/sites/{id}/uptime/monitors/{monitorId}', {
    params: { path: { id: site, monitorId } },
  });
const setSite = (site: string, body: RequestBody<'/v1/sites/{id}', 'patch'>) =>
  v1({ token }).PATCH('/v1/sites/{id}', { params: { path: { id: site } }, body });
const setOverage = (overageEnabled: boolean) =>
  v1({ token }).PATCH('/v1/billing', { body: { overageEnabled } });
const registerSite = async (rootUrl: string) => {
  const res = await v1({ token }).POST('/v1/sites', { body: { rootUrl } });
  expect(res.status).toBe(201);
  return res.body.site.id as string;
};
/** The monitor ids the scheduler would claim now (and releases nothing: each test uses fresh monitors). */
const claimable = async (now = Date.now()) =>
  (await claimDueRounds(db, { now, limit: 1000 })).map((r) => r.monitorId);

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  const owner = await signInOwner(db, 'owner@uptime-monitors.test');
  token = owner.token;
  siteId = await registerSite('https://uptime-monitors.example/');
});
afterAll(() => teardown());

describe('creating a monitor', () => {
  it('applies the defaults, stores the alert lists as JSON strings and is due at once', async () => {
    const before = Date.now();
    const res = await create({
      url: 'https://status.other-host.example/health?deep=1',
      alertEmails: ['ops@example.com', 'OPS@example.com'],
      alertWebhooks: [{ kind: 'slack', url: 'https://hooks.example/slack' }],
    });
    expect(res.status).toBe(201);
    const monitor = res.body.monitor;
    expect(monitor).toMatchObject({
      site_id: siteId,
      url: 'https://status.other-host.example/health?deep=1',
      name: null,
      cadence_seconds: 60,
      timeout_seconds: 10,
      enabled: 1,
      status: 'unknown',
      status_since: null,
      last_checked_at: null,
    });
    expect(JSON.parse(monitor.alert_emails)).toEqual(['ops@example.com']);
    expect(JSON.parse(monitor.alert_webhooks)).toEqual([
      { kind: 'slack', url: 'https://hooks.example/slack' },
    ]);
    // At rest the webhook URL (a chat webhook's credential) is sealed; an owner reads it back in full.
    const [row] = await db.select().from(uptimeMonitors).where(eq(uptimeMonitors.id, monitor.id));
    expect(row!.alert_webhooks).not.toContain('hooks.example');
    expect(row!.alert_webhooks).toEqual([{ kind: 'slack', sealedUrl: expect.stringMatching(/^v1\./) }]);
    expect(monitor.created_at).toBeGreaterThanOrEqual(before);

    const state = await live(monitor.id);
    expect(state.status).toBe(200);
    expect(state.body.probing).toEqual({
      active: true,
      pausedBy: null,
      alsoPausedBy: [],
      nextRoundAt: monitor.created_at,
    });
    expect(state.body.regions.map((r: { region: string }) => r.region)).toEqual(['na', 'eu', 'as', 'oc']);
    expect(state.body.regions.every((r: { probe: unknown }) => r.probe === null)).toBe(true);
    expect(state.body.consensus).toBeNull();
    expect(state.body.openIncident).toBeNull();
    // The first round from every region is due now: the scheduler claims it.
    expect(await claimable()).toContain(monitor.id);
    await remove(monitor.id);
  });

  it('refuses every field the spec bounds, naming it, and creates nothing', async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /^url: is required/],
      [{ url: 'ftp://example.com/' }, /^url: /],
      [
        { url: 'https://example.com/', cadenceSeconds: 120 },
        /^cadenceSeconds: must be one of 60, 300, 900, 1800, 3600/,
      ],
      [{ url: 'https://example.com/', timeoutSeconds: 0 }, /^timeoutSeconds: must be at least 1/],
      [{ url: 'https://example.com/', timeoutSeconds: 31 }, /^timeoutSeconds: must be at most 30/],
      [{ url: 'https://example.com/', name: 'x'.repeat(101) }, /^name: must be at most 100 characters/],
      [
        {
          url: 'https://example.com/',
          alertEmails: Array.from({ length: 11 }, (_, i) => `a${i}@example.com`),
        },
        /^alertEmails: must have at most 10/,
      ],
      [{ url: 'https://example.com/', alertEmails: ['not an address'] }, /^alertEmails\.0: /],
      [
        {
          url: 'https://example.com/',
          alertWebhooks: Array.from({ length: 6 }, (_, i) => ({
            kind: 'http',
            url: `https://h.example/${i}`,
          })),
        },
        /^alertWebhooks: must have at most 5/,
      ],
      [
        { url: 'https://example.com/', alertWebhooks: [{ kind: 'pager', url: 'https://h.example/' }] },
        /^alertWebhooks\.0\.kind: /,
      ],
      [{ url: 'https://example.com/', enabled: 'yes' }, /^enabled: must be true or false/],
      [{ url: 'https://example.com/', interval: 60 }, /interval/],
    ];
    for (const [body, message] of cases) {
      const res = await createUnchecked(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error).toMatch(message);
    }
    const list = await v1({ token }).GET('/v1/sites/{id}/uptime/monitors', {
      params: { path: { id: siteId } },
    });
    expect(list.body.monitors).toEqual([]);
  });

  it('answers 409 while the Uptime app is off, and creates nothing', async () => {
    expect((await setSite(siteId, { uptimeEnabled: false })).status).toBe(200);
    try {
      const res = await create({ url: 'https://example.com/' });
      expect(res.status).toBe(409);
      expect(res.body.error).toMatch(/Uptime app is not enabled/);
      expect(await db.select().from(uptimeMonitors).where(eq(uptimeMonitors.site_id, siteId))).toEqual([]);
    } finally {
      await setSite(siteId, { uptimeEnabled: true });
    }
  });
});

describe('the monitor allowance (2 per site, pooled across the organization)', () => {
  it('is 403 past the pool with overage off, metered and billed with overage on', async () => {
    const made: string[] = [];
    for (const n of [1, 2]) {
      const res = await create({ url: `https://example.com/${n}` });
      expect(res.status).toBe(201);
      made.push(res.body.monitor.id);
    }
    const third = await create({ url: 'https://example.com/3' });
    expect(third.status).toBe(403);
    expect(third.body.error).toMatch(/included uptime monitors used up: 2 of 2/);

    // A second site brings two more slots, usable on either site.
    const second = await registerSite('https://uptime-monitors-2.example/');
    const pooled = await create({ url: 'https://example.com/3' });
    expect(pooled.status).toBe(201);
    made.push(pooled.body.monitor.id);
    expect((await create({ url: 'https://example.com/4' })).status).toBe(201);
    expect((await create({ url: 'https://example.com/5' })).status).toBe(403);
    const usage = await v1({ token }).GET('/v1/sites/{id}/usage', { params: { path: { id: siteId } } });
    expect(usage.body.current.monitors).toBe(4);
    expect(usage.body.current.allowances.monitors).toBe(2);

    // Overage on: created freely, the excess on the projected bill.
    expect((await setOverage(true)).status).toBe(200);
    expect((await create({ url: 'https://example.com/5' })).status).toBe(201);
    const billing = await v1({ token }).GET('/v1/billing');
    const line = billing.body.projected.lines.find((l: { item: string }) => l.item === 'extra-monitors');
    expect(line).toMatchObject({ quantity: 1, siteId: null, amountCents: 200 });
    // Overage off again: nothing billed, and no more past the pool.
    expect((await setOverage(false)).status).toBe(200);
    expect((await create({ url: 'https://example.com/6' })).status).toBe(403);

    const all = await db.select({ id: uptimeMonitors.id, site: uptimeMonitors.site_id }).from(uptimeMonitors);
    for (const m of all) await remove(m.id, m.site);
    expect((await v1({ token }).DELETE('/v1/sites/{id}', { params: { path: { id: second } } })).status).toBe(
      200,
    );
  });
});

describe('monitors past the pool with overage off', () => {
  /** What the scheduler would claim now, given back at once so the next look sees the same. */
  const probedNow = async () => {
    const rounds = await claimDueRounds(db, { now: Date.now(), limit: 1000 });
    await releaseRounds(db, rounds);
    return rounds.map((r) => r.monitorId);
  };
  const heldNotices = async () =>
    (await db.select().from(notificationOutbox)).filter((n) => n.kind === 'allowance-reached');

  it('holds the newest, tells the owners once per re-arm, and probes them again when the pool or overage allows', async () => {
    for (const m of await db.select().from(uptimeMonitors)) await remove(m.id, m.site_id);
    expect((await setOverage(true)).status).toBe(200);
    const ids: string[] = [];
    for (const n of [1, 2, 3, 4]) {
      const res = await create({ url: `https://example.com/held/${n}` });
      expect(res.status).toBe(201);
      ids.push(res.body.monitor.id);
      // Creation order, a millisecond apart at least: the oldest are the ones kept.
      await db
        .update(uptimeMonitors)
        .set({ created_at: 1_000 * n })
        .where(eq(uptimeMonitors.id, res.body.monitor.id));
    }
    const [a, b, c, d] = ids as [string, string, string, string];
    expect((await probedNow()).sort()).toEqual([...ids].sort());

    // Overage off with 4 monitors on a pool of 2: the two newest are held, their own enabled untouched.
    const off = await setOverage(false);
    expect(off.status).toBe(200);
    // The billing resource counts them beside the paused apps.
    expect(off.body).toMatchObject({ overageEnabled: false, monitorsHeld: 2 });
    expect((await v1({ token }).GET('/v1/billing')).body.monitorsHeld).toBe(2);
    expect((await probedNow()).sort()).toEqual([a, b].sort());
    expect((await live(c)).body.probing).toEqual({
      active: false,
      pausedBy: 'allowance',
      alsoPausedBy: [],
      nextRoundAt: null,
    });
    expect((await live(a)).body.probing).toMatchObject({ active: true, pausedBy: null });
    expect((await get(d)).body.monitor.enabled).toBe(1);

    // The owners are told once (the scheduler runs this every minute).
    expect(await notifyMonitorsHeld(db, Date.now())).toBe(1);
    expect(await notifyMonitorsHeld(db, Date.now())).toBe(0);
    const [notice, ...more] = await heldNotices();
    expect(more).toEqual([]);
    expect(notice).toMatchObject({
      site_id: null,
      payload: { app: 'monitors', used: 4, allowance: 2, held: 2 },
    });

    // A kept monitor deleted: the next one in line is probed again, at once (its round was due).
    await remove(b);
    expect((await probedNow()).sort()).toEqual([a, c].sort());
    expect((await v1({ token }).GET('/v1/billing')).body.monitorsHeld).toBe(1);
    // Overage on: every monitor probes, nothing is held.
    const on = await setOverage(true);
    expect(on.status).toBe(200);
    expect(on.body.monitorsHeld).toBe(0);
    expect((await probedNow()).sort()).toEqual([a, c, d].sort());
    expect((await live(d)).body.probing).toMatchObject({ active: true, pausedBy: null });
    expect(await notifyMonitorsHeld(db, Date.now())).toBe(0);
    // Overage off again re-arms the notice.
    expect((await setOverage(false)).status).toBe(200);
    expect(await probedNow()).not.toContain(d);
    expect(await notifyMonitorsHeld(db, Date.now())).toBe(1);
    expect(await heldNotices()).toHaveLength(2);

    for (const id of [a, c, d]) await remove(id);
  });
});

describe('editing, pausing and the Uptime app (state table)', () => {
  it('keeps omitted fields, pauses and resumes with a round due at once', async () => {
    const created = (await create({ url: 'https://example.com/', name: 'Home', cadenceSeconds: 300 })).body
      .monitor;
    const renamed = await patch(created.id, { name: '  Homepage  ', timeoutSeconds: 5 });
    expect(renamed.status).toBe(200);
    expect(renamed.body.monitor).toMatchObject({
      name: 'Homepage',
      timeout_seconds: 5,
      cadence_seconds: 300,
      url: 'https://example.com/',
      enabled: 1,
    });
    expect(renamed.body.monitor.updated_at).toBeGreaterThanOrEqual(created.updated_at);
    expect((await patch(created.id, { name: null })).body.monitor.name).toBeNull();

    // Its first round is claimed and finished (the next one a cadence on): not due now.
    await db
      .update(uptimeMonitors)
      .set({ next_probe_at: Date.now() + 300_000 })
      .where(eq(uptimeMonitors.id, created.id));
    expect(await claimable()).not.toContain(created.id);

    const paused = await patch(created.id, { enabled: false });
    expect(paused.body.monitor.enabled).toBe(0);
    expect((await live(created.id)).body.probing).toEqual({
      active: false,
      pausedBy: 'monitor',
      alsoPausedBy: [],
      nextRoundAt: null,
    });
    expect(await claimable(Date.now() + 3_600_000)).not.toContain(created.id);

    const before = Date.now();
    const resumed = await patch(created.id, { enabled: true });
    expect(resumed.body.monitor.enabled).toBe(1);
    const probing = (await live(created.id)).body.probing;
    expect(probing.active).toBe(true);
    expect(probing.nextRoundAt).toBeGreaterThanOrEqual(before);
    expect(probing.nextRoundAt).toBeLessThanOrEqual(Date.now());
    expect(await claimable()).toContain(created.id);
    await remove(created.id);
  });

  it("stops every monitor with the site's Uptime app, leaving each one's enabled alone, and resumes them", async () => {
    const on = (await create({ url: 'https://example.com/on' })).body.monitor;
    const off = (await create({ url: 'https://example.com/off', enabled: false })).body.monitor;
    expect(off.enabled).toBe(0);

    expect((await setSite(siteId, { uptimeEnabled: false })).status).toBe(200);
    expect(await claimable()).not.toContain(on.id);
    expect((await live(on.id)).body.probing).toEqual({
      active: false,
      pausedBy: 'app',
      alsoPausedBy: [],
      nextRoundAt: null,
    });
    // Paused and stopped with the app: both named, since resuming it alone would not probe.
    expect((await live(off.id)).body.probing).toEqual({
      active: false,
      pausedBy: 'monitor',
      alsoPausedBy: ['app'],
      nextRoundAt: null,
    });
    expect((await get(on.id)).body.monitor.enabled).toBe(1);
    expect((await get(off.id)).body.monitor.enabled).toBe(0);
    // Editing is allowed while the app is off; the monitor stays stopped.
    expect((await patch(on.id, { name: 'still here' })).status).toBe(200);
    expect(await claimable()).not.toContain(on.id);

    expect((await setSite(siteId, { uptimeEnabled: true })).status).toBe(200);
    const claimed = await claimable();
    expect(claimed).toContain(on.id);
    expect(claimed).not.toContain(off.id);
    await remove(on.id);
    await remove(off.id);
  });

  it('answers 404 for a monitor of another site, an unknown id and a malformed one', async () => {
    const other = await registerSite('https://uptime-monitors-other.example/');
    const theirs = (await create({ url: 'https://example.com/' }, other)).body.monitor;
    for (const monitorId of [theirs.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await get(monitorId);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'monitor not found' });
      expect((await patch(monitorId, { name: 'x' })).status).toBe(404);
      expect((await remove(monitorId)).status).toBe(404);
    }
    expect((await get(theirs.id, other)).status).toBe(200);
    await remove(theirs.id, other);
  });

  it('deletes a monitor with its incidents', async () => {
    const m = (await create({ url: 'https://example.com/' })).body.monitor;
    await db
      .insert(uptimeIncidents)
      .values({ tenant_id: m.tenant_id, monitor_id: m.id, down_at: 1, created_at: 1 });
    const res = await remove(m.id);
    expect(res).toMatchObject({ status: 200, body: { deleted: true } });
    expect((await get(m.id)).status).toBe(404);
    expect(await db.select().from(uptimeIncidents).where(eq(uptimeIncidents.monitor_id, m.id))).toEqual([]);
  });
});

describe('metrics', () => {
  const metrics = (monitorId: string, hours?: number) =>
    v1({ token }).GET('/v1/sites/{id}/uptime/monitors/{monitorId}/metrics', {
      params: { path: { id: siteId, monitorId }, query: hours === undefined ? {} : { hours } },
    });
  /** Queries the document refuses, sent as they are: the route's own validation is what the test checks. */
  const metricsUnchecked = (monitorId: string, query: string) =>
    v1({ token }).raw({ path: `${monitorsPath(siteId)}/${monitorId}/metrics${query}` });

  it('validates hours as the spec bounds it', async () => {
    const m = (await create({ url: 'https://example.com/' })).body.monitor;
    for (const [query, message] of [
      ['?hours=0', 'hours: must be at least 1'],
      ['?hours=2161', 'hours: must be at most 2160 (90 days)'],
      ['?hours=1.5', 'hours: must be a whole number of hours'],
      ['?hours=day', 'hours: must be a whole number of hours'],
    ] as const) {
      const res = await metricsUnchecked(m.id, query);
      expect(res.status).toBe(422);
      expect(res.body.error).toBe(message);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
    const byDefault = await metrics(m.id);
    expect(byDefault.status).toBe(200);
    const now = Date.now();
    expect(byDefault.body.fromMs).toBeGreaterThan(now - 24 * 3_600_000 - 60_000);
    expect(byDefault.body.fromMs).toBeLessThanOrEqual(now - 24 * 3_600_000);
    expect(byDefault.body).toMatchObject({ hours: [], events: [], uptimePct: 100 });
    expect((await metrics(m.id, 2160)).status).toBe(200);
    await remove(m.id);
  });
});
