import { describe, expect, it } from 'vitest';
import { certificateWarning } from '@/lib/uptime/certificate';
import {
  judgeRound,
  majorityCause,
  nextStatus,
  SLOW_THRESHOLD_MS,
  slowThresholdMs,
} from '@/lib/uptime/consensus';
import {
  advanceIncident,
  type IncidentEvent,
  type IncidentTracker,
  NO_INCIDENT,
} from '@/lib/uptime/incident';
import { applyRound, NEW_MONITOR } from '@/lib/uptime/round';
import type { ProbeCause, Region, RegionResult } from '@/lib/uptime/types';

function result(region: Region, failure: ProbeCause | null = null, totalMs = 100): RegionResult {
  return {
    region,
    ok: failure === null,
    status: failure === null ? 200 : failure === 'http_5xx' ? 503 : null,
    totalMs,
    phases: { dnsMs: 1, connectMs: 1, tlsMs: null, firstByteMs: 1 },
    tlsCertExpiresAt: null,
    cause: failure,
    error: failure === null ? null : `failed: ${failure}`,
    checkedAt: 0,
    attempts: failure === null ? 1 : 2,
  };
}

const allUp = () => [result('na'), result('eu'), result('as'), result('oc')];

describe('judgeRound', () => {
  it('is up when every region succeeds', () => {
    expect(judgeRound(allUp(), 10)).toEqual({
      status: 'up',
      failedRegions: [],
      slowRegions: [],
      cause: null,
      degradedBy: null,
    });
  });

  it('is degraded, naming the region, when exactly one fails', () => {
    const verdict = judgeRound([result('na'), result('eu'), result('as', 'timeout'), result('oc')], 10);
    expect(verdict).toMatchObject({
      status: 'degraded',
      degradedBy: 'region',
      failedRegions: ['as'],
      cause: 'timeout',
    });
  });

  it('is down when two or more fail, with the majority cause', () => {
    expect(
      judgeRound([result('na', 'dns'), result('eu', 'dns'), result('as'), result('oc')], 10),
    ).toMatchObject({
      status: 'down',
      failedRegions: ['na', 'eu'],
      cause: 'dns',
    });
    const three = judgeRound(
      [result('oc', 'http_5xx'), result('na', 'timeout'), result('eu', 'http_5xx'), result('as')],
      10,
    );
    expect(three).toMatchObject({ status: 'down', failedRegions: ['na', 'eu', 'oc'], cause: 'http_5xx' });
  });

  it('breaks a tie between causes by the order of CAUSES', () => {
    expect(majorityCause([{ cause: 'network' }, { cause: 'tls' }])).toBe('tls');
    expect(majorityCause([{ cause: 'network' }, { cause: 'network' }, { cause: 'tls' }])).toBe('network');
    expect(majorityCause([])).toBeNull();
  });

  it('is degraded when every region succeeds but at least two are slower than the threshold', () => {
    const slow = SLOW_THRESHOLD_MS + 1;
    expect(judgeRound([result('na', null, slow), result('eu'), result('as'), result('oc')], 10).status).toBe(
      'up',
    );
    expect(
      judgeRound([result('na', null, slow), result('eu', null, slow), result('as'), result('oc')], 10),
    ).toMatchObject({
      status: 'degraded',
      degradedBy: 'slow',
      slowRegions: ['na', 'eu'],
      failedRegions: [],
    });
  });

  it('lowers the slowness threshold to half of a short timeout', () => {
    expect(slowThresholdMs(10)).toBe(2000);
    expect(slowThresholdMs(1)).toBe(500);
    const rounds = ['na', 'eu', 'as', 'oc'].map((r) => result(r as Region, null, 600));
    expect(judgeRound(rounds, 1).status).toBe('degraded');
    expect(judgeRound(rounds, 10).status).toBe('up');
  });

  it('is unknown when no region answered, and judges on the regions that did', () => {
    expect(judgeRound([], 10).status).toBe('unknown');
    expect(judgeRound([result('na', 'network'), result('eu', 'network')], 10).status).toBe('down');
  });
});

describe('nextStatus', () => {
  it('starts unknown, and moves status_since only when the status changes', () => {
    const start = { status: 'unknown' as const, statusSince: null };
    const first = nextStatus(start, judgeRound(allUp(), 10), 1000);
    expect(first).toEqual({ status: 'up', statusSince: 1000, changed: true });
    const same = nextStatus(first, judgeRound(allUp(), 10), 2000);
    expect(same).toEqual({ status: 'up', statusSince: 1000, changed: false });
    const down = nextStatus(same, judgeRound([result('na', 'dns'), result('eu', 'dns')], 10), 3000);
    expect(down).toEqual({ status: 'down', statusSince: 3000, changed: true });
  });

  it('ignores a round no region answered', () => {
    const current = { status: 'up' as const, statusSince: 1000 };
    expect(nextStatus(current, judgeRound([], 10), 5000)).toEqual({ ...current, changed: false });
  });
});

describe('advanceIncident', () => {
  /**
   * Runs rounds in order (true = down, false = up), returning every event and the final tracker;
   * the rounds whose index is in `maintenance` fall inside a maintenance window.
   */
  function run(rounds: boolean[], from: IncidentTracker = NO_INCIDENT, maintenance: number[] = []) {
    let tracker = from;
    const events: IncidentEvent[] = [];
    rounds.forEach((isDown, i) => {
      const results = isDown
        ? [result('na', 'http_5xx'), result('eu', 'http_5xx'), result('as', 'timeout'), result('oc')]
        : allUp();
      const step = advanceIncident(
        tracker,
        judgeRound(results, 10),
        results,
        (i + 1) * 60_000,
        maintenance.includes(i),
      );
      tracker = step.tracker;
      events.push(...step.events);
    });
    return { tracker, events };
  }

  it('opens on down with the majority cause and every region in the snapshot', () => {
    const { tracker, events } = run([false, true]);
    expect(events).toHaveLength(1);
    const [opened] = events;
    expect(opened?.kind).toBe('opened');
    expect(opened?.incident).toMatchObject({ downAt: 120_000, cause: 'http_5xx' });
    expect(opened?.incident.regions.map((r) => [r.region, r.ok, r.cause])).toEqual([
      ['na', false, 'http_5xx'],
      ['eu', false, 'http_5xx'],
      ['as', false, 'timeout'],
      ['oc', true, null],
    ]);
    expect(tracker.open).not.toBeNull();
  });

  it('needs two healthy rounds in a row to recover, dated from the first of them', () => {
    const oneGood = run([true, false]);
    expect(oneGood.events.map((e) => e.kind)).toEqual(['opened']);
    expect(oneGood.tracker.open).not.toBeNull();
    const { tracker, events } = run([true, true, false, false, false]);
    expect(events.map((e) => e.kind)).toEqual(['opened', 'recovered']);
    expect(events[1]?.incident).toMatchObject({ downAt: 60_000, recoveredAt: 180_000 });
    expect(tracker).toEqual(NO_INCIDENT);
  });

  it('opens nothing inside a maintenance window, and opens the incident once after it if still down', () => {
    const inside = run([false, true, true, true], NO_INCIDENT, [1, 2, 3]);
    expect(inside.events).toEqual([]);
    expect(inside.tracker).toEqual(NO_INCIDENT);
    const after = run([false, true, true, true, true, true], NO_INCIDENT, [1, 2, 3]);
    expect(after.events.map((e) => e.kind)).toEqual(['opened']);
    expect(after.events[0]?.incident.downAt).toBe(5 * 60_000);
    // Back before the window ended: nothing happened at all.
    expect(run([true, true, false, false], NO_INCIDENT, [0, 1, 2]).events).toEqual([]);
  });

  it('lets an incident open before a window go on through it and recover as usual', () => {
    const { events } = run([true, true, true, false, false], NO_INCIDENT, [1, 2, 3, 4]);
    expect(events.map((e) => e.kind)).toEqual(['opened', 'recovered']);
    expect(events[1]?.incident).toMatchObject({ downAt: 60_000, recoveredAt: 240_000 });
  });

  it('keeps a flapping target to one incident', () => {
    const { events } = run([true, false, true, false, true, false, true, false, false]);
    expect(events.map((e) => e.kind)).toEqual(['opened', 'recovered']);
    expect(events[1]?.incident).toMatchObject({ downAt: 60_000, recoveredAt: 480_000 });
  });

  it('opens no incident for one failing region (degraded) and opens a new one after a recovery', () => {
    const oneRegion = [result('na', 'network'), result('eu'), result('as'), result('oc')];
    const degraded = advanceIncident(NO_INCIDENT, judgeRound(oneRegion, 10), oneRegion, 1);
    expect(degraded).toEqual({ tracker: NO_INCIDENT, events: [] });
    expect(run([true, false, false, true]).events.map((e) => e.kind)).toEqual([
      'opened',
      'recovered',
      'opened',
    ]);
  });

  it('counts a degraded round as healthy and ignores a round no region answered', () => {
    const { tracker } = run([true]);
    const oneRegion = [result('na', 'network'), result('eu'), result('as'), result('oc')];
    const a = advanceIncident(tracker, judgeRound(oneRegion, 10), oneRegion, 10);
    const silent = advanceIncident(a.tracker, judgeRound([], 10), [], 20);
    expect(silent).toEqual({ tracker: a.tracker, events: [] });
    const b = advanceIncident(silent.tracker, judgeRound(allUp(), 10), allUp(), 30);
    expect(b.events).toEqual([
      expect.objectContaining({ kind: 'recovered', incident: expect.objectContaining({ recoveredAt: 10 }) }),
    ]);
  });
});

describe('certificateWarning', () => {
  const day = 86_400_000;
  const now = 1_800_000_000_000;

  it('warns at 14 days, then again at 3 days, once each per certificate', () => {
    const expiresAt = now + 20 * day;
    expect(certificateWarning(expiresAt, now, [])).toEqual({ send: null, record: [] });
    const at14 = certificateWarning(expiresAt, expiresAt - 14 * day, []);
    expect(at14).toEqual({ send: 14, record: [14] });
    const sent = [{ expiresAt, days: 14 as const }];
    expect(certificateWarning(expiresAt, expiresAt - 10 * day, sent)).toEqual({ send: null, record: [] });
    expect(certificateWarning(expiresAt, expiresAt - 3 * day, sent)).toEqual({ send: 3, record: [3] });
    const both = [...sent, { expiresAt, days: 3 as const }];
    expect(certificateWarning(expiresAt, expiresAt - day, both)).toEqual({ send: null, record: [] });
  });

  it('sends only the urgent warning for a certificate first seen inside both thresholds', () => {
    expect(certificateWarning(now + 2 * day, now, [])).toEqual({ send: 3, record: [14, 3] });
  });

  it('warns afresh about a renewed certificate, and never without one', () => {
    const old = now + 2 * day;
    const sent = [
      { expiresAt: old, days: 14 as const },
      { expiresAt: old, days: 3 as const },
    ];
    expect(certificateWarning(now + 10 * day, now, sent)).toEqual({ send: 14, record: [14] });
    expect(certificateWarning(null, now, sent)).toEqual({ send: null, record: [] });
  });
});

describe('applyRound', () => {
  const day = 86_400_000;

  it('carries status, incident and certificate warnings from round to round', () => {
    const at = 1_800_000_000_000;
    const expiresAt = at + 10 * day;
    const withCert = (r: RegionResult) => ({ ...r, tlsCertExpiresAt: expiresAt });
    const up = allUp().map(withCert);
    // One region behind a CDN edge whose certificate lapses sooner: that one is judged.
    const sooner = { ...result('oc'), tlsCertExpiresAt: at + 2 * day };

    const first = applyRound(NEW_MONITOR, up, 10, at);
    expect(first.state.status).toEqual({ status: 'up', statusSince: at });
    expect(first.state.lastCheckedAt).toBe(at);
    expect(first.events).toEqual([{ kind: 'certificate-expiring', expiresAt, days: 14 }]);

    const again = applyRound(first.state, up, 10, at + 60_000);
    expect(again.events).toEqual([]);

    const down = [result('na', 'tls'), result('eu', 'tls'), result('as'), sooner];
    const third = applyRound(again.state, down, 10, at + 120_000);
    expect(third.events.map((e) => e.kind)).toEqual(['opened', 'certificate-expiring']);
    expect(third.events[1]).toEqual({ kind: 'certificate-expiring', expiresAt: at + 2 * day, days: 3 });
    expect(third.state.status).toEqual({ status: 'down', statusSince: at + 120_000 });

    const silent = applyRound(third.state, [], 10, at + 180_000);
    expect(silent).toEqual({
      verdict: expect.objectContaining({ status: 'unknown' }),
      state: third.state,
      events: [],
    });
  });
});
