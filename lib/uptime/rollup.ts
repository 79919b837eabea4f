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

/** A span of time; `end` null while it lasts (to the end of the range). */
export interface Span {
  start: number;
  end: number | null;
  /** Announced maintenance rather than a pause: both are left out of uptime, but a day says which. */
  maintenance?: true;
}

/** `spans` clipped to [from, to], sorted and merged: disjoint, so lengths add up. */
function mergedWithin(spans: readonly Span[], from: number, to: number): [number, number][] {
  const clipped = spans
    .map((s) => [Math.max(s.start, from), Math.min(s.end ?? to, to)] as [number, number])
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  const merged: [number, number][] = [];
  for (const [a, b] of clipped) {
    const last = merged[merged.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  return merged;
}

const lengthOf = (spans: readonly [number, number][]) => spans.reduce((sum, [a, b]) => sum + (b - a), 0);

/** How much of `a` lies inside `b` (both merged). */
function overlapOf(a: readonly [number, number][], b: readonly [number, number][]): number {
  let total = 0;
  for (const [a0, a1] of a) {
    for (const [b0, b1] of b) total += Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
  }
  return total;
}

/**
 * Incident-based uptime over [fromMs, toMs], in percent (spec: metrics `uptimePct`): the share
 * of the time the monitor was watched in the range that no incident covered. Watched means after
 * `createdAt` and outside `pauses` (paused, app off, held at the allowance: nobody probed; and
 * maintenance windows, announced work: that time is neither up nor down); the answer is null when the monitor was not watched in any
 * of the range. Overlapping incidents are merged, so no downtime is counted twice. Unrounded:
 * rounding is for display.
 */
export function uptimePct(
  fromMs: number,
  toMs: number,
  createdAt: number,
  incidents: readonly IncidentSpan[],
  pauses: readonly Span[] = [],
): number | null {
  const start = Math.max(fromMs, createdAt);
  if (toMs <= start) return null;
  const paused = mergedWithin(pauses, start, toMs);
  const watched = toMs - start - lengthOf(paused);
  if (watched <= 0) return null;
  const down = mergedWithin(
    incidents.map((i) => ({ start: i.downAt, end: i.recoveredAt })),
    start,
    toMs,
  );
  return 100 * (1 - (lengthOf(down) - overlapOf(down, paused)) / watched);
}

export const DAY_MS = 24 * HOUR_MS;

/** The start of the UTC day holding `ms`. */
export function dayStart(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** One UTC day of a monitor: its incident-based uptime and the incidents that touched it. */
export interface DailyUptime {
  /** The day's start (UTC midnight, epoch milliseconds). */
  dayStart: number;
  /** `uptimePct` over the day (today: up to `now`); null when the monitor was not watched that day. */
  uptimePct: number | null;
  /** How many incidents overlapped the day. */
  incidents: number;
  /** Downtime in the day, overlapping incidents merged, paused time left out (what uptimePct counts). */
  downMs: number;
  /**
   * Time of the day inside announced maintenance while the monitor existed (left out of
   * uptimePct like a pause): a day wholly in a window says "maintenance", not "not monitored".
   */
  maintenanceMs: number;
}

/**
 * The last `days` UTC days up to `now`, oldest first, each measured as `uptimePct` measures any
 * range (the public status page's 90-day bar): one pass over the spans already read, no query.
 * `pauses` are every span left out of the figure, maintenance windows among them.
 */
export function dailyUptime(
  days: number,
  now: number,
  createdAt: number,
  incidents: readonly IncidentSpan[],
  pauses: readonly Span[] = [],
): DailyUptime[] {
  const today = dayStart(now);
  const maintenance = pauses.filter((s) => s.maintenance);
  return Array.from({ length: days }, (_, i) => {
    const from = today - (days - 1 - i) * DAY_MS;
    const to = Math.min(from + DAY_MS, now);
    const touching = incidents.filter(
      (s) => s.downAt < to && (s.recoveredAt === null || s.recoveredAt > from),
    );
    const pct = uptimePct(from, to, createdAt, touching, pauses);
    const watchedFrom = Math.max(from, createdAt);
    const watched = to - watchedFrom - lengthOf(mergedWithin(pauses, watchedFrom, to));
    return {
      dayStart: from,
      uptimePct: pct,
      incidents: touching.length,
      downMs: pct === null ? 0 : Math.round(((100 - pct) / 100) * watched),
      maintenanceMs: watchedFrom < to ? lengthOf(mergedWithin(maintenance, watchedFrom, to)) : 0,
    };
  });
}
