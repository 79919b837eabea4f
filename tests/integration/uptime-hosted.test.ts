import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { asc, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as asRoute from '@/app/api/uptime/regions/as/route';
import * as euRoute from '@/app/api/uptime/regions/eu/route';
import * as naRoute from '@/app/api/uptime/regions/na/route';
import * as ocRoute from '@/app/api/uptime/regions/oc/route';
import { setOverage } from '@/lib/billing/settings';
import { resetConfig } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { notificationOutbox, probeResults, uptimeIncidents, uptimeMonitors } from '@/lib/db/schema';
import { runDueRounds } from '@/lib/uptime/coordinator';
import { hostedProber } from '@/lib/uptime/hosted';
import { regionProbers } from '@/lib/uptime/probers';
import { SIGNATURE_HEADER, signBatch } from '@/lib/uptime/signing';
import { REGIONS } from '@/lib/uptime/types';
import { useTestDatabase } from '../support/db';
import { insertSite } from '../support/fixtures';
import { signInOwner } from '../support/http';
import { startServer, type TestServer } from '../support/http-server';

/*
 * Requests made by hand, not through the typed client (tests/support/api-client): the region
 * routes under /api/uptime are not in the /v1 document the client is generated from.
 */

/*
 * The hosted layout (issue 14 item 3): one route per region, pinned to its Vercel region, answering
 * batches the coordinator signed with UPTIME_PROBE_SECRET; anything else is a 401. The routes are
 * served here by a local HTTP server, so the coordinator reaches them over real HTTP through
 * lib/net, as it does on Vercel.
 */

const SECRET = 'a-probe-secret-of-at-least-32-characters';
const ROUTES = { na: naRoute, eu: euRoute, as: asRoute, oc: ocRoute };

let db: Db;
let teardown: () => Promise<void>;
let tenantId: string;
let siteId: string;
let target: TestServer;
let regions: http.Server;
let regionsUrl: string;
const saved = { secret: process.env.UPTIME_PROBE_SECRET, url: process.env.UPTIME_REGIONS_URL };

/** Node's request as a fetch Request for the route handler, and its Response back. */
function serveRoutes(): http.Server {
  return http.createServer(async (req, res) => {
    const region = /^\/api\/uptime\/regions\/(\w+)$/.exec(req.url ?? '')?.[1] as
      | keyof typeof ROUTES
      | undefined;
    const route = region ? ROUTES[region] : undefined;
    if (!route || req.method !== 'POST') {
      res.statusCode = 404;
      return res.end();
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const answer = await route.POST(
      new Request(`http://regions.test${req.url}`, {
        method: 'POST',
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks),
      }),
    );
    res.statusCode = answer.status;
    for (const [name, value] of answer.headers) res.setHeader(name, value);
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
}

const batchFor = (region: string, url: string) =>
  JSON.stringify({ round: 'r1', region, targets: [{ monitorId: 'm1', url, timeoutSeconds: 5 }] });
const post = (
  route: { POST: (req: Request) => Promise<Response> },
  body: string,
  headers: Record<string, string> = {},
) => route.POST(new Request('http://regions.test/', { method: 'POST', headers, body }));

beforeAll(async () => {
  process.env.UPTIME_PROBE_SECRET = SECRET;
  ({ db, teardown } = await useTestDatabase());
  ({ tenantId } = await signInOwner(db, 'owner@uptime-hosted.test'));
  siteId = await insertSite(db, tenantId, 'uptime-hosted.example');
  // Rounds here, not the allowance: with overage on no monitor past the pool of 2 is held.
  await setOverage(db, tenantId, true);
  target = await startServer('127.0.0.1', { '/': { body: 'ok' } });
  regions = serveRoutes();
  await new Promise<void>((resolve) => regions.listen(0, '127.0.0.1', resolve));
  regionsUrl = `http://127.0.0.1:${(regions.address() as AddressInfo).port}`;
  process.env.UPTIME_REGIONS_URL = regionsUrl;
  resetConfig();
});
afterAll(async () => {
  for (const [name, value] of [
    ['UPTIME_PROBE_SECRET', saved.secret],
    ['UPTIME_REGIONS_URL', saved.url],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfig();
  await new Promise<void>((resolve) => regions.close(() => resolve()));
  await target.close();
  await teardown();
});

describe('a region route', () => {
  it("is pinned to its Vercel region (vercel.json: a route's preferredRegion does not survive the build)", () => {
    const { functions } = JSON.parse(readFileSync('vercel.json', 'utf8')) as {
      functions: Record<string, { regions?: string[] }>;
    };
    const pinned = (r: string) => functions[`app/api/uptime/regions/${r}/route.ts`]?.regions;
    expect(Object.fromEntries(REGIONS.map((r) => [r, pinned(r)?.join()]))).toEqual({
      na: 'iad1',
      eu: 'fra1',
      as: 'hnd1',
      oc: 'syd1',
    });
  });

  it('probes a batch the coordinator signed and answers one result per target', async () => {
    const body = batchFor('eu', target.url('/'));
    const res = await post(euRoute, body, { [SIGNATURE_HEADER]: signBatch(SECRET, body, Date.now()) });
    expect(res.status).toBe(200);
    const answer = await res.json();
    expect(answer).toMatchObject({ round: 'r1', region: 'eu', results: [{ ok: true, status: 200 }] });
  });

  it('answers 401 to anything it cannot verify, and probes nothing', async () => {
    const hits = target.hits('/');
    const body = batchFor('eu', target.url('/'));
    const refusals: [string, Record<string, string>, string?][] = [
      ['no signature', {}],
      ['a signature of another secret', { [SIGNATURE_HEADER]: signBatch('x'.repeat(40), body, Date.now()) }],
      ['a stale signature', { [SIGNATURE_HEADER]: signBatch(SECRET, body, Date.now() - 6 * 60_000) }],
      ['a signature over another body', { [SIGNATURE_HEADER]: signBatch(SECRET, `${body} `, Date.now()) }],
      ['garbage', { [SIGNATURE_HEADER]: 't=1,v1=zz' }],
    ];
    for (const [what, headers] of refusals) {
      const res = await post(euRoute, body, headers);
      expect(res.status, what).toBe(401);
      expect(await res.json()).toEqual({ error: 'unauthorized' });
    }
    // Signed, but for another region: eu does not probe na's batch.
    const naBatch = batchFor('na', target.url('/'));
    expect(
      (await post(euRoute, naBatch, { [SIGNATURE_HEADER]: signBatch(SECRET, naBatch, Date.now()) })).status,
    ).toBe(401);
    expect(target.hits('/')).toBe(hits);
  });

  it('refuses a body past its cap before reading it, and every call when no secret is configured', async () => {
    const huge = 'x'.repeat(3 * 1024 * 1024);
    expect(
      (await post(euRoute, huge, { [SIGNATURE_HEADER]: signBatch(SECRET, huge, Date.now()) })).status,
    ).toBe(413);
    delete process.env.UPTIME_PROBE_SECRET;
    resetConfig();
    try {
      const body = batchFor('eu', target.url('/'));
      const res = await post(euRoute, body, { [SIGNATURE_HEADER]: signBatch(SECRET, body, Date.now()) });
      expect(res.status).toBe(401);
    } finally {
      process.env.UPTIME_PROBE_SECRET = SECRET;
      resetConfig();
    }
  });
});

describe('the coordinator with hosted regions', () => {
  it('runs a round through the four region routes over signed HTTP', async () => {
    const probers = regionProbers();
    expect(probers.map((p) => p.region)).toEqual(['na', 'eu', 'as', 'oc']);
    const now = Date.now();
    const [m] = await db
      .insert(uptimeMonitors)
      .values({
        tenant_id: tenantId,
        site_id: siteId,
        url: target.url('/hosted'),
        enabled: 1,
        next_probe_at: now,
        created_at: now,
        updated_at: now,
      })
      .returning();
    target.route('/hosted', { body: 'ok' });
    const [finished] = await runDueRounds(db, probers, { now });
    expect(finished?.outcome.verdict).toMatchObject({ status: 'up', failedRegions: [] });
    expect(target.hits('/hosted')).toBe(4);
    const rows = await db.select().from(probeResults).where(eq(probeResults.monitor_id, m!.id));
    expect(rows.map((r) => r.region).sort()).toEqual(['as', 'eu', 'na', 'oc']);
  });

  it('leaves out regions that refuse it: a round no region answered changes nothing', async () => {
    const wrong = REGIONS.map((region) =>
      hostedProber(region, {
        endpoint: `${regionsUrl}/api/uptime/regions/${region}`,
        secret: 'y'.repeat(40),
      }),
    );
    const now = Date.now();
    const [m] = await db
      .insert(uptimeMonitors)
      .values({
        tenant_id: tenantId,
        site_id: siteId,
        url: target.url('/refused'),
        enabled: 1,
        next_probe_at: now,
        created_at: now,
        updated_at: now,
      })
      .returning();
    const [finished] = await runDueRounds(db, wrong, { now });
    expect(finished?.outcome).toMatchObject({ completed: true, verdict: { status: 'unknown' } });
    expect(target.hits('/refused')).toBe(0);
    const after = (await db.select().from(uptimeMonitors).where(eq(uptimeMonitors.id, m!.id)))[0]!;
    expect(after).toMatchObject({ status: 'unknown', last_checked_at: null, lease_id: null });
    expect(after.next_probe_at).toBeGreaterThan(now);
    expect(await db.select().from(probeResults).where(eq(probeResults.monitor_id, m!.id))).toEqual([]);
  });

  it('opens and closes incidents through the same completion as the embedded regions: one outbox row each', async () => {
    const probers = regionProbers();
    const start = Date.now();
    const [m] = await db
      .insert(uptimeMonitors)
      .values({
        tenant_id: tenantId,
        site_id: siteId,
        url: target.url('/flaky'),
        enabled: 1,
        alert_emails: ['oncall@uptime-hosted.test'],
        next_probe_at: start,
        created_at: start,
        updated_at: start,
      })
      .returning();
    const monitorId = m!.id;
    // Earlier tests' monitors are paused, so each round here is this monitor's alone.
    await db.update(uptimeMonitors).set({ enabled: 0 }).where(ne(uptimeMonitors.id, monitorId));
    /** Runs the monitor's round at `at` (its next round made due then), through the region routes. */
    const roundAt = async (at: number) => {
      await db.update(uptimeMonitors).set({ next_probe_at: at }).where(eq(uptimeMonitors.id, monitorId));
      const finished = await runDueRounds(db, probers, { now: at });
      return finished.find((f) => f.round.monitorId === monitorId)?.outcome;
    };
    const incidents = () =>
      db.select().from(uptimeIncidents).where(eq(uptimeIncidents.monitor_id, monitorId));
    const outbox = async () =>
      (await db.select().from(notificationOutbox).orderBy(asc(notificationOutbox.created_at))).filter(
        (n) => (n.payload as { monitorId?: string }).monitorId === monitorId,
      );

    target.route('/flaky', { status: 503, body: 'down' });
    expect(await roundAt(start)).toMatchObject({ verdict: { status: 'down', cause: 'http_5xx' } });
    expect(await roundAt(start + 60_000)).toMatchObject({ verdict: { status: 'down' } });
    target.route('/flaky', { body: 'ok' });
    expect(await roundAt(start + 120_000)).toMatchObject({ verdict: { status: 'up' } });
    expect((await incidents())[0]?.recovered_at).toBeNull();
    expect(await roundAt(start + 180_000)).toMatchObject({
      verdict: { status: 'up' },
      events: [{ kind: 'recovered' }],
    });

    const [incident, ...more] = await incidents();
    expect(more).toEqual([]);
    expect(incident).toMatchObject({ down_at: start, recovered_at: start + 120_000, cause: 'http_5xx' });
    const rows = await outbox();
    expect(rows.map((r) => [r.kind, r.dedupe_key])).toEqual([
      ['uptime-down', `uptime-down:${incident!.id}`],
      ['uptime-recovered', `uptime-recovered:${incident!.id}`],
    ]);
    expect(rows[0]?.payload).toMatchObject({
      incidentId: incident!.id,
      alertEmails: ['oncall@uptime-hosted.test'],
      failingRegions: ['na', 'eu', 'as', 'oc'],
      probedFrom: 'regions',
    });
  }, 60_000);
});
