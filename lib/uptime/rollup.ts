import { REGIONS, type Region } from './types';

export const HOUR_MS = 3_600_000;

/** The start of the UTC hour holding `ms`. */
export function hourStart(ms: number): number {
  return Math.floor(ms / HOUR_MS) * HOUR_MS;
}

/** What the rollup needs of one raw probe result. */
export interface RawProbe {
  region: Region;
  checkedAt: number;
  ok: boolean;
  totalMs: number;
}

/** Spec: Hourly bucket (one closed hour of one region). */
export interface HourlyBucket {
  bucketStart: number;
  region: Region;
  total: number;
  failed: number;
  p50Ms: number | null;
  p95Ms: number | null;
}

/**
 * Nearest-rank percentile of ascending `sorted`: the smallest value with at least p% of the
 * values at or below it, i.e. sorted[ceil(p/100 * n) - 1]. Always a value that was measured (no
 * interpolation), so p50 and p95 of an hour are exact and reproducible from the raw results;
 * null for no values.
 */
export function nearestRank(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] ?? null;
}

/**
 * One hour's buckets, one per region that probed in it (REGIONS order): every probe counts in
 * `total` and a failed one in `failed`; p50/p95 are over the successful probes' `totalMs` only (a
 * timeout's duration is the timeout, not a latency), null when none succeeded. Probes outside
 * the hour are ignored, so the caller may pass a wider slice.
 */
export function rollupHour(bucketStart: number, probes: readonly RawProbe[]): HourlyBucket[] {
  const inHour = probes.filter((p) => p.checkedAt >= bucketStart && p.checkedAt < bucketStart + HOUR_MS);
  return REGIONS.flatMap((region) => {
    const mine = inHour.filter((p) => p.region === region);
    if (mine.length === 0) return [];
    const latencies = mine
      .filter((p) => p.ok)
      .map((p) => p.totalMs)
      .sort((a, b) => a - b);
    return [
      {
        bucketStart,
        region,
        total: mine.length,
        failed: mine.length - latencies.length,
        p50Ms: nearestRank(latencies, 50),
        p95Ms: nearestRank(latencies, 95),
      },
    ];
  });
}

export interface IncidentSpan {
  downAt: number;
  /** null while the incident is open: it lasts to the end of the range. */
  recoveredAt: number | null;
}

/**
 * Incident-based uptime over [fromMs, toMs], in percent (spec: metrics `uptimePct`): the share
 * of the time the monitor existed in the range that no incident covered. Only the part of the
 * range after `createdAt` counts, and the answer is null when the monitor did not exist in any of
 * it. Overlapping incidents are merged, so no downtime is counted twice. Unrounded: rounding is
 * for display.
 */
export function uptimePct(
  fromMs: number,
  toMs: number,
  createdAt: number,
  incidents: readonly IncidentSpan[],
): number | null {
  const start = Math.max(fromMs, createdAt);
  if (toMs <= start) return null;
  const spans = incidents
    .map((i) => [Math.max(i.downAt, start), Math.min(i.recoveredAt ?? toMs, toMs)] as const)
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let down = 0;
  let reach = start;
  for (const [a, b] of spans) {
    if (b <= reach) continue;
    down += b - Math.max(a, reach);
    reach = b;
  }
  return 100 * (1 - down / (toMs - start));
}
