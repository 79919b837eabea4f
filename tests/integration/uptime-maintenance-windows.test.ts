import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as feedRoute from '@/app/status/[slug]/feed.atom/route';
import * as pageRoute from '@/app/status/[slug]/route';
import * as summaryRoute from '@/app/status/[slug]/summary.json/route';
import type { Db } from '@/lib/db/client';
import { closeDispatchers } from '@/lib/net';
import { deliverDue, dispatchEvents } from '@/lib/notify/deliver';
import { FINGERPRINT_FRESH_MS } from '@/lib/statuspages/cache';
import { uptimeOverRange } from '@/lib/uptime/metrics';
import { type Query, type RequestBody, v1 } from '../support/api-client';
import { BASE } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { signInOwner } from '../support/http';
import { startServer, type TestServer } from '../support/http-server';
import { type Receiver, startSlack } from '../support/notify-receivers';
import * as uptime from '../support/uptime';

/*
 * Maintenance windows (issue 26 item 3) through the API, and what one does to real rounds: a
 * target on 127.0.0.15 that answers 503, probed by the four embedded regions on the monitors'
 * schedule (a simulated clock: each round runs at its due instant). The monitor inside the window
 * is still probed and shown down, but opens no incident, alerts nobody (its own Slack stand-in
 * receives nothing) and loses no uptime; the same failure outside a window opens one incident and
 * alerts once; when the window ends with the target still failing, the incident opens then, with
 * one alert.
 */

const MINUTE = 60_000;
let db: Db;
let teardown: () => Promise<void>;
let target: TestServer;
let owner: { token: string; tenantId: string };

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  target = await startServer('127.0.0.15', { '/a': { body: 'ok' }, '/b': { body: 'ok' } });
  owner = await signInOwner(db, 'owner@maintenance.test');
});
afterAll(async () => {
  await target?.close();
  await closeDispatchers();
  await teardown();
});

const windowsPath = (siteId: string) => `/v1/sites/${siteId}/maintenance-windows`;

function createWindow(
  siteId: string,
  body: RequestBody<'/v1/sites/{id}/maintenance-windows', 'post'>,
  token = owner.token,
) {
  return v1({ token }).POST('/v1/sites/{id}/maintenance-windows', { params: { path: { id: siteId } }, body });
}

/** Bodies the document refuses, sent as they are: the route's own validation is what the test checks. */
function createWindowUnchecked(siteId: string, body: unknown) {
  return v1({ token: owner.token }).raw({ method: 'POST', path: windowsPath(siteId), body });
}

function listWindows(siteId: string, query: Query<'/v1/sites/{id}/maintenance-windows', 'get'> = {}) {
  return v1({ token: owner.token }).GET('/v1/sites/{id}/maintenance-windows', {
    params: { path: { id: siteId }, query },
  });
}

const windowOf = (siteId: string, windowId: string, token = owner.token) => {
  const api = v1({ token });
  const path = '/v1/sites/{id}/maintenance-windows/{windowId}' as const;
  const params = { path: { id: siteId, windowId } };
  return {
    get: () => api.GET(path, { params }),
    patch: (body: RequestBody<typeof path, 'patch'>) => api.PATCH(path, { params, body }),
    delete: () => api.DELETE(path, { params }),
  };
};

describe('the maintenance windows API', () => {
  let siteId: string;
  let monitorId: string;
  let otherSiteMonitorId: string;

  beforeAll(async () => {
    ({ siteId, monitorId } = await uptime.siteWithMonitorByApi(owner.token, 'api.maintenance.test', {
      url: target.url('/a'),
      enabled: false,
    }));
    otherSiteMonitorId = (
      await uptime.siteWithMonitorByApi(owner.token, 'other.maintenance.test', {
        url: target.url('/b'),
        enabled: false,
      })
    ).monitorId;
  });

  it('schedules a window for every monitor of the site, or for the ones listed', async () => {
    const startsAt = Date.now() + 60 * MINUTE;
    const all = await createWindow(siteId, {
      title: '  Database upgrade ',
      startsAt: new Date(startsAt).toISOString(),
      endsAt: startsAt + 30 * MINUTE,
    });
    expect(all.status, JSON.stringify(all.body)).toBe(201);
    expect(all.body.maintenanceWindow).toMatchObject({
      siteId,
      title: 'Database upgrade',
      startsAt,
      endsAt: startsAt + 30 * MINUTE,
      state: 'upcoming',
      allMonitors: true,
      monitorIds: [monitorId],
    });
    const listed = await createWindow(siteId, {
      title: 'CDN switch',
      startsAt: Date.now(),
      endsAt: Date.now() + 10 * MINUTE,
      monitorIds: [monitorId.toUpperCase()],
    });
    expect(listed.status, JSON.stringify(listed.body)).toBe(201);
    expect(listed.body.maintenanceWindow).toMatchObject({
      state: 'active',
      allMonitors: false,
      monitorIds: [monitorId],
    });
  });

  it('refuses bad times, titles and monitors with an error naming the field', async () => {
    const now = Date.now();
    const refused = async (body: Record<string, unknown>, status: number, error: RegExp) => {
      const res = await createWindowUnchecked(siteId, {
        title: 'Work',
        startsAt: now + MINUTE,
        endsAt: now + 2 * MINUTE,
        ...body,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.error).toMatch(error);
    };
    await refused({ endsAt: now + MINUTE }, 422, /^endsAt: must be after startsAt/);
    await refused(
      { endsAt: now + 8 * 24 * 60 * MINUTE },
      422,
      /^endsAt: must be at most 7 days after startsAt/,
    );
    await refused({ startsAt: now - 60 * MINUTE }, 422, /^startsAt: must not be in the past/);
    await refused(
      { startsAt: now + 400 * 24 * 60 * MINUTE, endsAt: now + 401 * 24 * 60 * MINUTE },
      422,
      /^startsAt: must be within a year/,
    );
    await refused({ startsAt: 'tomorrow' }, 422, /^startsAt: /);
    await refused({ title: '   ' }, 422, /^title: must not be empty/);
    await refused({ title: 'x'.repeat(101) }, 422, /^title: must be at most 100 characters/);
    await refused({ monitorIds: [] }, 422, /^monitorIds: must list at least one monitor/);
    await refused({ monitorIds: [monitorId, monitorId] }, 422, /^monitorIds: must not list a monitor twice/);
    await refused({ colour: 'red' }, 422, /colour: is not a field of this request/);
    // A monitor of another site of the organization is not one of this site's: 404, as a stranger's.
    await refused({ monitorIds: [otherSiteMonitorId] }, 404, /^monitor not found/);
    await refused({ monitorIds: ['7b0b7c38-8d0e-4d5a-9a39-5c1f0b0e0a11'] }, 404, /^monitor not found/);
  });

  it('lists by state, soonest first for what is coming, and pages with a cursor', async () => {
    const now = Date.now();
    for (const hours of [5, 3, 4]) {
      const res = await createWindow(siteId, {
        title: `In ${hours} h`,
        startsAt: now + hours * 60 * MINUTE,
        endsAt: now + (hours * 60 + 20) * MINUTE,
      });
      expect(res.status).toBe(201);
    }
    const upcoming = await listWindows(siteId, { state: 'upcoming', limit: 2 });
    expect(upcoming.status).toBe(200);
    expect(upcoming.body.maintenanceWindows.map((w: { title: string }) => w.title)).toEqual([
      'Database upgrade',
      'In 3 h',
    ]);
    const rest = await listWindows(siteId, { state: 'upcoming', limit: 2, cursor: upcoming.body.nextCursor });
    expect(rest.body.maintenanceWindows.map((w: { title: string }) => w.title)).toEqual(['In 4 h', 'In 5 h']);
    expect(rest.body.nextCursor).toBeNull();
    const active = await listWindows(siteId, { state: 'active' });
    expect(active.body.maintenanceWindows.map((w: { title: string }) => w.title)).toEqual(['CDN switch']);
    expect((await listWindows(siteId, { state: 'past' })).body.maintenanceWindows).toEqual([]);
    const everything = await listWindows(siteId);
    expect(everything.body.maintenanceWindows).toHaveLength(5);
    // A state the document does not have, sent as it is.
    expect((await v1({ token: owner.token }).raw({ path: `${windowsPath(siteId)}?state=soon` })).status).toBe(
      422,
    );
    expect((await listWindows(siteId, { cursor: 'nonsense' })).status).toBe(422);
  });

  it('edits a window, keeps the start of one under way, and deletes', async () => {
    const active = (await listWindows(siteId, { state: 'active' })).body.maintenanceWindows[0];
    const window = windowOf(siteId, active.id);
    const moved = await window.patch({ startsAt: Date.now() + 60 * MINUTE });
    expect(moved.status).toBe(422);
    expect(moved.body.error).toMatch(/^startsAt: cannot change once the window has begun/);
    const ended = await window.patch({ endsAt: Date.now(), title: 'CDN switch (done)', monitorIds: null });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(ended.body.maintenanceWindow).toMatchObject({ title: 'CDN switch (done)', allMonitors: true });
    // Over: history, which can be deleted but not changed.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const got = await window.get();
    expect(got.body.maintenanceWindow.state).toBe('past');
    const late = await window.patch({ title: 'again' });
    expect(late.status).toBe(409);
    const deleted = await window.delete();
    expect(deleted.body).toEqual({ deleted: true });
    expect((await window.get()).status).toBe(404);
  });

  it('drops a deleted monitor from the windows listing it', async () => {
    const listed = await createWindow(siteId, {
      title: 'Listed',
      startsAt: Date.now() + 60 * MINUTE,
      endsAt: Date.now() + 90 * MINUTE,
      monitorIds: [monitorId],
    });
    const gone = await v1({ token: owner.token }).DELETE('/v1/sites/{id}/uptime/monitors/{monitorId}', {
      params: { path: { id: siteId, monitorId } },
    });
    expect(gone.status).toBe(200);
    const id = listed.body.maintenanceWindow.id;
    const after = await windowOf(siteId, id).get();
    expect(after.body.maintenanceWindow.monitorIds).toEqual([]);
  });
});

describe('a monitor failing inside a window', () => {
  let slackInside: Receiver;
  let slackOutside: Receiver;
  beforeAll(async () => {
    [slackInside, slackOutside] = await Promise.all([startSlack(), startSlack()]);
  });
  afterAll(async () => {
    await Promise.all([slackInside?.close(), slackOutside?.close()]);
  });

  it('alerts nobody and costs no uptime; the same failure outside it alerts once', async () => {
    // Real probes: every region reaches the real target, nothing injected.
    const probers = () => uptime.regionOutage(false).probers();
    const { siteId, monitorId: inside } = await uptime.siteWithMonitorByApi(
      owner.token,
      'rounds.maintenance.test',
      {
        url: target.url('/a'),
        alertWebhooks: [{ kind: 'slack', url: slackInside.url }],
      },
    );
    const outside = await uptime.monitorByApi(owner.token, siteId, {
      url: target.url('/b'),
      alertWebhooks: [{ kind: 'slack', url: slackOutside.url }],
    });
    const createdAt = (await uptime.monitorRow(db, inside)).created_at;
    const round = async (monitorId: string) => uptime.nextRound(db, probers, monitorId);
    // Both answer first: up.
    expect((await round(inside)).outcome.verdict).toMatchObject({ status: 'up' });
    expect((await round(outside)).outcome.verdict).toMatchObject({ status: 'up' });

    // The work begins now, on the first monitor only, for five minutes; the target starts failing.
    const scheduled = await createWindow(siteId, {
      title: 'Replacing the load balancer',
      startsAt: Date.now(),
      endsAt: Date.now() + 5 * MINUTE,
      monitorIds: [inside],
    });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(201);
    const window = scheduled.body.maintenanceWindow as { startsAt: number; endsAt: number };
    target.route('/a', { status: 503, body: 'maintenance' });
    target.route('/b', { status: 503, body: 'maintenance' });

    const deliverAll = async () => {
      const clock = { now: () => Date.now() + 3_600_000 };
      await dispatchEvents(db, clock);
      while ((await deliverDue(db, clock)).claimed > 0);
    };

    // Rounds of the first monitor until the window ends (each runs every round due by its instant,
    // the other monitor's too): it is probed and down, opens no incident and alerts nobody, while
    // the other opens its incident on its first failing round and alerts once.
    let insideRounds = 0;
    for (;;) {
      const { due, outcome } = await round(inside);
      if (due >= window.endsAt) {
        // The first round after the window, the target still failing: the incident opens now.
        expect(outcome.events.map((e) => e.kind)).toEqual(['opened']);
        break;
      }
      insideRounds++;
      expect(outcome.verdict).toMatchObject({ status: 'down' });
      expect(outcome.events).toEqual([]);
      expect((await uptime.monitorRow(db, inside)).status).toBe('down');
      expect(await uptime.incidentsOf(db, inside)).toEqual([]);
      await deliverAll();
      expect(slackInside.requests).toEqual([]);
    }
    expect(insideRounds).toBeGreaterThanOrEqual(3);
    expect((await uptime.monitorRow(db, outside)).status).toBe('down');
    expect(await uptime.incidentsOf(db, outside)).toHaveLength(1);
    expect(slackOutside.requests.map((r) => r.body.text)).toEqual([expect.stringMatching(/^Down/)]);

    // No uptime lost inside the window: up to its end the monitor inside is at 100 %, the other not.
    const during = await uptimeOverRange(
      db,
      { tenant_id: owner.tenantId, id: inside, created_at: createdAt },
      createdAt,
      window.endsAt,
    );
    expect(during.uptimePct).toBe(100);
    expect(during.events).toEqual([]);
    const outsideCreated = (await uptime.monitorRow(db, outside)).created_at;
    const outsideDuring = await uptimeOverRange(
      db,
      { tenant_id: owner.tenantId, id: outside, created_at: outsideCreated },
      outsideCreated,
      window.endsAt,
    );
    expect(outsideDuring.uptimePct).toBeLessThan(50);
    // (down from its first failing round, at most 90 s after it was created, to the window's end)
    expect(outsideDuring.events).toHaveLength(1);

    // The incident opened after the window, at that round, and alerted once.
    const [incident] = await uptime.incidentsOf(db, inside);
    expect(incident!.down_at).toBeGreaterThanOrEqual(window.endsAt);
    await deliverAll();
    await deliverAll();
    expect(slackInside.requests.map((r) => r.body.text)).toEqual([expect.stringMatching(/^Down/)]);
    expect(slackOutside.requests).toHaveLength(1);
    const kinds = async (id: string) => (await uptime.outboxOf(db, id)).map((n) => n.kind);
    expect(await kinds(inside)).toEqual(['uptime-down']);
    expect(await kinds(outside)).toEqual(['uptime-down']);
  });
});

describe('a status page listing covered monitors', () => {
  type PublicRoute = { GET: (req: Request, ctx: { params: Promise<{ slug: string }> }) => Promise<Response> };
  const fetchPublic = async (
    route: PublicRoute,
    slug: string,
    file = '',
    headers: Record<string, string> = {},
  ) => {
    const res = await route.GET(new Request(`${BASE}/status/${slug}${file}`, { headers }), {
      params: Promise.resolve({ slug }),
    });
    return { status: res.status, etag: res.headers.get('etag'), text: await res.text() };
  };
  /** A change shows once this process's fingerprint memo (1 s) has aged out, as on any instance. */
  const pastFreshness = () => new Promise((resolve) => setTimeout(resolve, FINGERPRINT_FRESH_MS + 50));

  it('announces the windows ahead, shows the monitors under maintenance, and changes with them', async () => {
    // An organization of its own (three sites each).
    const publisher = await signInOwner(db, 'publisher@maintenance.test');
    const { siteId, monitorId: shown } = await uptime.siteWithMonitorByApi(
      publisher.token,
      'page.maintenance.test',
      {
        url: target.url('/a'),
        name: 'Storefront',
      },
    );
    const unlisted = await uptime.monitorByApi(publisher.token, siteId, {
      url: target.url('/b'),
      name: 'Internal admin',
    });
    const published = await v1({ token: publisher.token }).POST('/v1/status-pages', {
      body: { slug: 'maintenance-page', title: 'Shop status', monitorIds: [shown] },
    });
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    const before = await fetchPublic(pageRoute, 'maintenance-page');
    expect(before.text).not.toContain('Maintenance');

    const now = Date.now();
    const schedule = (body: RequestBody<'/v1/sites/{id}/maintenance-windows', 'post'>) =>
      createWindow(siteId, body, publisher.token);
    const upcoming = await schedule({
      title: 'Payment provider switch',
      startsAt: now + 26 * 60 * MINUTE,
      endsAt: now + 27 * 60 * MINUTE,
    });
    const elsewhere = await schedule({
      title: 'Admin rebuild',
      startsAt: now + 60 * MINUTE,
      endsAt: now + 2 * 60 * MINUTE,
      monitorIds: [unlisted],
    });
    expect([upcoming.status, elsewhere.status]).toEqual([201, 201]);
    await pastFreshness();
    // Scheduling changed the page: a new fingerprint, the window announced, the other one not.
    const scheduled = await fetchPublic(pageRoute, 'maintenance-page', '', { 'if-none-match': before.etag! });
    expect(scheduled.status).toBe(200);
    expect(scheduled.text).toContain('Payment provider switch');
    expect(scheduled.text).toContain('Scheduled');
    expect(scheduled.text).not.toContain('Admin rebuild');
    expect(scheduled.text).not.toContain('Internal admin');

    const active = await schedule({
      title: 'Database upgrade',
      startsAt: now,
      endsAt: now + 30 * MINUTE,
      monitorIds: [shown, unlisted],
    });
    expect(active.status).toBe(201);
    await pastFreshness();
    const summary = JSON.parse((await fetchPublic(summaryRoute, 'maintenance-page', '/summary.json')).text);
    expect(summary.status).toBe('maintenance');
    expect(summary.monitors.map((m: { status: string }) => m.status)).toEqual(['maintenance']);
    expect(
      summary.maintenance.map((w: { title: string; state: string; monitors: { name: string }[] }) => [
        w.title,
        w.state,
        w.monitors.map((m) => m.name),
      ]),
    ).toEqual([
      ['Database upgrade', 'active', ['Storefront']],
      ['Payment provider switch', 'upcoming', ['Storefront']],
    ]);
    expect(JSON.stringify(summary)).not.toContain(unlisted);
    const page = (await fetchPublic(pageRoute, 'maintenance-page')).text;
    expect(page).toContain('Maintenance under way');
    expect(page).toContain('Under maintenance');
    // Today's bar counts the window's time as maintenance (neither up nor down) and says so.
    expect(summary.monitors[0].days.at(-1).maintenanceMs).toBeGreaterThan(0);
    const today = page.match(/<li[^>]*tabindex="0"><span>([^<]*)<\/span><\/li><\/ol>/)?.[1];
    expect(today).toMatch(/^[^\n]+\n(Maintenance$|.*\n.* of maintenance)/);
    const feed = (await fetchPublic(feedRoute, 'maintenance-page', '/feed.atom')).text;
    expect(feed).toContain(`<id>urn:uuid:${active.body.maintenanceWindow.id}</id>`);
    expect(feed).toContain('Maintenance (under way): Database upgrade');
    expect(feed).toContain('Maintenance (scheduled): Payment provider switch');

    // Deleted: gone from the page at once.
    const id = active.body.maintenanceWindow.id as string;
    await windowOf(siteId, id, publisher.token).delete();
    await pastFreshness();
    const after = JSON.parse((await fetchPublic(summaryRoute, 'maintenance-page', '/summary.json')).text);
    expect(after.maintenance.map((w: { title: string }) => w.title)).toEqual(['Payment provider switch']);
  });
});
