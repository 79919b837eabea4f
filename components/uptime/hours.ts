import type { HourlyBucket, UptimeIncident, UptimeMonitor } from '@/components/api/types';
import { REGIONS, type Region } from '@/lib/uptime/types';

/*
 * Hourly readings of a monitor's metrics for the health bar and the latency chart. Pure: the clock
 * goes in as `now`.
 */

export const HOUR_MS = 3_600_000;

/**
 * One closed hour of the health bar:
 * - `down`: an incident (confirmed by two or more regions) covered part of it;
 * - `failures`: some probes failed without an incident (one region, or a blip a retry cleared);
 * - `up`: every probe of every region succeeded;
 * - `none`: no probe ran (before the monitor existed, paused, or the app off).
 */
export type HourState = 'down' | 'failures' | 'up' | 'none';

export interface HourSlot {
  start: number;
  state: HourState;
  total: number;
  failed: number;
  /** The hour in progress: no bucket yet, so its state comes from incidents and the latest round. */
  current?: true;
}

/**
 * The last `count` hours, oldest first: the closed hours the metrics endpoint answers for, then the
 * hour in progress, which has no bucket until it closes. That last one is down when an incident
 * covers it, and otherwise `current`: what the latest round said (see `currentHourState`).
 */
export function hourSlots(
  buckets: readonly HourlyBucket[],
  incidents: readonly Pick<UptimeIncident, 'down_at' | 'recovered_at'>[],
  now: number,
  current: HourState = 'none',
  count = 24,
): HourSlot[] {
  const currentHour = Math.floor(now / HOUR_MS) * HOUR_MS;
  const byHour = new Map<number, { total: number; failed: number }>();
  for (const b of buckets) {
    const hour = byHour.get(b.bucketStart) ?? { total: 0, failed: 0 };
    hour.total += b.total;
    hour.failed += b.failed;
    byHour.set(b.bucketStart, hour);
  }
  const incidentIn = (start: number, end: number) =>
    incidents.some((x) => x.down_at < end && (x.recovered_at ?? Number.POSITIVE_INFINITY) > start);
  const closed = Array.from({ length: count - 1 }, (_, i): HourSlot => {
    const start = currentHour - (count - 1 - i) * HOUR_MS;
    const { total, failed } = byHour.get(start) ?? { total: 0, failed: 0 };
    const state: HourState = incidentIn(start, start + HOUR_MS)
      ? 'down'
      : total === 0
        ? 'none'
        : failed > 0
          ? 'failures'
          : 'up';
    return { start, state, total, failed };
  });
  const inProgress: HourSlot = {
    start: currentHour,
    state: incidentIn(currentHour, now + 1) ? 'down' : current,
    total: 0,
    failed: 0,
    current: true,
  };
  return [...closed, inProgress];
}

/** The hour in progress as far as the latest round tells: up, failing somewhere, or not checked yet. */
export function currentHourState(
  monitor: Pick<UptimeMonitor, 'status' | 'last_checked_at'>,
  now: number,
): HourState {
  const hourStart = Math.floor(now / HOUR_MS) * HOUR_MS;
  if (monitor.last_checked_at === null || monitor.last_checked_at < hourStart) return 'none';
  if (monitor.status === 'up') return 'up';
  return monitor.status === 'unknown' ? 'none' : 'failures';
}

/** One hour of the latency chart: each region's p50 or p95 (null where the region has no figure). */
export type LatencyPoint = { bucketStart: number } & Record<Region, number | null>;

/** Every hour any region has a bucket for, oldest first, with the chosen percentile per region. */
export function latencySeries(
  buckets: readonly HourlyBucket[],
  percentile: 'p50Ms' | 'p95Ms',
): LatencyPoint[] {
  const byHour = new Map<number, LatencyPoint>();
  for (const b of buckets) {
    let point = byHour.get(b.bucketStart);
    if (!point) {
      point = { bucketStart: b.bucketStart, na: null, eu: null, as: null, oc: null };
      byHour.set(b.bucketStart, point);
    }
    point[b.region] = b[percentile];
  }
  return [...byHour.values()].sort((a, b) => a.bucketStart - b.bucketStart);
}

/** The highest figure of a series and where it was: the chart's summary for screen readers. */
export function peakOf(points: readonly LatencyPoint[]): { ms: number; region: Region; at: number } | null {
  let peak: { ms: number; region: Region; at: number } | null = null;
  for (const point of points) {
    for (const region of REGIONS) {
      const ms = point[region];
      if (ms !== null && (peak === null || ms > peak.ms)) peak = { ms, region, at: point.bucketStart };
    }
  }
  return peak;
}
