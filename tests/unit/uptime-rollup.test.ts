import { describe, expect, it } from 'vitest';
import {
  DAY_MS,
  dailyUptime,
  HOUR_MS,
  hourStart,
  nearestRank,
  type RawProbe,
  rollupHour,
  uptimePct,
} from '@/lib/uptime/rollup';

describe('nearestRank', () => {
  it('picks measured values by nearest rank', () => {
    const sorted = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
    expect(nearestRank(sorted, 50)).toBe(50);
    expect(nearestRank(sorted, 95)).toBe(100);
    expect(nearestRank(sorted, 90)).toBe(90);
    expect(nearestRank([7], 95)).toBe(7);
    expect(nearestRank([1, 2], 50)).toBe(1);
    expect(nearestRank([], 50)).toBeNull();
  });
});

describe('rollupHour', () => {
  const start = hourStart(Date.UTC(2026, 10, 23, 14, 37));

  it('puts a timestamp in its UTC hour', () => {
    expect(start).toBe(Date.UTC(2026, 10, 23, 14));
    expect(hourStart(start + HOUR_MS - 1)).toBe(start);
  });

  it('counts every probe, and takes exact percentiles over the successful ones only, per region', () => {
    const probes: RawProbe[] = [];
    // na: 60 probes a minute apart, 1..60 ms, the 7th and 13th failed (their durations must not count).
    for (let i = 0; i < 60; i++) {
      probes.push({ region: 'na', checkedAt: start + i * 60_000, ok: i !== 6 && i !== 12, totalMs: i + 1 });
    }
    // oc: all failed. eu: nothing this hour. as: one probe just outside the hour on each side.
    probes.push({ region: 'oc', checkedAt: start + 5, ok: false, totalMs: 10_000 });
    probes.push({ region: 'as', checkedAt: start - 1, ok: true, totalMs: 5 });
    probes.push({ region: 'as', checkedAt: start + HOUR_MS, ok: true, totalMs: 5 });
    const buckets = rollupHour(start, probes);
    // The 58 successes are 1..60 without 7 and 13: rank ceil(29) = 29th is 31, rank ceil(55.1) = 56th is 58.
    expect(buckets).toEqual([
      { bucketStart: start, region: 'na', total: 60, failed: 2, p50Ms: 31, p95Ms: 58 },
      { bucketStart: start, region: 'oc', total: 1, failed: 1, p50Ms: null, p95Ms: null },
    ]);
  });
});

describe('uptimePct', () => {
  const t0 = 1_000_000;
  const hour = HOUR_MS;

  it('is 100 without incidents and null for a range before the monitor existed', () => {
    expect(uptimePct(t0, t0 + hour, t0, [])).toBe(100);
    expect(uptimePct(t0, t0 + hour, t0 + hour, [])).toBeNull();
    expect(uptimePct(t0, t0 + hour, t0 + 2 * hour, [])).toBeNull();
  });

  it('counts only the part of the range after creation', () => {
    // Created half way; down for a quarter of the hour after that: 50% of the observed half.
    const created = t0 + hour / 2;
    expect(uptimePct(t0, t0 + hour, created, [{ downAt: created, recoveredAt: created + hour / 4 }])).toBe(
      50,
    );
  });

  it('clips incidents to the range, runs open ones to its end and merges overlaps', () => {
    const incidents = [
      { downAt: t0 - hour, recoveredAt: t0 + hour / 10 }, // 10% inside
      { downAt: t0 + hour / 5, recoveredAt: t0 + (3 * hour) / 10 }, // 10%
      { downAt: t0 + hour / 4, recoveredAt: t0 + (3 * hour) / 10 }, // inside the previous one
      { downAt: t0 + (9 * hour) / 10, recoveredAt: null }, // open: 10%
    ];
    expect(uptimePct(t0, t0 + hour, 0, incidents)).toBeCloseTo(70, 10);
  });

  it('leaves paused time out: neither up nor down, and null when nothing was watched', () => {
    // Down for the first 10%, then paused (open pause: to the end) from 40%: 10 of the 40 watched.
    const incidents = [{ downAt: t0, recoveredAt: t0 + hour / 10 }];
    const pauses = [{ start: t0 + (4 * hour) / 10, end: null }];
    expect(uptimePct(t0, t0 + hour, 0, incidents, pauses)).toBeCloseTo(75, 10);
    // An incident left open across a pause (data from before pauses closed them) counts only outside it.
    const across = [{ downAt: t0 + (2 * hour) / 10, recoveredAt: null }];
    const between = [{ start: t0 + (4 * hour) / 10, end: t0 + (8 * hour) / 10 }];
    expect(uptimePct(t0, t0 + hour, 0, across, between)).toBeCloseTo(100 * (1 - 0.4 / 0.6), 10);
    expect(uptimePct(t0, t0 + hour, 0, [], [{ start: t0 - hour, end: t0 + 2 * hour }])).toBeNull();
  });
});

describe('dailyUptime', () => {
  const now = Date.UTC(2026, 10, 23, 12);
  const today = Date.UTC(2026, 10, 23);
  const created = today - 5 * DAY_MS;

  it('tells a day wholly in maintenance from one nobody watched, and counts maintenance inside a watched day', () => {
    const window = { start: today - 2 * DAY_MS, end: today - DAY_MS, maintenance: true as const };
    const pause = { start: today - 3 * DAY_MS, end: today - 2 * DAY_MS };
    const partial = { start: today + 2 * HOUR_MS, end: today + 3 * HOUR_MS, maintenance: true as const };
    const days = dailyUptime(7, now, created, [], [window, pause, partial]);
    // Oldest first: before creation, created, watched, paused, maintenance, watched, today.
    expect(days.map((d) => d.uptimePct)).toEqual([null, 100, 100, null, null, 100, 100]);
    expect(days.map((d) => d.maintenanceMs)).toEqual([0, 0, 0, 0, DAY_MS, 0, HOUR_MS]);
  });

  it('counts no maintenance before the monitor existed', () => {
    const before = { start: created - DAY_MS, end: created + HOUR_MS, maintenance: true as const };
    const days = dailyUptime(7, now, created, [], [before]);
    expect(days[0]?.maintenanceMs).toBe(0);
    expect(days[1]?.maintenanceMs).toBe(HOUR_MS);
  });
});
