import { and, asc, eq, gt, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import {
  probeHourlyBuckets,
  probeResults,
  type UptimeIncident,
  type UptimeMonitor,
  uptimeIncidents,
} from '@/lib/db/schema';
import { uncountedSpans } from './maintenance';
import { findMonitor } from './monitors';
import { type IncidentResource, incidentResource, type MonitorResource, monitorResource } from './resource';
import { HOUR_MS, type HourlyBucket, hourStart, uptimePct } from './rollup';
import { REGIONS } from './types';

/**
 * Hourly storage (README.md, "Metrics"): raw probe results are kept while their hour is open, then
 * rolled into one bucket per (monitor, region, hour) and deleted; buckets are kept 90 days. The
 * percentiles are Postgres's `percentile_disc`, the nearest rank `rollupHour` defines
 * (`sorted[ceil(p * n) - 1]`, the same double arithmetic), over the hour's successful probes.
 */

/** A closed hour is rolled up this long after it ends: every round started in it has finished by then (a round's lease is at most 95 s). */
export const ROLLUP_GRACE_MS = 5 * 60_000;
/** Buckets older than this are pruned. */
export const BUCKET_RETENTION_MS = 90 * 24 * HOUR_MS;
/** Monitors rolled up per transaction, so the embedded database is never held for long. */
const ROLLUP_MONITORS_PER_BATCH = 50;

/** The hourly aggregate of raw results matching `where`, as bucket rows. */
function bucketsOf(where: SQL) {
  return sql`select ${probeResults.tenant_id} as tenant_id, ${probeResults.monitor_id} as monitor_id,
      ${probeResults.region} as region,
      (${probeResults.checked_at} / ${HOUR_MS}::bigint) * ${HOUR_MS}::bigint as bucket_start,
      count(*)::int as total,
      (count(*) filter (where ${probeResults.ok} = 0))::int as failed,
      percentile_disc(0.5) within group (order by ${probeResults.latency_ms}) filter (where ${probeResults.ok} = 1) as p50_ms,
      percentile_disc(0.95) within group (order by ${probeResults.latency_ms}) filter (where ${probeResults.ok} = 1) as p95_ms
    from ${probeResults} where ${where}
    group by 1, 2, 3, 4`;
}

/**
 * Rolls every hour that closed at least ROLLUP_GRACE_MS before `now` into buckets and deletes its
 * raw results, a batch of monitors per transaction; prunes buckets past the retention. Idempotent:
 * a bucket already written is kept (ON CONFLICT DO NOTHING), and its raw rows go either way.
 */
export async function rollupClosedHours(
  db: Db,
  now: number,
): Promise<{ monitors: number; buckets: number; pruned: number }> {
  const cutoff = hourStart(now - ROLLUP_GRACE_MS);
  let monitors = 0;
  let buckets = 0;
  for (;;) {
    const batch = await queryRows<{ monitor_id: string }>(
      db,
      sql`select distinct ${probeResults.monitor_id} as monitor_id from ${probeResults}
        where ${probeResults.checked_at} < ${cutoff}::bigint limit ${ROLLUP_MONITORS_PER_BATCH}::int`,
    );
    if (batch.length === 0) break;
    const ids = sql.join(
      batch.map((b) => sql`${b.monitor_id}::uuid`),
      sql`, `,
    );
    const closed = sql`${probeResults.checked_at} < ${cutoff}::bigint and ${probeResults.monitor_id} in (${ids})`;
    await db.transaction(async (tx) => {
      const inserted = await queryRows(
        tx,
        sql`insert into ${probeHourlyBuckets} (tenant_id, monitor_id, region, bucket_start, total, failed, p50_ms, p95_ms)
          ${bucketsOf(closed)}
          on conflict (monitor_id, region, bucket_start) do nothing
          returning 1`,
      );
      buckets += inserted.length;
      await tx.execute(sql`delete from ${probeResults} where ${closed}`);
    });
    monitors += batch.length;
  }
  const pruned = await db
    .delete(probeHourlyBuckets)
    .where(lt(probeHourlyBuckets.bucket_start, now - BUCKET_RETENTION_MS))
    .returning({ start: probeHourlyBuckets.bucket_start });
  return { monitors, buckets, pruned: pruned.length };
}

export interface MonitorMetrics {
  monitor: MonitorResource;
  fromMs: number;
  hours: HourlyBucket[];
  events: IncidentResource[];
  uptimePct: number | null;
}

/**
 * GET .../metrics?hours=: the range is the `hours` before `now`. Buckets are the closed hours
 * overlapping it (stored ones, and those closed but not rolled up yet, computed from their raw
 * results the same way), oldest first and by region; events are the incidents overlapping it;
 * `uptimePct` is incident-based over the range (null when the monitor did not exist in it).
 */
export async function getMonitorMetrics(
  db: Db,
  principal: Principal,
  { siteId, monitorId }: { siteId: string; monitorId: string },
  hours: number,
  now = Date.now(),
): Promise<MonitorMetrics> {
  const { monitor } = await findMonitor(db, principal, { siteId, monitorId });
  const fromMs = now - hours * HOUR_MS;
  const buckets = await closedHoursOf(db, monitor.tenant_id, [monitor.id], fromMs, now);
  const range = await uptimeOverRange(db, monitor, fromMs, now);
  return {
    monitor: monitorResource(monitor, principal),
    fromMs,
    hours: buckets.get(monitor.id) ?? [],
    ...range,
  };
}

/**
 * Each listed monitor's hourly buckets for the closed hours overlapping `[fromMs, now)`: stored
 * ones, and those closed but not rolled up yet, computed from their raw results the same way;
 * oldest first and by region. Two queries whatever the number of monitors (the monitors list).
 */
export async function closedHoursOf(
  db: Db,
  tenantId: string,
  monitorIds: readonly string[],
  fromMs: number,
  now: number,
): Promise<Map<string, HourlyBucket[]>> {
  const byMonitor = new Map<string, Map<string, HourlyBucket>>(monitorIds.map((id) => [id, new Map()]));
  if (monitorIds.length === 0) return new Map();
  const firstHour = hourStart(fromMs);
  const openHour = hourStart(now);
  const stored = await db
    .select()
    .from(probeHourlyBuckets)
    .where(
      and(
        eq(probeHourlyBuckets.tenant_id, tenantId),
        inArray(probeHourlyBuckets.monitor_id, [...monitorIds]),
        sql`${probeHourlyBuckets.bucket_start} >= ${firstHour}::bigint`,
        lt(probeHourlyBuckets.bucket_start, openHour),
      ),
    );
  const pending = await queryRows<{
    monitor_id: string;
    region: string;
    bucket_start: string | number;
    total: number;
    failed: number;
    p50_ms: number | null;
    p95_ms: number | null;
  }>(
    db,
    bucketsOf(
      and(
        eq(probeResults.tenant_id, tenantId),
        inArray(probeResults.monitor_id, [...monitorIds]),
        sql`${probeResults.checked_at} >= ${firstHour}::bigint`,
        lt(probeResults.checked_at, openHour),
      ) as SQL,
    ),
  );
  const put = (monitorId: string, b: HourlyBucket) =>
    byMonitor.get(monitorId)?.set(`${b.bucketStart}:${b.region}`, b);
  for (const p of pending) {
    put(p.monitor_id, {
      bucketStart: Number(p.bucket_start),
      region: p.region as HourlyBucket['region'],
      total: Number(p.total),
      failed: Number(p.failed),
      p50Ms: p.p50_ms === null ? null : Number(p.p50_ms),
      p95Ms: p.p95_ms === null ? null : Number(p.p95_ms),
    });
  }
  // A stored bucket is the hour's final word (its raw results are gone once it is written).
  for (const b of stored) {
    put(b.monitor_id, {
      bucketStart: b.bucket_start,
      region: b.region,
      total: b.total,
      failed: b.failed,
      p50Ms: b.p50_ms,
      p95Ms: b.p95_ms,
    });
  }
  return new Map(
    [...byMonitor].map(([id, buckets]) => [
      id,
      [...buckets.values()].sort(
        (a, b) => a.bucketStart - b.bucketStart || REGIONS.indexOf(a.region) - REGIONS.indexOf(b.region),
      ),
    ]),
  );
}

/**
 * A monitor's incidents overlapping `[fromMs, toMs)`, oldest first, and its incident-based uptime
 * over the time it was watched in the range (after its creation, outside its pauses and maintenance
 * windows; null when it was not watched in any of it): the metrics endpoint's `events` and
 * `uptimePct`, and the monthly report's per-monitor figures.
 */
export async function uptimeOverRange(
  db: Db,
  monitor: Pick<UptimeMonitor, 'tenant_id' | 'id' | 'created_at'>,
  fromMs: number,
  toMs: number,
): Promise<{ events: IncidentResource[]; uptimePct: number | null }> {
  const incidents =
    (await incidentsOverlapping(db, monitor.tenant_id, [monitor.id], fromMs, toMs)).get(monitor.id) ?? [];
  const uncounted = (await uncountedSpans(db, monitor.tenant_id, [monitor.id], fromMs, toMs)).get(monitor.id);
  return {
    events: incidents.map(incidentResource),
    uptimePct: uptimePct(
      fromMs,
      toMs,
      monitor.created_at,
      incidents.map((i) => ({ downAt: i.down_at, recoveredAt: i.recovered_at })),
      uncounted,
    ),
  };
}

/**
 * Each listed monitor's incidents overlapping `[fromMs, toMs)` (an open one runs on), oldest first:
 * one query whatever the number of monitors.
 */
export async function incidentsOverlapping(
  db: Db,
  tenantId: string,
  monitorIds: readonly string[],
  fromMs: number,
  toMs: number,
): Promise<Map<string, UptimeIncident[]>> {
  if (monitorIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(uptimeIncidents)
    .where(
      and(
        eq(uptimeIncidents.tenant_id, tenantId),
        inArray(uptimeIncidents.monitor_id, [...monitorIds]),
        lt(uptimeIncidents.down_at, toMs),
        or(isNull(uptimeIncidents.recovered_at), gt(uptimeIncidents.recovered_at, fromMs)),
      ),
    )
    .orderBy(asc(uptimeIncidents.down_at), asc(uptimeIncidents.id));
  const byMonitor = new Map<string, UptimeIncident[]>(monitorIds.map((id) => [id, []]));
  for (const row of rows) byMonitor.get(row.monitor_id)?.push(row);
  return byMonitor;
}
