import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import selfsigned from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import { setOverage } from '@/lib/billing/settings';
import type { Db } from '@/lib/db/client';
import { probeResults, uptimeIncidents, uptimeMonitors } from '@/lib/db/schema';
import { readStoredWebhooks, storeWebhooks } from '@/lib/notify/stored-webhooks';
import { RoundLoop, runDueRounds } from '@/lib/uptime/coordinator';
import { getMonitorLive } from '@/lib/uptime/live';
import { getMonitorMetrics } from '@/lib/uptime/metrics';
import { embeddedProbers, type RegionFault } from '@/lib/uptime/regions';
import { claimDueRounds, completeRound } from '@/lib/uptime/rounds';
import { roundLeaseMs } from '@/lib/uptime/schedule';
import type { Region } from '@/lib/uptime/types';
import { useTestDatabase } from '../support/db';
import { insertSite } from '../support/fixtures';
import { signInOwner } from '../support/http';
import { closedPort, hang, startServer, type TestServer } from '../support/http-server';
import * as uptime from '../support/uptime';

/*
 * Rounds against real local servers (issue 14 items 2, 4, 6): every region probes through lib/net,
 * the coordinator's consensus sets the status and opens or closes incidents, the outbox gets the
 * notifications, and leases keep two workers off the same round. Rounds run on a simulated clock
 * (`runDueRounds` at a given `now`); the probes themselves are real.
 */

let db: Db;
let teardown: () => Promise<void>;
let tenantId: string;
let siteId: string;
let principal: Principal;
let target: TestServer;

/** Four regions, a failed probe retried after 10 ms; `failing` regions cannot reach the target. */
let failing: Region[] = [];
const faultIn =
  (region: Region): RegionFault =>
  () =>
    failing.includes(region) ? 'cut off (test fault)' : null;
const probers = () =>
  embeddedProbers({
    retryDelayMs: 10,
    faults: { na: faultIn('na'), eu: faultIn('eu'), as: faultIn('as'), oc: faultIn('oc') },
  });

const T0 = Date.UTC(2026, 10, 24, 10, 0, 0);

async function addMonitor(url: string, values: Partial<typeof uptimeMonitors.$inferInsert> = {}) {
  const [row] = await db
    .insert(uptimeMonitors)
    .values({
      tenant_id: tenantId,
      site_id: siteId,
      url,
      cadence_seconds: 60,
      timeout_seconds: 5,
      enabled: 1,
      alert_emails: ['oncall@example.com'],
      alert_webhooks: storeWebhooks([{ kind: 'http', url: 'https://hooks.example/uptime' }], tenantId),
      next_probe_at: T0,
      created_at: T0 - 1,
      updated_at: T0 - 1,
      ...values,
    })
    .returning();
  return row!;
}

const monitorRow = (id: string) => uptime.monitorRow(db, id);
const incidentsOf = (id: string) => uptime.incidentsOf(db, id);
const outboxOf = (id: string) => uptime.outboxOf(db, id);

/** Runs the monitor's next round (at its due time); only it is due then, other monitors being paused or later. */
async function nextRound(id: string) {
  const due = (await monitorRow(id)).next_probe_at!;
  const finished = await runDueRounds(db, probers(), { now: due });
  const mine = finished.find((f) => f.round.monitorId === id);
  if (!mine) throw new Error(`no round of ${id} at ${due}`);
  return mine;
}

/** Stops a monitor being claimed by later tests' rounds. */
const retire = (id: string) => db.update(uptimeMonitors).set({ enabled: 0 }).where(eq(uptimeMonitors.id, id));

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  ({ tenantId } = await signInOwner(db, 'owner@uptime-rounds.test'));
  siteId = await insertSite(db, tenantId, 'uptime-rounds.example');
  // Rounds here, not the allowance: with overage on no monitor past the pool of 2 is held.
  await setOverage(db, tenantId, true);
  principal = { tenantId, via: 'key', siteIds: 'all', canCrawl: true };
  target = await startServer('127.0.0.1', {
    '/': { body: 'ok' },
    '/error': { status: 503 },
    '/missing': { status: 404 },
    '/loop-a': { status: 302, headers: { location: '/loop-b' } },
    '/loop-b': { status: 302, headers: { location: '/loop-a' } },
    '/hang': hang,
    '/slowish': { body: 'late', delayMs: 2_300 },
  });
});
afterAll(async () => {
  await target.close();
  await teardown();
});

describe('a round', () => {
  it('probes from every region, stores each result with its phases and judges the target up', async () => {
    const m = await addMonitor(target.url('/'));
    const { outcome, startedAt } = await nextRound(m.id);
    expect(outcome).toMatchObject({ completed: true, events: [] });
    expect(outcome.verdict).toMatchObject({ status: 'up', failedRegions: [], cause: null });

    const rows = await db.select().from(probeResults).where(eq(probeResults.monitor_id, m.id));
    expect(rows.map((r) => r.region).sort()).toEqual(['as', 'eu', 'na', 'oc']);
    for (const r of rows) {
      expect(r).toMatchObject({ round_at: T0, ok: 1, status_code: 200, attempts: 1, cause: null });
      expect(r.connect_ms).toBeGreaterThanOrEqual(0);
      expect(r.first_byte_ms).toBeGreaterThanOrEqual(0);
      expect(r.latency_ms).toBeGreaterThan(0);
    }
    const after = await monitorRow(m.id);
    expect(after).toMatchObject({
      status: 'up',
      status_since: startedAt,
      last_checked_at: startedAt,
      lease_id: null,
    });
    // The next round lands on the monitor's phase, between half a cadence and a cadence and a half on.
    expect(after.next_probe_at).toBeGreaterThan(T0 + 30_000);
    expect(after.next_probe_at).toBeLessThanOrEqual(T0 + 90_000);

    const live = await getMonitorLive(db, principal, { siteId, monitorId: m.id });
    expect(live.consensus).toMatchObject({ status: 'up', at: startedAt, slowThresholdMs: 2_000 });
    expect(live.regions.map((r) => [r.region, r.probe?.statusCode, r.probe?.roundAt])).toEqual([
      ['na', 200, T0],
      ['eu', 200, T0],
      ['as', 200, T0],
      ['oc', 200, T0],
    ]);
    expect(live.regions[0]!.probe!.phases.connectMs).toBeGreaterThanOrEqual(0);
    expect(live.openIncident).toBeNull();

    // The next round is one cadence after it: status_since stays where the status began.
    const second = await nextRound(m.id);
    expect(second.round.roundAt).toBe(after.next_probe_at);
    expect((await monitorRow(m.id)).status_since).toBe(startedAt);
    expect((await monitorRow(m.id)).next_probe_at).toBe(after.next_probe_at! + 60_000);
    await retire(m.id);
  });

  it('degrades a target slower than the threshold everywhere, without an incident', async () => {
    // Slow is past 2 s (or half the timeout); the target answers in 2.3 s, well within 5 s.
    const m = await addMonitor(target.url('/slowish'), { timeout_seconds: 5 });
    const { outcome } = await nextRound(m.id);
    expect(outcome.verdict).toMatchObject({ status: 'degraded', degradedBy: 'slow', failedRegions: [] });
    expect(outcome.verdict?.slowRegions).toEqual(['na', 'eu', 'as', 'oc']);
    expect(await incidentsOf(m.id)).toEqual([]);
    await retire(m.id);
  });
});

describe('targets that fail, each with its cause', () => {
  async function certificateServer(notBefore: Date, notAfter: Date) {
    const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
      notBeforeDate: notBefore,
      notAfterDate: notAfter,
      keySize: 2048,
      algorithm: 'sha256',
    });
    const server = https.createServer({ key: pems.private, cert: pems.cert }, (_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `https://localhost:${(server.address() as AddressInfo).port}/`,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  const cases: { name: string; url: () => Promise<string> | string; timeout?: number; cause: string }[] = [
    {
      name: 'a refused connection',
      url: async () => `http://127.0.0.1:${await closedPort()}/`,
      cause: 'network',
    },
    { name: 'a 5xx answer', url: () => target.url('/error'), cause: 'http_5xx' },
    { name: 'a 4xx answer', url: () => target.url('/missing'), cause: 'http_4xx' },
    { name: 'a redirect loop', url: () => target.url('/loop-a'), cause: 'redirect' },
    { name: 'no answer within the timeout', url: () => target.url('/hang'), timeout: 1, cause: 'timeout' },
    { name: 'a name that does not resolve', url: () => 'http://nothing-here.invalid/', cause: 'dns' },
  ];

  it.each(cases)('$name: down with cause $cause, one incident, one notification', async (c) => {
    const m = await addMonitor(await c.url(), { timeout_seconds: c.timeout ?? 5 });
    const { outcome, startedAt } = await nextRound(m.id);
    expect(outcome.verdict).toMatchObject({ status: 'down', cause: c.cause });
    const rows = await db.select().from(probeResults).where(eq(probeResults.monitor_id, m.id));
    expect(rows).toHaveLength(4);
    for (const r of rows) expect(r).toMatchObject({ ok: 0, cause: c.cause, attempts: 2 });
    expect(rows.every((r) => typeof r.detail === 'string' && r.detail.length > 0)).toBe(true);

    const [incident, ...more] = await incidentsOf(m.id);
    expect(more).toEqual([]);
    expect(incident).toMatchObject({ down_at: startedAt, recovered_at: null, cause: c.cause });
    const snapshot = incident!.regions as { region: string; ok: boolean; cause: string }[];
    expect(snapshot.map((r) => [r.region, r.ok, r.cause])).toEqual(
      ['na', 'eu', 'as', 'oc'].map((region) => [region, false, c.cause]),
    );
    const [down] = await outboxOf(m.id);
    expect(down).toMatchObject({
      kind: 'uptime-down',
      site_id: siteId,
      dedupe_key: `uptime-down:${incident!.id}`,
    });
    expect(down!.payload).toMatchObject({
      monitorId: m.id,
      url: m.url,
      incidentId: incident!.id,
      downAt: startedAt,
      cause: c.cause,
      // The four probes ran in this process: one location, no region to name (uptime-places.test.ts).
      failingRegions: [],
      probedFrom: 'server',
      alertEmails: ['oncall@example.com'],
      // Sealed in the payload as in the monitor (a chat webhook URL is its credential).
      alertWebhooks: [{ kind: 'http', sealedUrl: expect.stringMatching(/^v1\./) }],
    });
    expect(readStoredWebhooks((down!.payload as { alertWebhooks: unknown }).alertWebhooks, tenantId)).toEqual(
      [{ kind: 'http', url: 'https://hooks.example/uptime' }],
    );
    expect(JSON.stringify(down!.payload)).not.toContain('hooks.example');
    await retire(m.id);
  });

  it.each([
    {
      name: 'an expired certificate',
      from: new Date('2020-01-01T00:00:00Z'),
      to: new Date('2020-02-01T00:00:00Z'),
    },
    {
      name: 'a self-signed certificate',
      from: new Date(T0 - 86_400_000),
      to: new Date(Math.floor((T0 + 200 * 86_400_000) / 1000) * 1000),
    },
  ])('$name: down with cause tls, its expiry stored', async ({ from, to }) => {
    const server = await certificateServer(from, to);
    try {
      const m = await addMonitor(server.url);
      const { outcome } = await nextRound(m.id);
      expect(outcome.verdict).toMatchObject({ status: 'down', cause: 'tls' });
      const rows = await db.select().from(probeResults).where(eq(probeResults.monitor_id, m.id));
      for (const r of rows) expect(r).toMatchObject({ cause: 'tls', cert_expires_at: to.getTime() });
      const live = await getMonitorLive(db, principal, { siteId, monitorId: m.id });
      expect(live.regions.map((r) => r.probe?.tlsCertExpiresAt)).toEqual([
        to.getTime(),
        to.getTime(),
        to.getTime(),
        to.getTime(),
      ]);
      expect(live.openIncident?.cause).toBe('tls');
      await retire(m.id);
    } finally {
      await server.close();
    }
  });

  it('warns once at 14 days and once at 3 days before a certificate expires', async () => {
    const expires = Math.floor((Date.now() + 10 * 86_400_000) / 1000) * 1000;
    const server = await certificateServer(new Date(Date.now() - 86_400_000), new Date(expires));
    try {
      // Rounds run at the real time, then 8 days on (2 days left).
      const m = await addMonitor(server.url, { next_probe_at: Date.now() });
      await nextRound(m.id);
      await nextRound(m.id);
      const warnings = async () =>
        (await outboxOf(m.id)).filter((n) => n.kind === 'certificate-expiring').map((n) => n.payload);
      expect(await warnings()).toEqual([
        expect.objectContaining({ monitorId: m.id, expiresAt: expires, days: 14 }),
      ]);
      await db
        .update(uptimeMonitors)
        .set({ next_probe_at: expires - 2 * 86_400_000 })
        .where(eq(uptimeMonitors.id, m.id));
      await nextRound(m.id);
      await nextRound(m.id);
      expect((await warnings()).map((w) => (w as { days: number }).days)).toEqual([14, 3]);
      await retire(m.id);
    } finally {
      await server.close();
    }
  });
});

describe('consensus across regions', () => {
  it('one region failing is degraded, naming it, and opens no incident', async () => {
    const m = await addMonitor(target.url('/'));
    failing = ['eu'];
    try {
      const { outcome } = await nextRound(m.id);
      expect(outcome.verdict).toMatchObject({
        status: 'degraded',
        degradedBy: 'region',
        failedRegions: ['eu'],
      });
      expect((await monitorRow(m.id)).status).toBe('degraded');
      expect(await incidentsOf(m.id)).toEqual([]);
      expect(await outboxOf(m.id)).toEqual([]);
      const live = await getMonitorLive(db, principal, { siteId, monitorId: m.id });
      expect(live.regions.find((r) => r.region === 'eu')?.probe).toMatchObject({
        ok: false,
        cause: 'network',
      });
    } finally {
      failing = [];
      await retire(m.id);
    }
  });

  it('two regions failing open one incident with the cause and every region in the snapshot', async () => {
    const m = await addMonitor(target.url('/'));
    failing = ['eu', 'oc'];
    try {
      const { outcome, startedAt } = await nextRound(m.id);
      expect(outcome.verdict).toMatchObject({
        status: 'down',
        cause: 'network',
        failedRegions: ['eu', 'oc'],
      });
      const [incident, ...more] = await incidentsOf(m.id);
      expect(more).toEqual([]);
      expect(incident).toMatchObject({ down_at: startedAt, cause: 'network', recovered_at: null });
      const snapshot = incident!.regions as { region: string; ok: boolean }[];
      expect(snapshot.map((r) => [r.region, r.ok])).toEqual([
        ['na', true],
        ['eu', false],
        ['as', true],
        ['oc', false],
      ]);
      expect((await outboxOf(m.id)).map((n) => n.kind)).toEqual(['uptime-down']);
    } finally {
      failing = [];
      await retire(m.id);
    }
  });

  it('a target that goes down and comes back: one incident, closed after 2 healthy rounds', async () => {
    const server = await startServer('127.0.0.3', { '/': { body: 'up' } });
    const port = server.port;
    const m = await addMonitor(server.url('/'));
    expect((await nextRound(m.id)).outcome.verdict?.status).toBe('up');
    await server.close();
    const down = await nextRound(m.id);
    expect(down.outcome.verdict).toMatchObject({ status: 'down', cause: 'network' });
    expect((await nextRound(m.id)).outcome.verdict?.status).toBe('down');
    const back = await startServer('127.0.0.3', { '/': { body: 'up again' } }, { port });
    try {
      const firstHealthy = await nextRound(m.id);
      expect((await incidentsOf(m.id))[0]?.recovered_at).toBeNull();
      await nextRound(m.id);
      const [incident, ...more] = await incidentsOf(m.id);
      expect(more).toEqual([]);
      expect(incident).toMatchObject({ down_at: down.startedAt, recovered_at: firstHealthy.startedAt });
      expect((await monitorRow(m.id)).status).toBe('up');
      const notes = await outboxOf(m.id);
      expect(notes.map((n) => n.kind)).toEqual(['uptime-down', 'uptime-recovered']);
      expect(notes[1]!.payload).toMatchObject({
        incidentId: incident!.id,
        recoveredAt: firstHealthy.startedAt,
      });
    } finally {
      await back.close();
      await retire(m.id);
    }
  });

  it('a flapping target opens one incident, not one per dip', async () => {
    const m = await addMonitor(target.url('/'));
    const sequence: Region[][] = [['na', 'eu'], [], ['as', 'oc'], [], ['eu', 'as'], [], []];
    const statuses: string[] = [];
    for (const regions of sequence) {
      failing = regions;
      statuses.push((await nextRound(m.id)).outcome.verdict!.status);
    }
    failing = [];
    expect(statuses).toEqual(['down', 'up', 'down', 'up', 'down', 'up', 'up']);
    const incidents = await incidentsOf(m.id);
    expect(incidents).toHaveLength(1);
    expect(incidents[0]!.recovered_at).not.toBeNull();
    expect((await outboxOf(m.id)).map((n) => n.kind)).toEqual(['uptime-down', 'uptime-recovered']);
    await retire(m.id);
  });
});

describe('leases', () => {
  it('two claims at once never take the same round', async () => {
    const ids = await Promise.all(
      Array.from({ length: 6 }, (_, i) => addMonitor(target.url(`/?m=${i}`))),
    ).then((rows) => rows.map((r) => r.id));
    const [a, b] = await Promise.all([
      claimDueRounds(db, { now: T0, limit: 4 }),
      claimDueRounds(db, { now: T0, limit: 4 }),
    ]);
    const claimed = [...a!, ...b!].map((r) => r.monitorId);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.filter((id) => ids.includes(id)).sort()).toEqual([...ids].sort());
    // Everything due is leased now: nobody else gets it.
    expect(await claimDueRounds(db, { now: T0 + 1_000, limit: 100 })).toEqual([]);
    for (const id of ids) await retire(id);
  });

  it('an interrupted round is claimed again once its lease runs out, and the lost lease writes nothing', async () => {
    const m = await addMonitor(target.url('/'));
    const [crashed] = await claimDueRounds(db, { now: T0, limit: 10 });
    expect(crashed).toMatchObject({ monitorId: m.id, roundAt: T0, leaseUntil: T0 + roundLeaseMs(5) });
    // The worker died: its lease holds the round until it runs out.
    expect(await claimDueRounds(db, { now: T0 + 30_000, limit: 10 })).toEqual([]);
    const afterLease = T0 + roundLeaseMs(5) + 1;
    const finished = await runDueRounds(db, probers(), { now: afterLease });
    expect(finished.map((f) => [f.round.monitorId, f.round.roundAt])).toEqual([[m.id, T0]]);
    expect(finished[0]!.outcome.completed).toBe(true);
    // The first worker comes back to life: its completion is refused.
    const late = await completeRound(db, crashed!, [], T0, afterLease);
    expect(late).toEqual({ completed: false, verdict: null, events: [] });
    const rows = await db.select().from(probeResults).where(eq(probeResults.monitor_id, m.id));
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map((r) => r.round_at))).toEqual(new Set([T0]));
    await retire(m.id);
  });

  it('two round loops on one database probe each round exactly once', async () => {
    const server = await startServer('127.0.0.4', { '/': { body: 'ok' } });
    try {
      const now = Date.now();
      const ids: string[] = [];
      for (let i = 0; i < 8; i++)
        ids.push((await addMonitor(server.url(`/?m=${i}`), { next_probe_at: now })).id);
      const loops = [0, 1].map(
        () => new RoundLoop(async () => db, { probers: embeddedProbers({ retryDelayMs: 10 }), pollMs: 50 }),
      );
      const runs = loops.map((loop) => loop.run());
      // Every monitor's first round done, by one loop or the other (the next ones are 30 s or more away).
      for (let i = 0; i < 200; i++) {
        const done = await db
          .select({ id: uptimeMonitors.id })
          .from(uptimeMonitors)
          .where(and(eq(uptimeMonitors.site_id, siteId), eq(uptimeMonitors.status, 'up')));
        if (ids.every((id) => done.some((d) => d.id === id))) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      for (const loop of loops) loop.stop();
      const fired = (await Promise.all(runs)).reduce((n, r) => n + r.rounds, 0);
      expect(fired).toBe(8);
      expect(server.hits('/')).toBe(32);
      for (const id of ids) {
        const rows = await db.select().from(probeResults).where(eq(probeResults.monitor_id, id));
        expect(rows.map((r) => r.region).sort()).toEqual(['as', 'eu', 'na', 'oc']);
        // Fired at its instant: the probe started no earlier than the round's time.
        for (const r of rows) expect(r.checked_at).toBeGreaterThanOrEqual(r.round_at);
      }
      for (const id of ids) await retire(id);
    } finally {
      await server.close();
    }
  });
});

describe('metrics over rounds', () => {
  it('counts the incidents overlapping the range and the uptime after the monitor existed', async () => {
    const m = await addMonitor(target.url('/'), { created_at: T0 - 10 * 3_600_000 });
    const at = (hours: number) => T0 - hours * 3_600_000;
    await db.insert(uptimeIncidents).values([
      {
        tenant_id: tenantId,
        monitor_id: m.id,
        down_at: at(9),
        recovered_at: at(8),
        cause: 'http_5xx',
        created_at: at(9),
      },
      {
        tenant_id: tenantId,
        monitor_id: m.id,
        down_at: at(2),
        recovered_at: at(1.5),
        cause: 'timeout',
        created_at: at(2),
      },
    ]);
    const now = T0 + 30 * 60_000;
    const last3 = await getMonitorMetrics(db, principal, { siteId, monitorId: m.id }, 3, now);
    expect(last3.fromMs).toBe(now - 3 * 3_600_000);
    expect(last3.events.map((e) => e.cause)).toEqual(['timeout']);
    expect(last3.uptimePct).toBeCloseTo(100 * (1 - 0.5 / 3), 10);
    const all = await getMonitorMetrics(db, principal, { siteId, monitorId: m.id }, 24, now);
    expect(all.events.map((e) => e.cause)).toEqual(['http_5xx', 'timeout']);
    // Only the 10.5 hours since the monitor was created count.
    expect(all.uptimePct).toBeCloseTo(100 * (1 - 1.5 / 10.5), 10);
    // A range that ends before the monitor existed says nothing.
    expect(
      (await getMonitorMetrics(db, principal, { siteId, monitorId: m.id }, 1, at(10.5))).uptimePct,
    ).toBeNull();
    await retire(m.id);
  });
});
