import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as pingRoute from '@/app/ping/[token]/route';
import type { Db } from '@/lib/db/client';
import { mailMessages, notificationOutbox, uptimeMonitors } from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import { deliverDue, dispatchEvents } from '@/lib/notify/deliver';
import { checkHeartbeats, recordPing } from '@/lib/uptime/heartbeats';
import { PINGS_PER_MINUTE } from '@/lib/uptime/limits';
import { type RequestBody, v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { signInOwner } from '../support/http';
import { type Receiver, startSlack } from '../support/notify-receivers';
import { incidentsOf, monitorByApi, monitorRow, outboxOf, siteWithMonitorByApi } from '../support/uptime';

/*
 * Issue 26 item 5, heartbeat monitors, through the real chain: created through the API (the ping
 * URL in full once, masked after, only its hash stored), pinged through the public route (plain
 * text, no credential), and found missed by the minute scheduler's check (checkHeartbeats, what the
 * `check-heartbeats` step runs; no timer anywhere) at minute ticks on a clock ahead of the wall's:
 * a heartbeat that stops opens exactly one incident, `missed_heartbeat`, alerted once to the
 * organization's uptime receivers (a Slack stand-in and the owner's mail); the next ping closes it
 * and the recovery is delivered once.
 */

let db: Db;
let teardown: () => Promise<void>;
let slack: Receiver;
let owner: { token: string; tenantId: string };

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  slack = await startSlack();
  owner = await signInOwner(db, 'owner@heartbeats.test');
  // Overage on: every case has a site of its own, past the included count.
  const overage = await v1({ token: owner.token }).PATCH('/v1/billing', { body: { overageEnabled: true } });
  expect(overage.status).toBe(200);
});

afterAll(async () => {
  await slack?.close();
  await closeDispatchers();
  await teardown();
});

const HEARTBEAT = {
  kind: 'heartbeat',
  name: 'Nightly backup',
  periodSeconds: 300,
  graceSeconds: 120,
} satisfies RequestBody<'/v1/sites/{id}/uptime/monitors', 'post'>;
const PING_URL = /^http:\/\/localhost:\d+\/ping\/(hb_[A-Za-z0-9_-]{43})$/;

type PingResult = { status: number; text: string; headers: Headers };
async function ping(token: string, method: 'GET' | 'POST' = 'GET', headers: Record<string, string> = {}) {
  const handler = method === 'GET' ? pingRoute.GET : pingRoute.POST;
  const res = await handler(new Request(`http://localhost:3000/ping/${token}`, { method, headers }), {
    params: Promise.resolve({ token }),
  });
  return { status: res.status, text: await res.text(), headers: res.headers } satisfies PingResult;
}

const getMonitor = (siteId: string, monitorId: string) =>
  v1({ token: owner.token }).GET('/v1/sites/{id}/uptime/monitors/{monitorId}', {
    params: { path: { id: siteId, monitorId } },
  });

const patchMonitor = (
  siteId: string,
  monitorId: string,
  body: RequestBody<'/v1/sites/{id}/uptime/monitors/{monitorId}', 'patch'>,
) =>
  v1({ token: owner.token }).PATCH('/v1/sites/{id}/uptime/monitors/{monitorId}', {
    params: { path: { id: siteId, monitorId } },
    body,
  });

const rotate = (siteId: string, monitorId: string) =>
  v1({ token: owner.token }).POST('/v1/sites/{id}/uptime/monitors/{monitorId}/ping-url/rotate', {
    params: { path: { id: siteId, monitorId } },
  });

/** A heartbeat monitor made through the API: its ids and the token of the ping URL shown at creation. */
async function heartbeat(host: string, body: Record<string, unknown> = HEARTBEAT) {
  const { siteId, monitorId } = await siteWithMonitorByApi(owner.token, host, body);
  const created = await getMonitor(siteId, monitorId);
  // The creation's answer is gone by now; the token is read again from a rotation's answer.
  const rotated = await rotate(siteId, monitorId);
  expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
  const token = PING_URL.exec(rotated.body.monitor.ping_url)?.[1];
  expect(token, rotated.body.monitor.ping_url).toBeDefined();
  return { siteId, monitorId, token: token!, created: created.body.monitor };
}

describe('a heartbeat monitor', () => {
  it('shows its ping URL in full once, masked after, and stores only its hash', async () => {
    const { siteId } = await siteWithMonitorByApi(owner.token, 'shown-once.heartbeats.test', {
      url: 'https://shown-once.heartbeats.test/',
    });
    const created = await v1({ token: owner.token }).POST('/v1/sites/{id}/uptime/monitors', {
      params: { path: { id: siteId } },
      body: HEARTBEAT,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const monitor = created.body.monitor;
    expect(monitor).toMatchObject({
      kind: 'heartbeat',
      url: null,
      period_seconds: 300,
      grace_seconds: 120,
      status: 'unknown',
      last_ping_at: null,
      expected_statuses: [],
      keyword: null,
    });
    const token = PING_URL.exec(monitor.ping_url)![1]!;

    const read = await getMonitor(siteId, monitor.id);
    expect(read.body.monitor.ping_url).toBe(
      `${monitor.ping_url.slice(0, monitor.ping_url.indexOf('/ping/') + 13)}…`,
    );
    expect(read.body.monitor.ping_url).not.toContain(token);
    const listed = await v1({ token: owner.token }).GET('/v1/sites/{id}/uptime/monitors', {
      params: { path: { id: siteId } },
    });
    expect(JSON.stringify(listed.body)).not.toContain(token);

    const row = await monitorRow(db, monitor.id);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.ping_token_hash).toMatch(/^[0-9a-f]{64}$/);

    // An http monitor has no ping URL and keeps its URL.
    const http = listed.body.monitors.find((m: { kind: string }) => m.kind === 'http');
    expect(http).toMatchObject({ ping_url: null, period_seconds: null, grace_seconds: null });
  });

  it('refuses what does not fit its kind, naming the field', async () => {
    const { siteId, monitorId } = await heartbeat('kinds.heartbeats.test');
    // Bodies the document refuses, sent as they are: the route's own validation is what the test checks.
    const create = (body: Record<string, unknown>) =>
      v1({ token: owner.token }).raw({ method: 'POST', path: `/v1/sites/${siteId}/uptime/monitors`, body });
    expect((await create({ kind: 'heartbeat' })).body.error).toMatch(/^periodSeconds: is required/);
    expect((await create({ ...HEARTBEAT, url: 'https://kinds.heartbeats.test/' })).body.error).toMatch(
      /^url: a heartbeat monitor has no URL/,
    );
    expect((await create({ ...HEARTBEAT, keyword: 'ok' })).body.error).toMatch(/^keyword: applies to http/);
    expect((await create({ url: 'https://kinds.heartbeats.test/', periodSeconds: 300 })).status).toBe(422);
    expect((await create({ ...HEARTBEAT, periodSeconds: 30 })).body.error).toMatch(
      /^periodSeconds: must be at least 60/,
    );

    const patch = (body: RequestBody<'/v1/sites/{id}/uptime/monitors/{monitorId}', 'patch'>) =>
      patchMonitor(siteId, monitorId, body);
    const withUrl = await patch({ url: 'https://kinds.heartbeats.test/' });
    expect(withUrl.status).toBe(422);
    expect(withUrl.body.error).toMatch(/^url: applies to http monitors only/);
    const patchUnchecked = (body: unknown) =>
      v1({ token: owner.token }).raw({
        method: 'PATCH',
        path: `/v1/sites/${siteId}/uptime/monitors/${monitorId}`,
        body,
      });
    expect((await patchUnchecked({ kind: 'http' })).status).toBe(422);
    expect((await patch({ graceSeconds: 600 })).body.monitor.grace_seconds).toBe(600);

    const httpId = await monitorByApi(owner.token, siteId, { url: 'https://kinds.heartbeats.test/' });
    const rotateHttp = await rotate(siteId, httpId);
    expect(rotateHttp.status).toBe(422);
    expect(rotateHttp.body.error).toMatch(/^kind: /);
  });

  it('is kept up by GET or POST pings: plain text, no credential, no cookie; unknown tokens are 404', async () => {
    const { siteId, monitorId, token } = await heartbeat('pings.heartbeats.test');
    const first = await ping(token);
    expect(first).toMatchObject({ status: 200, text: 'OK\n' });
    expect(first.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(first.headers.get('set-cookie')).toBeNull();
    const read = (await getMonitor(siteId, monitorId)).body.monitor;
    expect(read.status).toBe('up');
    expect(read.last_ping_at).toEqual(expect.any(Number));

    // A body and a session change nothing: the token alone counts.
    const posted = await ping(token, 'POST', {
      authorization: `Bearer ${owner.token}`,
      'content-type': 'application/json',
    });
    expect(posted.status).toBe(200);
    for (const unknown of [`hb_${'A'.repeat(43)}`, `${token.slice(0, -2)}zz`, 'nonsense', 'A'.repeat(5000)]) {
      const res = await ping(unknown);
      expect(res.status, unknown).toBe(404);
      expect(res.text).toMatch(/^not found/);
    }
  });

  it('rotation refuses the old ping URL at once and accepts the new one', async () => {
    const { siteId, monitorId, token } = await heartbeat('rotate.heartbeats.test');
    const rotated = await rotate(siteId, monitorId);
    const fresh = PING_URL.exec(rotated.body.monitor.ping_url)![1]!;
    expect(fresh).not.toBe(token);
    expect((await ping(token)).status).toBe(404);
    expect((await ping(fresh)).status).toBe(200);
  });

  it('counts pings per token and minute: past the limit 429 with Retry-After, and nothing written', async () => {
    const { monitorId, token } = await heartbeat('limit.heartbeats.test');
    const { token: other } = await heartbeat('limit-other.heartbeats.test');
    const minute = Math.ceil(Date.now() / 60_000) * 60_000 + 600_000;
    for (let i = 0; i < PINGS_PER_MINUTE; i++) {
      expect((await recordPing(db, token, minute + i)).kind).toBe('ok');
    }
    const before = await monitorRow(db, monitorId);
    expect(await recordPing(db, token, minute + 45_000)).toEqual({ kind: 'limited', retryAfterSeconds: 15 });
    expect((await monitorRow(db, monitorId)).last_ping_at).toBe(before.last_ping_at);
    // Another token's count is its own; the next minute starts over.
    expect((await recordPing(db, other, minute + 45_000)).kind).toBe('ok');
    expect((await recordPing(db, token, minute + 60_000)).kind).toBe('ok');

    // Through the route: the limit is reached within the current minute (tried again should the
    // minute end in between), and the answer says when to come back.
    let limited: PingResult | undefined;
    for (let attempt = 0; attempt < 3 && limited?.status !== 429; attempt++) {
      const now = Date.now();
      for (let i = 0; i < PINGS_PER_MINUTE; i++) await recordPing(db, other, now);
      limited = await ping(other);
    }
    expect(limited!.status).toBe(429);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited!.text).toMatch(/^too many pings: at most 60 a minute/);
  });

  it('that stops opens exactly one incident, alerts once, and the next ping recovers it once', async () => {
    const saved = await v1({ token: owner.token }).PATCH('/v1/notifications', {
      // The owner receives uptime alerts by mail from the start; the Slack stand-in on top.
      body: { uptimeWebhooks: [{ kind: 'slack', url: slack.url }] },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const { siteId, monitorId, token } = await heartbeat('stops.heartbeats.test', {
      ...HEARTBEAT,
      name: 'Stopping job',
    });
    // The other cases' heartbeats, never pinged, are missed too on this clock: only this one's messages count.
    const ours = () =>
      slack.requests.map((r) => r.body.text as string).filter((t) => t.includes('Stopping job'));
    expect((await ping(token)).status).toBe(200);
    const lastPing = (await monitorRow(db, monitorId)).last_ping_at!;
    const deadline = lastPing + (300 + 120) * 1000;
    expect((await monitorRow(db, monitorId)).next_probe_at).toBe(deadline);

    // Minute ticks up to the deadline: nothing is missed yet.
    for (let t = lastPing + 60_000; t < deadline; t += 60_000) await checkHeartbeats(db, t);
    expect(await incidentsOf(db, monitorId)).toEqual([]);
    // Past it, tick after tick (and two checks at once, as overlapping invocations would): one incident.
    await Promise.all([checkHeartbeats(db, deadline), checkHeartbeats(db, deadline)]);
    for (let t = deadline + 60_000; t <= deadline + 10 * 60_000; t += 60_000) await checkHeartbeats(db, t);
    const [incident, ...more] = await incidentsOf(db, monitorId);
    expect(more).toEqual([]);
    expect(incident).toMatchObject({ cause: 'missed_heartbeat', down_at: deadline, recovered_at: null });
    expect((await getMonitor(siteId, monitorId)).body.monitor).toMatchObject({
      status: 'down',
      status_since: deadline,
    });

    const clock = { now: () => Date.now() + 3600_000 };
    const deliverAll = async () => {
      await dispatchEvents(db, clock);
      while ((await deliverDue(db, clock)).claimed > 0);
    };
    await deliverAll();
    await deliverAll();
    expect((await outboxOf(db, monitorId)).map((n) => n.kind)).toEqual(['uptime-down']);
    const [down] = await outboxOf(db, monitorId);
    expect(down!.payload).toMatchObject({
      monitorKind: 'heartbeat',
      cause: 'missed_heartbeat',
      incidentId: incident!.id,
      downAt: deadline,
      lastPingAt: lastPing,
    });
    expect(ours()).toEqual([expect.stringMatching(/^Down: Stopping job/)]);

    // The job pings again: the incident closes at the ping, and the recovery goes out once.
    const back = await ping(token);
    expect(back.status).toBe(200);
    await ping(token);
    const [closed] = await incidentsOf(db, monitorId);
    expect(closed).toMatchObject({ closed_by: 'recovery', recovered_at: expect.any(Number) });
    expect((await monitorRow(db, monitorId)).status).toBe('up');
    await checkHeartbeats(db, Date.now());
    await deliverAll();
    await deliverAll();
    // (Queued on two clocks, the check's ahead of the wall's: compared as a set.)
    expect((await outboxOf(db, monitorId)).map((n) => n.kind).sort()).toEqual([
      'uptime-down',
      'uptime-recovered',
    ]);
    expect(ours()).toEqual([
      expect.stringMatching(/^Down: Stopping job/),
      expect.stringMatching(/^Recovered: Stopping job/),
    ]);
    const mails = (
      await db
        .select({ subject: mailMessages.subject, text: mailMessages.text })
        .from(mailMessages)
        .where(eq(mailMessages.to, 'owner@heartbeats.test'))
        .orderBy(mailMessages.created_at)
    ).filter((m) => m.subject.includes('Stopping job'));
    expect(mails.map((m) => m.subject)).toEqual([
      expect.stringMatching(/^Down: Stopping job/),
      expect.stringMatching(/^Recovered: Stopping job/),
    ]);
    expect(mails[0]!.text).toContain('missed its heartbeat');
    expect(
      (await db.select().from(notificationOutbox).where(eq(notificationOutbox.site_id, siteId))).length,
    ).toBe(2);
  });

  it('paused, is watched by nobody: no incident, and resumed it has a whole period again', async () => {
    const { siteId, monitorId, token } = await heartbeat('paused.heartbeats.test');
    expect((await ping(token)).status).toBe(200);
    const patch = (body: RequestBody<'/v1/sites/{id}/uptime/monitors/{monitorId}', 'patch'>) =>
      patchMonitor(siteId, monitorId, body);
    expect((await patch({ enabled: false })).body.monitor.status).toBe('unknown');
    const row = await monitorRow(db, monitorId);
    expect(row.next_probe_at).toBeNull();
    await checkHeartbeats(db, Date.now() + 24 * 3600_000);
    expect(await incidentsOf(db, monitorId)).toEqual([]);
    // A ping while paused is answered and kept, but moves nothing.
    expect((await ping(token)).status).toBe(200);
    expect((await monitorRow(db, monitorId)).status).toBe('unknown');

    const resumedAt = Date.now();
    await patch({ enabled: true });
    const resumed = await monitorRow(db, monitorId);
    expect(resumed.next_probe_at).toBeGreaterThanOrEqual(resumedAt + 420_000);
    await checkHeartbeats(db, resumed.next_probe_at! - 1);
    expect(await incidentsOf(db, monitorId)).toEqual([]);
    await checkHeartbeats(db, resumed.next_probe_at!);
    expect((await incidentsOf(db, monitorId)).map((i) => i.cause)).toEqual(['missed_heartbeat']);
  });

  it('the ping route changes nothing for a token of a deleted monitor', async () => {
    const { siteId, monitorId, token } = await heartbeat('deleted.heartbeats.test');
    const deleted = await v1({ token: owner.token }).DELETE('/v1/sites/{id}/uptime/monitors/{monitorId}', {
      params: { path: { id: siteId, monitorId } },
    });
    expect(deleted.status).toBe(200);
    expect((await ping(token)).status).toBe(404);
    expect(await db.select().from(uptimeMonitors).where(eq(uptimeMonitors.id, monitorId))).toEqual([]);
  });
});
