import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import {
  domainRegistrations,
  maintenanceWindows,
  probeHourlyBuckets,
  probeResults,
  uptimeMonitors,
  uptimePauses,
} from '@/lib/db/schema';
import { getMonitorMetrics, rollupClosedHours } from '@/lib/uptime/metrics';
import { pruneUptimeHistory } from '@/lib/uptime/retention';
import { DAY_MS, HOUR_MS, type HourlyBucket, type RawProbe, rollupHour } from '@/lib/uptime/rollup';
import { REGIONS } from '@/lib/uptime/types';
import { useTestDatabase } from '../support/db';
import { insertSite } from '../support/fixtures';
import { signInOwner } from '../support/http';

/*
 * The hourly rollup (issue 14 item 5): raw results of a closed hour become one bucket per region
 * whose p50/p95 are exactly `rollupHour`'s nearest ranks over the successful probes, the raw rows
 * go, the open hour stays raw, and metrics answer the same before and after.
 */

let db: Db;
let teardown: () => Promise<void>;
let tenantId: string;
let siteId: string;
let monitorId: string;
let principal: Principal;

/** The open hour; three closed ones before it hold results. */
const H = Date.UTC(2026, 10, 24, 12, 0, 0);
const raws: RawProbe[] = [];

/** A small deterministic generator, so the data is the same on every run and every database. */
function generator(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  ({ tenantId } = await signInOwner(db, 'owner@uptime-rollup.test'));
  siteId = await insertSite(db, tenantId, 'uptime-rollup.example');
  principal = { tenantId, via: 'key', siteIds: 'all', canCrawl: true };
  const [m] = await db
    .insert(uptimeMonitors)
    .values({
      tenant_id: tenantId,
      site_id: siteId,
      url: 'https://uptime-rollup.example/',
      enabled: 0,
      created_at: H - 10 * HOUR_MS,
      updated_at: H - 10 * HOUR_MS,
    })
    .returning();
  monitorId = m!.id;

  const random = generator(14);
  for (const hour of [H - 3 * HOUR_MS, H - 2 * HOUR_MS, H - HOUR_MS, H]) {
    for (const region of REGIONS) {
      // oc did not probe at all in the first hour; as failed every probe of the second.
      if (region === 'oc' && hour === H - 3 * HOUR_MS) continue;
      const n = 20 + Math.floor(random() * 50);
      for (let i = 0; i < n; i++) {
        const ok = !(region === 'as' && hour === H - 2 * HOUR_MS) && random() > 0.1;
        raws.push({
          region,
          checkedAt: hour + Math.floor(random() * HOUR_MS),
          ok,
          // Fractions of a millisecond, as probes measure them: the percentiles must come back exact.
          totalMs: Math.round(random() * 200_000) / 100,
        });
      }
    }
  }
  await db.insert(probeResults).values(
    raws.map((r) => ({
      tenant_id: tenantId,
      monitor_id: monitorId,
      region: r.region,
      round_at: r.checkedAt,
      checked_at: r.checkedAt,
      ok: r.ok ? 1 : 0,
      latency_ms: r.totalMs,
      cause: r.ok ? null : 'timeout',
    })),
  );
});
afterAll(() => teardown());

const expected = (hours: number[]) => hours.flatMap((hour) => rollupHour(hour, raws));
const stored = async (): Promise<HourlyBucket[]> =>
  (
    await db
      .select()
      .from(probeHourlyBuckets)
      .where(eq(probeHourlyBuckets.monitor_id, monitorId))
      .orderBy(asc(probeHourlyBuckets.bucket_start), asc(probeHourlyBuckets.region))
  )
    .map((b) => ({
      bucketStart: b.bucket_start,
      region: b.region,
      total: b.total,
      failed: b.failed,
      p50Ms: b.p50_ms,
      p95Ms: b.p95_ms,
    }))
    .sort((a, b) => a.bucketStart - b.bucketStart || REGIONS.indexOf(a.region) - REGIONS.indexOf(b.region));
const rawCount = async () =>
  (
    await db
      .select({ at: probeResults.checked_at })
      .from(probeResults)
      .where(eq(probeResults.monitor_id, monitorId))
  ).length;

it('answers closed hours from the raw results before they are rolled up, exactly as rollupHour does', async () => {
  const metrics = await getMonitorMetrics(db, principal, { siteId, monitorId }, 4, H + 20 * 60_000);
  const closed = expected([H - 3 * HOUR_MS, H - 2 * HOUR_MS, H - HOUR_MS]);
  expect(metrics.hours).toEqual(closed);
  // The shapes the data was built to have: oc missing from the first hour, as all failed in the second.
  expect(closed.filter((b) => b.bucketStart === H - 3 * HOUR_MS).map((b) => b.region)).toEqual([
    'na',
    'eu',
    'as',
  ]);
  expect(closed.find((b) => b.bucketStart === H - 2 * HOUR_MS && b.region === 'as')).toMatchObject({
    p50Ms: null,
    p95Ms: null,
  });
  // Closed hours only: the open hour's results are not a bucket yet.
  expect(metrics.hours.some((b) => b.bucketStart === H)).toBe(false);
  // 2 hours back from 12:20 covers the closed hours from 10:00.
  const two = await getMonitorMetrics(db, principal, { siteId, monitorId }, 2, H + 20 * 60_000);
  expect(two.hours).toEqual(expected([H - 2 * HOUR_MS, H - HOUR_MS]));
});

it('waits out the grace period before rolling an hour up', async () => {
  // At 12:02 the 11:00 hour closed only 2 minutes ago: a round started before 12:00 may still be out.
  const early = await rollupClosedHours(db, H + 2 * 60_000);
  expect(early.buckets).toBe(expected([H - 3 * HOUR_MS, H - 2 * HOUR_MS]).length);
  expect(await stored()).toEqual(expected([H - 3 * HOUR_MS, H - 2 * HOUR_MS]));
});

it('rolls every closed hour into exact buckets, deletes their raw results and keeps the open hour', async () => {
  const before = await getMonitorMetrics(db, principal, { siteId, monitorId }, 4, H + 20 * 60_000);
  const result = await rollupClosedHours(db, H + 10 * 60_000);
  expect(result.buckets).toBe(expected([H - HOUR_MS]).length);
  expect(await stored()).toEqual(expected([H - 3 * HOUR_MS, H - 2 * HOUR_MS, H - HOUR_MS]));
  expect(await rawCount()).toBe(raws.filter((r) => r.checkedAt >= H).length);
  // Metrics read the stored buckets now, and answer the same.
  expect(await getMonitorMetrics(db, principal, { siteId, monitorId }, 4, H + 20 * 60_000)).toEqual(before);
  // Again: nothing left to roll up.
  expect(await rollupClosedHours(db, H + 10 * 60_000)).toMatchObject({ monitors: 0, buckets: 0 });
});

it('prunes buckets older than 90 days', async () => {
  const old = H - 91 * 24 * HOUR_MS;
  await db.insert(probeHourlyBuckets).values({
    tenant_id: tenantId,
    monitor_id: monitorId,
    region: 'na',
    bucket_start: old,
    total: 1,
    failed: 0,
    p50_ms: 1,
    p95_ms: 1,
  });
  const { pruned } = await rollupClosedHours(db, H + 10 * 60_000);
  expect(pruned).toBe(1);
  expect((await stored()).some((b) => b.bucketStart === old)).toBe(false);
  expect(await stored()).toHaveLength(expected([H - 3 * HOUR_MS, H - 2 * HOUR_MS, H - HOUR_MS]).length);
});

it('prunes the pauses and maintenance windows older than every figure, and the domains nobody watches', async () => {
  const old = H - 91 * DAY_MS;
  const recent = H - 89 * DAY_MS;
  const pauses = await db
    .insert(uptimePauses)
    .values([
      {
        tenant_id: tenantId,
        monitor_id: monitorId,
        reason: 'monitor',
        started_at: old - DAY_MS,
        ended_at: old,
      },
      { tenant_id: tenantId, monitor_id: monitorId, reason: 'monitor', started_at: old, ended_at: recent },
    ])
    .returning({ id: uptimePauses.id });
  const window = (ends: number) => ({
    tenant_id: tenantId,
    site_id: siteId,
    title: 'Work',
    starts_at: ends - HOUR_MS,
    ends_at: ends,
    all_monitors: 1 as const,
    created_at: ends - DAY_MS,
    updated_at: ends - DAY_MS,
  });
  const windows = await db
    .insert(maintenanceWindows)
    .values([window(old), window(recent)])
    .returning({ id: maintenanceWindows.id });
  await db.update(uptimeMonitors).set({ domain: 'watched.example' }).where(eq(uptimeMonitors.id, monitorId));
  const domain = (name: string, createdAt: number) => ({
    domain: name,
    next_check_at: H,
    created_at: createdAt,
  });
  await db
    .insert(domainRegistrations)
    .values([
      domain('watched.example', old),
      domain('forgotten.example', H - 2 * DAY_MS),
      domain('just-added.example', H - HOUR_MS),
    ]);

  expect(await pruneUptimeHistory(db, H)).toEqual({ pauses: 1, windows: 1, domains: 1 });
  expect((await db.select({ id: uptimePauses.id }).from(uptimePauses)).map((r) => r.id)).toEqual([
    pauses[1]!.id,
  ]);
  expect((await db.select({ id: maintenanceWindows.id }).from(maintenanceWindows)).map((r) => r.id)).toEqual([
    windows[1]!.id,
  ]);
  const domains = await db
    .select({ domain: domainRegistrations.domain })
    .from(domainRegistrations)
    .orderBy(asc(domainRegistrations.domain));
  expect(domains.map((d) => d.domain)).toEqual(['just-added.example', 'watched.example']);
  // Again: nothing left to prune.
  expect(await pruneUptimeHistory(db, H)).toEqual({ pauses: 0, windows: 0, domains: 0 });
});
