import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeRound, type MonitorState, nextStatus } from '@/lib/uptime/consensus';
import { advanceIncident, type IncidentEvent, NO_INCIDENT } from '@/lib/uptime/incident';
import {
  cutOff,
  embeddedProbers,
  probeRound,
  type RegionFault,
  type RegionProber,
} from '@/lib/uptime/regions';
import { REGIONS, type Region } from '@/lib/uptime/types';
import { startServer, type TestServer } from '@/tests/support/http-server';

/*
 * Rounds of the four embedded regions against a real local target, with faults injected into
 * some regions, judged and tracked by the pure core as the coordinator will.
 */

let target: TestServer;
let healthy = true;
const monitor = () => ({ monitorId: 'm1', url: target.url('/'), timeoutSeconds: 5 });

beforeAll(async () => {
  target = await startServer('127.0.0.1', {
    '/': (_req, res) => {
      res.statusCode = healthy ? 200 : 503;
      res.end();
    },
  });
});

afterAll(() => target.close());

const probers = (faults: Partial<Record<Region, RegionFault>> = {}) =>
  embeddedProbers({ retryDelayMs: 0, faults });

async function round(regions: RegionProber[]) {
  const results = (await probeRound(regions, [monitor()])).get('m1') ?? [];
  return { results, verdict: judgeRound(results, 5) };
}

describe('embedded regions', () => {
  it('probe from all four regions in one round', async () => {
    const before = target.hits('/');
    const { results, verdict } = await round(probers());
    expect(results.map((r) => r.region)).toEqual([...REGIONS]);
    expect(results.every((r) => r.ok && r.status === 200)).toBe(true);
    expect(verdict.status).toBe('up');
    expect(target.hits('/') - before).toBe(4);
  });

  it('one region cut off: degraded, the region named, and no incident', async () => {
    const { results, verdict } = await round(probers({ eu: cutOff }));
    expect(results.find((r) => r.region === 'eu')).toMatchObject({
      ok: false,
      cause: 'network',
      attempts: 2,
    });
    expect(verdict).toMatchObject({ status: 'degraded', degradedBy: 'region', failedRegions: ['eu'] });
    expect(advanceIncident(NO_INCIDENT, verdict, results, 1).events).toEqual([]);
  });

  it('two regions cut off: down, one incident with the cause and the snapshot', async () => {
    const { results, verdict } = await round(probers({ as: cutOff, oc: cutOff }));
    expect(verdict).toMatchObject({ status: 'down', failedRegions: ['as', 'oc'], cause: 'network' });
    const { events } = advanceIncident(NO_INCIDENT, verdict, results, 1);
    expect(events).toHaveLength(1);
    expect(events[0]?.incident.cause).toBe('network');
    expect(events[0]?.incident.regions.map((r) => [r.region, r.ok])).toEqual([
      ['na', true],
      ['eu', true],
      ['as', false],
      ['oc', false],
    ]);
  });

  it('a target that fails everywhere opens one incident; flapping keeps it; two good rounds close it', async () => {
    const regions = probers();
    let tracker = NO_INCIDENT;
    let state: MonitorState = { status: 'unknown', statusSince: null };
    const events: IncidentEvent[] = [];
    const statuses: string[] = [];
    for (const [i, up] of [true, false, true, false, true, true].entries()) {
      healthy = up;
      const { results, verdict } = await round(regions);
      state = nextStatus(state, verdict, i);
      statuses.push(state.status);
      const step = advanceIncident(tracker, verdict, results, i);
      tracker = step.tracker;
      events.push(...step.events);
    }
    healthy = true;
    expect(statuses).toEqual(['up', 'down', 'up', 'down', 'up', 'up']);
    expect(events.map((e) => [e.kind, e.incident.cause])).toEqual([
      ['opened', 'http_5xx'],
      ['recovered', 'http_5xx'],
    ]);
    expect(events[1]?.incident).toMatchObject({ downAt: 1, recoveredAt: 4 });
    expect(state).toEqual({ status: 'up', statusSince: 4, changed: false });
  });

  it('leaves a region whose prober failed as a whole out of the round instead of counting it down', async () => {
    const broken: RegionProber = {
      region: 'oc',
      probe: () => Promise.reject(new Error('region endpoint unreachable')),
    };
    const regions = [...probers().filter((p) => p.region !== 'oc'), broken];
    const { results, verdict } = await round(regions);
    expect(results.map((r) => r.region)).toEqual(['na', 'eu', 'as']);
    expect(verdict.status).toBe('up');
  });
});
