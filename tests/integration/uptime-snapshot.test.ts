import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPct } from '@/components/uptime/words';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { getMonitorLive, UPTIME_WINDOW_HOURS } from '@/lib/uptime/live';
import { getMonitorMetrics } from '@/lib/uptime/metrics';
import { v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { signInOwner } from '../support/http';
import { startServer, type TestServer } from '../support/http-server';
import * as uptime from '../support/uptime';

/*
 * The monitor page's one read (issue 24 item 4): the live endpoint answers the status, the open
 * incident, the incident list and the four uptime windows from the same rows at the same instant.
 * The page used to read the percentages from four metrics requests made at four moments and only
 * again when the status changed: they froze during an incident (93.01% shown where about 55% was
 * true) and two windows over the same life disagreed in the last digit (42.08% vs 42.07%).
 * Rounds run on a simulated clock (`runDueRounds` at a given `now`) with real probes of a local
 * server, cut off from every region while `outage.down` is true.
 */

let db: Db;
let teardown: () => Promise<void>;
let target: TestServer;
let token: string;
let principal: Principal;
let tenantId: string;
/** The current test's site: each has its own, so the monitor allowance (pooled per site) never runs out. */
let siteId: string;
let sitesMade = 0;
const { outage, probers } = uptime.regionOutage();

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  target = await startServer('127.0.0.1', { '/': { body: 'ok' } });
  const owner = await signInOwner(db, 'owner@uptime-snapshot.test');
  token = owner.token;
  principal = { tenantId: owner.tenantId, via: 'key', siteIds: 'all', canCrawl: true };
  tenantId = owner.tenantId;
  siteId = await uptime.uptimeOnlySite(db, owner.tenantId, 'uptime-snapshot.test');
});
afterAll(async () => {
  await target.close();
  await teardown();
});

/** Runs the monitor's next round at its due time; returns that time. */
const nextRound = async (id: string): Promise<number> => (await uptime.nextRound(db, probers, id)).due;

/** A monitor created at `t0`, up for `upMinutes` of rounds, then down: an incident open from the first down round. */
async function monitorDownAfter(t0: number, upMinutes: number) {
  sitesMade += 1;
  siteId = await uptime.uptimeOnlySite(db, tenantId, `site-${sitesMade}.uptime-snapshot.test`);
  const monitor = await uptime.minuteMonitor(db, principal, siteId, target.url('/'), t0);
  outage.down = false;
  let at = t0;
  while (at < t0 + upMinutes * MINUTE) at = await nextRound(monitor.id);
  outage.down = true;
  await nextRound(monitor.id);
  const [incident] = await uptime.incidentsOf(db, monitor.id);
  expect(incident?.recovered_at).toBeNull();
  return { id: monitor.id, downAt: incident!.down_at };
}

describe('the monitor page read', () => {
  it('counts the ongoing incident as down up to the moment of the read, and grows with it', async () => {
    const t0 = Date.UTC(2026, 10, 24, 8, 0, 0);
    const { id, downAt } = await monitorDownAfter(t0, 5);
    const created = (await uptime.monitorRow(db, id)).created_at;

    for (const later of [10 * MINUTE, HOUR, 5 * HOUR]) {
      const now = downAt + later;
      const snap = await getMonitorLive(db, principal, { siteId, monitorId: id }, now);
      const expected = 100 * (1 - (now - downAt) / (now - created));
      expect(snap.at).toBe(now);
      expect(snap.uptime.map((w) => w.hours)).toEqual([...UPTIME_WINDOW_HOURS]);
      for (const w of snap.uptime) {
        expect(w.uptimePct).toBeCloseTo(expected, 9);
        expect(w.incidents).toBe(1);
      }
      // The metrics endpoint computes the same figure at the same instant.
      expect(
        (await getMonitorMetrics(db, principal, { siteId, monitorId: id }, 24, now)).uptimePct,
      ).toBeCloseTo(expected, 9);
    }
    // Five hours into an outage that began about six minutes after creation: about 2% up, not a frozen figure.
    const late = await getMonitorLive(db, principal, { siteId, monitorId: id }, downAt + 5 * HOUR);
    expect(late.uptime[0]!.uptimePct!).toBeLessThan(3);
  });

  it('answers the status, the open incident and the incident list from the same rows', async () => {
    const t0 = Date.UTC(2026, 10, 25, 8, 0, 0);
    const { id, downAt } = await monitorDownAfter(t0, 2);
    const snap = await getMonitorLive(db, principal, { siteId, monitorId: id }, downAt + MINUTE);
    expect(snap.monitor.status).toBe('down');
    expect(snap.openIncident?.down_at).toBe(downAt);
    expect(snap.incidents).toEqual([snap.openIncident]);

    // Recovered for two rounds: closed, and nothing in the answer still calls it ongoing.
    outage.down = false;
    await nextRound(id);
    await nextRound(id);
    const after = await getMonitorLive(db, principal, { siteId, monitorId: id }, downAt + 10 * MINUTE);
    expect(after.monitor.status).toBe('up');
    expect(after.openIncident).toBeNull();
    expect(after.incidents).toHaveLength(1);
    expect(after.incidents[0]!.recovered_at).not.toBeNull();
    expect(after.uptime.every((w) => w.incidents === 1)).toBe(true);
  });

  it('gives every window over the same life the same figure to the last digit shown', async () => {
    const t0 = Date.UTC(2026, 10, 26, 8, 0, 0);
    const { id, downAt } = await monitorDownAfter(t0, 3);
    // A figure whose second decimal a few milliseconds' difference in `now` would flip.
    const now = downAt + 7 * MINUTE + 12_345;
    const snap = await getMonitorLive(db, principal, { siteId, monitorId: id }, now);
    const shown = snap.uptime.map((w) => formatPct(w.uptimePct));
    expect(new Set(shown).size).toBe(1);
    expect(new Set(snap.uptime.map((w) => w.uptimePct)).size).toBe(1);
  });

  it('is what GET .../live answers, measured at one instant', async () => {
    const { id } = await monitorDownAfter(Date.now() - 10 * MINUTE, 3);
    const before = Date.now();
    const res = await v1({ token }).GET('/v1/sites/{id}/uptime/monitors/{monitorId}/live', {
      params: { path: { id: siteId, monitorId: id } },
    });
    expect(res.status).toBe(200);
    expect(res.body.at).toBeGreaterThanOrEqual(before);
    expect(res.body.uptime.map((w: { hours: number; fromMs: number }) => res.body.at - w.fromMs)).toEqual(
      UPTIME_WINDOW_HOURS.map((h) => h * HOUR),
    );
    expect(new Set(res.body.uptime.map((w: { uptimePct: number }) => w.uptimePct)).size).toBe(1);
    expect(res.body.incidents).toEqual([res.body.openIncident]);
  });
});
