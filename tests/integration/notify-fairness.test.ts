import type { IncomingMessage, ServerResponse } from 'node:http';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createNotifyFunction } from '@/jobs/functions/notify';
import { sendEvent, startJobRuntime, stopJobRuntime } from '@/jobs/runtime';
import type { Db } from '@/lib/db/client';
import { notificationDeliveries, notificationReceivers } from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import { BREAKER_FIRST_OPEN_MS, BREAKER_THRESHOLD } from '@/lib/notify/breaker';
import {
  DEFAULT_SLOW_TENANT_IN_FLIGHT,
  DEFAULT_TENANT_IN_FLIGHT,
  deliverDue,
  dispatchEvents,
} from '@/lib/notify/deliver';
import { enqueueNotification } from '@/lib/notify/outbox';
import { updateOrgSettings } from '@/lib/notify/settings';
import { type RequestBody, v1 } from '../support/api-client';
import { quietLogger } from '../support/crawl';
import { useTestDatabase } from '../support/db';
import { insertSite } from '../support/fixtures';
import { signInOwner } from '../support/http';
import { readRequestBody, startServer, type TestServer } from '../support/http-server';

/*
 * Fair delivery (issue 23 item 2) against real HTTP servers on loopback: one tenant's tarpit
 * webhooks (they accept the connection and never answer) cannot delay another tenant's down alert,
 * a receiver never has two deliveries in flight, and a receiver that keeps failing has its circuit
 * opened, held, probed half-open and closed again by a success, as the delivery log and
 * GET /v1/notifications/receivers show.
 */

let db: Db;
let teardown: () => Promise<void>;
type Owner = { token: string; userId: string; tenantId: string };
let hostile: Owner;
let victim: Owner;
let flaky: Owner;
let hostileSite: string;
let victimSite: string;
let flakySite: string;

/** Tarpits: each path takes the request and never answers; open requests per path are tracked. */
let tarpit: TestServer;
const open = new Map<string, number>();
let mostAtOnce = 0;
let mostPerPath = 0;
const held: ServerResponse[] = [];

/** The victim's receiver: when each alert arrived, by the receiver's clock. */
let receiver: TestServer;
const arrivals: { at: number; body: Record<string, unknown> }[] = [];

/** A receiver that answers `status` (changed by the test). */
let flakyServer: TestServer;
let flakyStatus = 503;

const TARPITS = 5;
const HOSTILE_EVENTS = 10;

async function patchOrg(owner: Owner, body: RequestBody<'/v1/notifications', 'patch'>) {
  const res = await v1({ token: owner.token }).PATCH('/v1/notifications', { body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

let queued = 0;
function downAlert(owner: Owner, siteId: string, at: number) {
  return enqueueNotification(db, {
    tenantId: owner.tenantId,
    siteId,
    kind: 'uptime-down',
    payload: {
      monitorId: '6a1f8a0e-3f55-4a40-9a0e-5d1d3c1b2a10',
      monitorName: 'Home page',
      url: 'https://fairness.example/',
      incidentId: `incident-${++queued}`,
      downAt: at,
    },
    dedupeKey: `fairness:${++queued}`,
    now: at,
  });
}

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  hostile = await signInOwner(db, 'owner@hostile.test');
  victim = await signInOwner(db, 'owner@victim.test');
  flaky = await signInOwner(db, 'owner@flaky.test');
  // These tests count webhook deliveries: the owners' default uptime mail (a new organization's
  // owner receives uptime alerts) is left out.
  for (const org of [hostile, victim, flaky])
    await updateOrgSettings(db, org.tenantId, { uptimeRecipients: [] });
  hostileSite = await insertSite(db, hostile.tenantId, 'hostile.example');
  victimSite = await insertSite(db, victim.tenantId, 'victim.example');
  flakySite = await insertSite(db, flaky.tenantId, 'flaky.example');
  tarpit = await startServer('127.0.0.2', {
    '*': (req: IncomingMessage, res: ServerResponse) => {
      const path = req.url ?? '/';
      open.set(path, (open.get(path) ?? 0) + 1);
      mostPerPath = Math.max(mostPerPath, open.get(path) ?? 0);
      mostAtOnce = Math.max(
        mostAtOnce,
        [...open.values()].reduce((a, b) => a + b, 0),
      );
      held.push(res);
      req.socket.on('close', () => open.set(path, (open.get(path) ?? 1) - 1));
    },
  });
  receiver = await startServer('127.0.0.3', {
    'POST /services/T0/B0/victim': async (req, res) => {
      const at = Date.now();
      const body = JSON.parse(await readRequestBody(req)) as Record<string, unknown>;
      arrivals.push({ at, body });
      res.end('ok');
    },
  });
  flakyServer = await startServer('127.0.0.4', {
    'POST /hook': async (req, res) => {
      await readRequestBody(req);
      res.statusCode = flakyStatus;
      res.end(flakyStatus === 200 ? 'ok' : 'upstream down');
    },
  });
  await patchOrg(hostile, {
    uptimeWebhooks: Array.from({ length: TARPITS }, (_, i) => ({
      kind: 'http',
      url: tarpit.url(`/hook/${i}`),
    })),
  });
  await patchOrg(victim, {
    uptimeWebhooks: [{ kind: 'slack', url: receiver.url('/services/T0/B0/victim') }],
  });
  await patchOrg(flaky, { uptimeWebhooks: [{ kind: 'http', url: flakyServer.url('/hook') }] });
});

afterAll(async () => {
  await stopJobRuntime();
  await Promise.all([tarpit?.close(), receiver?.close(), flakyServer?.close()]);
  await closeDispatchers();
  await teardown();
});

describe('a tenant whose webhooks hang', () => {
  it("cannot delay another tenant's down alert: delivered within 5 s of its incident", async () => {
    await startJobRuntime({
      functions: [createNotifyFunction()],
      force: true,
      runner: { logger: quietLogger },
    });
    const t0 = Date.now();
    for (let i = 0; i < HOSTILE_EVENTS; i++) await downAlert(hostile, hostileSite, t0);
    await sendEvent({ name: 'notify/queued', data: { reason: 'test' } });
    // The tarpits are holding the workers they were given.
    await vi.waitFor(() => expect(tarpit.requests.length).toBeGreaterThanOrEqual(DEFAULT_TENANT_IN_FLIGHT), {
      timeout: 10_000,
      interval: 50,
    });
    const queuedBehind = await db
      .select()
      .from(notificationDeliveries)
      .where(
        and(
          eq(notificationDeliveries.tenant_id, hostile.tenantId),
          eq(notificationDeliveries.state, 'pending'),
        ),
      );
    expect(queuedBehind.length).toBeGreaterThanOrEqual(TARPITS * HOSTILE_EVENTS - DEFAULT_TENANT_IN_FLIGHT);

    // The victim's monitor goes down now; the round loop queues the alert and says so.
    const incidentAt = Date.now();
    await downAlert(victim, victimSite, incidentAt);
    await sendEvent({ name: 'notify/queued', data: { reason: 'uptime' } });
    await vi.waitFor(() => expect(arrivals).toHaveLength(1), { timeout: 20_000, interval: 50 });
    const latency = arrivals[0]!.at - incidentAt;
    expect(latency).toBeLessThan(5_000);
    expect(String(arrivals[0]!.body.text)).toContain('Home page');

    // Never two deliveries in flight to one receiver, nor more than the tenant's caps at once.
    expect(mostPerPath).toBe(1);
    expect(mostAtOnce).toBeLessThanOrEqual(DEFAULT_TENANT_IN_FLIGHT + DEFAULT_SLOW_TENANT_IN_FLIGHT);

    // After their first timeout the tarpits are on the slow lane, failures counted, shown to their
    // owner only (origin only: the path of a webhook is its credential).
    await vi.waitFor(
      async () => {
        const rows = await db
          .select()
          .from(notificationReceivers)
          .where(eq(notificationReceivers.tenant_id, hostile.tenantId));
        expect(rows.filter((r) => r.slow === 1 && r.consecutive_failures >= 1)).toHaveLength(
          DEFAULT_TENANT_IN_FLIGHT,
        );
      },
      { timeout: 20_000, interval: 250 },
    );
    const seen = await v1({ token: hostile.token }).GET('/v1/notifications/receivers');
    expect(seen.status).toBe(200);
    const slowOnes = seen.body.receivers.filter((r: { health: { slow: boolean } }) => r.health.slow);
    expect(slowOnes).toHaveLength(DEFAULT_TENANT_IN_FLIGHT);
    expect(slowOnes[0]).toMatchObject({
      kind: 'http',
      url: `${tarpit.origin}/…`,
      health: { circuit: 'closed', consecutiveFailures: 1, slow: true },
    });
    expect(JSON.stringify(seen.body)).not.toContain('/hook/');
    const theirs = await v1({ token: victim.token }).GET('/v1/notifications/receivers');
    expect(theirs.body.receivers.map((r: { url: string }) => r.url)).toEqual([`${receiver.origin}/…`]);

    // Let the hostile tenant's sends end (connections dropped) and stop the worker.
    for (const res of held.splice(0)) res.socket?.destroy();
    await tarpit.close();
    await stopJobRuntime();
    await db.delete(notificationDeliveries).where(eq(notificationDeliveries.tenant_id, hostile.tenantId));
  }, 60_000);
});

describe("a receiver's circuit breaker", () => {
  const flakyRow = async () =>
    (
      await db.select().from(notificationReceivers).where(eq(notificationReceivers.tenant_id, flaky.tenantId))
    )[0]!;
  const drain = async (now: number) => {
    await dispatchEvents(db, { now: () => now });
    return deliverDue(db, { now: () => now });
  };

  it(`opens after ${BREAKER_THRESHOLD} failures in a row, holds, probes half-open and closes on success`, async () => {
    const t0 = Date.now();
    flakyStatus = 503;
    for (let i = 0; i < 5; i++) await downAlert(flaky, flakySite, t0);
    const first = await drain(t0);
    // One at a time to the receiver: the third failure opened the circuit, the last two wait unsent.
    expect(first).toMatchObject({ claimed: BREAKER_THRESHOLD, retrying: BREAKER_THRESHOLD, sent: 0 });
    expect(flakyServer.hits('/hook')).toBe(BREAKER_THRESHOLD);
    expect(await flakyRow()).toMatchObject({
      consecutive_failures: BREAKER_THRESHOLD,
      opens: 1,
      opened_at: t0,
      open_until: t0 + BREAKER_FIRST_OPEN_MS,
      last_failure: 'the webhook answered HTTP 503: upstream down',
    });

    // Visible in the delivery log (each delivery shows its receiver's circuit) and the receivers list.
    const log = await v1({ token: flaky.token }).GET('/v1/notifications/deliveries');
    expect(log.status).toBe(200);
    expect(log.body.deliveries).toHaveLength(5);
    for (const d of log.body.deliveries)
      expect(d.receiverHealth).toMatchObject({
        circuit: 'open',
        consecutiveFailures: BREAKER_THRESHOLD,
        openedAt: t0,
        retryAt: t0 + BREAKER_FIRST_OPEN_MS,
        slow: false,
      });
    const listed = await v1({ token: flaky.token }).GET('/v1/notifications/receivers');
    expect(listed.body.receivers).toEqual([
      {
        kind: 'http',
        url: `${flakyServer.origin}/…`,
        health: {
          circuit: 'open',
          consecutiveFailures: BREAKER_THRESHOLD,
          openedAt: t0,
          retryAt: t0 + BREAKER_FIRST_OPEN_MS,
          slow: false,
          lastFailure: 'the webhook answered HTTP 503: upstream down',
          lastFailureAt: t0,
          lastSuccessAt: null,
        },
        waiting: 5,
      },
    ]);
    // Another tenant sees none of it.
    const other = await v1({ token: victim.token }).GET('/v1/notifications/receivers');
    expect(JSON.stringify(other.body)).not.toContain(flakyServer.origin);

    // Still open: nothing goes out.
    expect(await drain(t0 + BREAKER_FIRST_OPEN_MS - 1)).toMatchObject({ claimed: 0 });
    expect(flakyServer.hits('/hook')).toBe(BREAKER_THRESHOLD);

    // Half-open and failing again: open again, for twice as long.
    const probeAt = t0 + BREAKER_FIRST_OPEN_MS;
    expect(await drain(probeAt)).toMatchObject({ claimed: 1, retrying: 1 });
    expect(await flakyRow()).toMatchObject({
      consecutive_failures: BREAKER_THRESHOLD + 1,
      opens: 2,
      opened_at: t0,
      open_until: probeAt + 2 * BREAKER_FIRST_OPEN_MS,
    });

    // The receiver is back: the half-open probe closes the circuit, and what came due meanwhile
    // follows in the same session (the first three's retries, the fifth never sent, the probe's retry).
    flakyStatus = 200;
    const backAt = probeAt + 2 * BREAKER_FIRST_OPEN_MS;
    expect(await drain(backAt)).toMatchObject({ claimed: 5, sent: 5, retrying: 0 });
    expect(flakyServer.hits('/hook')).toBe(BREAKER_THRESHOLD + 1 + 5);
    expect(await flakyRow()).toMatchObject({
      consecutive_failures: 0,
      opens: 0,
      opened_at: null,
      open_until: null,
      last_success_at: backAt,
    });
    const states = await db
      .select({ state: notificationDeliveries.state })
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.tenant_id, flaky.tenantId));
    expect(states.map((s) => s.state)).toEqual(Array(5).fill('sent'));
  });
});
