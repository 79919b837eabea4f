import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { probeHourlyBuckets, probeResults, uptimeIncidents, uptimeMonitors } from '@/lib/db/schema';
import { NotFoundError } from '@/lib/errors';
import { getMonitorLive } from '@/lib/uptime/live';
import { getMonitorMetrics } from '@/lib/uptime/metrics';
import { listMonitorOverviews } from '@/lib/uptime/overview';
import { HOUR_MS } from '@/lib/uptime/rollup';
import { useTestDatabase } from '../support/db';
import { insertSite } from '../support/fixtures';
import { signInOwner } from '../support/http';

/*
 * The Uptime tab's list (issue 14 leftover 2): every monitor of the site with its live state and its
 * last 24 hours in a fixed number of queries, answering exactly what the live and metrics endpoints
 * answer for each monitor, which the list used to ask for twice per monitor.
 */

let db: Db;
let teardown: () => Promise<void>;
let principal: Principal;
let siteId: string;
let otherSiteId: string;
let strangerSiteId: string;
const NOW = Date.UTC(2026, 10, 24, 12, 30, 0);
const OPEN_HOUR = NOW - 30 * 60_000;

async function addMonitor(
  tenantId: string,
  site: string,
  n: number,
  values: Partial<typeof uptimeMonitors.$inferInsert> = {},
) {
  const [m] = await db
    .insert(uptimeMonitors)
    .values({
      tenant_id: tenantId,
      site_id: site,
      url: `https://overview.example/${n}`,
      enabled: 1,
      next_probe_at: NOW + 60_000,
      created_at: NOW - 48 * HOUR_MS + n,
      updated_at: NOW - 48 * HOUR_MS,
      ...values,
    })
    .returning();
  return m!;
}

const probe = (region: string, ok: boolean, totalMs: number, roundAt: number) => ({
  region,
  roundAt,
  checkedAt: roundAt + 5,
  ok,
  status: ok ? 200 : 503,
  totalMs,
  phases: { dnsMs: 1, connectMs: 2, tlsMs: 3, firstByteMs: 4 },
  tlsCertExpiresAt: null,
  cause: ok ? null : 'http_5xx',
  error: ok ? null : 'HTTP 503',
  attempts: ok ? 1 : 2,
});

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  const owner = await signInOwner(db, 'owner@uptime-overview.test');
  const stranger = await signInOwner(db, 'owner@uptime-overview-stranger.test');
  principal = { tenantId: owner.tenantId, via: 'key', siteIds: 'all', canCrawl: true };
  siteId = await insertSite(db, owner.tenantId, 'overview.example');
  otherSiteId = await insertSite(db, owner.tenantId, 'overview-other.example');
  strangerSiteId = await insertSite(db, stranger.tenantId, 'overview-stranger.example');

  // Up, with a stored bucket two hours back and raw results of the last closed hour not rolled up yet.
  const up = await addMonitor(owner.tenantId, siteId, 1, {
    status: 'up',
    status_since: NOW - 40 * HOUR_MS,
    last_checked_at: NOW - 60_000,
    latest_probes: { na: probe('na', true, 120, NOW - 60_000), eu: probe('eu', true, 90, NOW - 60_000) },
    last_consensus: {
      at: NOW - 60_000,
      status: 'up',
      failedRegions: [],
      slowRegions: [],
      cause: null,
      degradedBy: null,
      slowThresholdMs: 2000,
    },
  });
  await db.insert(probeHourlyBuckets).values([
    {
      tenant_id: owner.tenantId,
      monitor_id: up.id,
      region: 'na',
      bucket_start: OPEN_HOUR - 2 * HOUR_MS,
      total: 60,
      failed: 1,
      p50_ms: 100,
      p95_ms: 180,
    },
    // Older than the day: not in the list's bar.
    {
      tenant_id: owner.tenantId,
      monitor_id: up.id,
      region: 'na',
      bucket_start: OPEN_HOUR - 30 * HOUR_MS,
      total: 60,
      failed: 0,
      p50_ms: 100,
      p95_ms: 180,
    },
  ]);
  const raw = (monitorId: string, checkedAt: number, ok: boolean, latency: number) => ({
    tenant_id: owner.tenantId,
    monitor_id: monitorId,
    region: 'eu' as const,
    round_at: checkedAt - 5,
    checked_at: checkedAt,
    ok: ok ? 1 : 0,
    status_code: ok ? 200 : 503,
    latency_ms: latency,
    attempts: 1,
  });
  await db.insert(probeResults).values([
    raw(up.id, OPEN_HOUR - HOUR_MS + 1_000, true, 80),
    raw(up.id, OPEN_HOUR - HOUR_MS + 61_000, false, 5_000),
    raw(up.id, OPEN_HOUR - HOUR_MS + 121_000, true, 95),
    // The open hour: no bucket yet.
    raw(up.id, OPEN_HOUR + 1_000, true, 70),
  ]);

  // Down, with an open incident and one that recovered yesterday within the day.
  const down = await addMonitor(owner.tenantId, siteId, 2, {
    status: 'down',
    status_since: NOW - 2 * HOUR_MS,
    last_checked_at: NOW - 30_000,
    latest_probes: {
      na: probe('na', false, 10_000, NOW - 30_000),
      as: probe('as', false, 10_000, NOW - 30_000),
    },
  });
  await db.insert(uptimeIncidents).values([
    {
      tenant_id: owner.tenantId,
      monitor_id: down.id,
      down_at: NOW - 20 * HOUR_MS,
      recovered_at: NOW - 19 * HOUR_MS,
      cause: 'timeout',
      regions: [],
      created_at: NOW - 20 * HOUR_MS,
    },
    {
      tenant_id: owner.tenantId,
      monitor_id: down.id,
      down_at: NOW - 2 * HOUR_MS,
      recovered_at: null,
      cause: 'http_5xx',
      regions: [],
      created_at: NOW - 2 * HOUR_MS,
    },
    // Long over: outside the day.
    {
      tenant_id: owner.tenantId,
      monitor_id: down.id,
      down_at: NOW - 40 * HOUR_MS,
      recovered_at: NOW - 39 * HOUR_MS,
      cause: 'dns',
      regions: [],
      created_at: NOW - 40 * HOUR_MS,
    },
  ]);

  // Paused, never checked; then two on another site of the tenant (past the pool of 4: the newest is held).
  await addMonitor(owner.tenantId, siteId, 3, { enabled: 0, next_probe_at: null });
  await addMonitor(owner.tenantId, otherSiteId, 4);
  await addMonitor(owner.tenantId, otherSiteId, 5);
  await addMonitor(stranger.tenantId, strangerSiteId, 6);
});
afterAll(() => teardown());

it('answers, for each monitor of the site and oldest first, what its live and 24-hour metrics reads answer', async () => {
  const overviews = await listMonitorOverviews(db, principal, siteId, NOW);
  expect(overviews.map((o) => o.monitor.url)).toEqual([1, 2, 3].map((n) => `https://overview.example/${n}`));
  for (const overview of overviews) {
    const id = overview.monitor.id;
    // The monitor page's read adds the windows and the 90 days' incidents, measured at the same instant.
    // The overview leaves out what only the monitor page reads: the windows, the incidents, who was alerted.
    const {
      at,
      uptime,
      incidents,
      alerting: _alerting,
      ...live
    } = await getMonitorLive(db, principal, { siteId, monitorId: id }, NOW);
    const metrics = await getMonitorMetrics(db, principal, { siteId, monitorId: id }, 24, NOW);
    expect(overview).toEqual({ ...live, hours: metrics.hours, events: metrics.events });
    expect(at).toBe(NOW);
    expect(uptime[0]).toMatchObject({ hours: 24, uptimePct: metrics.uptimePct });
    expect(incidents.filter((i) => i.recovered_at === null || i.recovered_at > metrics.fromMs)).toEqual(
      metrics.events,
    );
  }
  const [up, down, paused] = overviews;
  // The stored bucket and the pending hour, computed the same way; nothing older, nothing open.
  expect(up!.hours.map((h) => [h.bucketStart, h.region, h.total, h.failed, h.p50Ms])).toEqual([
    [OPEN_HOUR - 2 * HOUR_MS, 'na', 60, 1, 100],
    [OPEN_HOUR - HOUR_MS, 'eu', 3, 1, 80],
  ]);
  expect(down!.events.map((e) => e.cause)).toEqual(['timeout', 'http_5xx']);
  expect(down!.openIncident?.cause).toBe('http_5xx');
  expect(paused!.probing).toEqual({
    active: false,
    pausedBy: 'monitor',
    alsoPausedBy: [],
    nextRoundAt: null,
  });
  expect(paused!.hours).toEqual([]);

  // The other site's list holds its two, the newest held at the pooled allowance (4 with overage off).
  const other = await listMonitorOverviews(db, principal, otherSiteId, NOW);
  expect(other.map((o) => [o.monitor.url, o.probing.pausedBy])).toEqual([
    ['https://overview.example/4', null],
    ['https://overview.example/5', 'allowance'],
  ]);
});

it('is 404 for a site the caller cannot see, and empty for a site without monitors', async () => {
  await expect(listMonitorOverviews(db, principal, strangerSiteId, NOW)).rejects.toBeInstanceOf(
    NotFoundError,
  );
  const empty = await insertSite(db, principal.tenantId, 'overview-empty.example');
  expect(await listMonitorOverviews(db, principal, empty, NOW)).toEqual([]);
});
