import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlSchedulerFunction } from '@/jobs/functions/scheduler';
import type { Clock } from '@/jobs/runtime/clock';
import { EmbeddedRunner } from '@/jobs/runtime/embedded';
import type { Principal } from '@/lib/auth/principal';
import { setOverage } from '@/lib/billing/settings';
import type { Db } from '@/lib/db/client';
import { uptimePauses } from '@/lib/db/schema';
import { updateSite } from '@/lib/sites/service';
import { runDueRounds } from '@/lib/uptime/coordinator';
import { getMonitorLive } from '@/lib/uptime/live';
import { getMonitorMetrics } from '@/lib/uptime/metrics';
import { updateMonitor } from '@/lib/uptime/monitors';
import { claimDueRounds, completeRound } from '@/lib/uptime/rounds';
import { useTestDatabase } from '../support/db';
import { signInOwner } from '../support/http';
import { startServer, type TestServer } from '../support/http-server';
import * as uptime from '../support/uptime';

/*
 * A monitor that stops being probed (paused, its site's Uptime app off, held past the allowance)
 * during an outage: the open incident ends when probing stops, with the reason and no recovery
 * notification; the time nobody probed counts neither as up nor as down; resuming starts afresh.
 * Rounds run on a simulated clock (`runDueRounds` at a given `now`) with real probes; the minute
 * scheduler runs as the embedded runner runs it, on that clock.
 */

let db: Db;
let teardown: () => Promise<void>;
let target: TestServer;
/** Every region cut off from the target while `outage.down`: the target is down. */
const { outage, probers } = uptime.regionOutage();

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const quiet = { info() {}, warn() {}, error() {}, debug() {} };

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  target = await startServer('127.0.0.1', { '/': { body: 'ok' } });
});
afterAll(async () => {
  await target.close();
  await teardown();
});

/** An organization with one site whose only app is Uptime (the scheduler starts nothing else). */
async function organization(email: string, overage: boolean) {
  const { tenantId } = await signInOwner(db, email);
  const siteId = await uptime.uptimeOnlySite(db, tenantId, `${email.split('@')[1]}`);
  await setOverage(db, tenantId, overage);
  const principal: Principal = { tenantId, via: 'key', siteIds: 'all', canCrawl: true };
  return { tenantId, siteId, principal };
}

const monitorRow = (id: string) => uptime.monitorRow(db, id);
const incidentsOf = (id: string) => uptime.incidentsOf(db, id);
const pausesOf = (id: string) =>
  db.select().from(uptimePauses).where(eq(uptimePauses.monitor_id, id)).orderBy(asc(uptimePauses.started_at));
const notesOf = async (id: string) => (await uptime.outboxOf(db, id)).map((n) => n.kind);

/** Runs every round due at `now`; the ids of the monitors probed. */
const roundsAt = async (now: number) =>
  (await runDueRounds(db, probers(), { now })).map((f) => f.round.monitorId);

/** The minute scheduler's tick in the minute of `now` (it runs at the minute's start), by the embedded runner on a clock reading `now`. */
async function schedulerTick(now: number) {
  const clock: Clock = {
    now: () => now,
    setTimer: (callback, delayMs) => setTimeout(callback, delayMs),
    clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
  const runner = new EmbeddedRunner([crawlSchedulerFunction], { clock, logger: quiet });
  runner.fireCron(new Date(now));
  await runner.idle();
  await runner.stop();
}

/** A monitor created at `t0` and probed at t0 (up), then down at t0 + 1 and t0 + 2 minutes: one open incident. */
async function monitorInOutage(org: { siteId: string; principal: Principal }, t0: number) {
  const monitor = await uptime.minuteMonitor(db, org.principal, org.siteId, target.url('/'), t0);
  outage.down = false;
  expect(await roundsAt(t0)).toContain(monitor.id);
  outage.down = true;
  for (const at of [t0 + MINUTE, t0 + 2 * MINUTE]) {
    const due = (await monitorRow(monitor.id)).next_probe_at!;
    expect(due).toBeLessThanOrEqual(at + MINUTE);
    expect(await roundsAt(due)).toContain(monitor.id);
  }
  const [incident] = await incidentsOf(monitor.id);
  expect(incident).toMatchObject({ recovered_at: null, closed_by: null });
  expect((await monitorRow(monitor.id)).status).toBe('down');
  expect(await notesOf(monitor.id)).toEqual(['uptime-down']);
  // What the monitor services take to name it.
  const ref = { siteId: org.siteId, monitorId: monitor.id };
  return { id: monitor.id, downAt: incident!.down_at, ref };
}

describe('a monitor paused during an outage', () => {
  it('closes the incident at the pause, counts the pause neither up nor down, and starts afresh on resume', async () => {
    const org = await organization('owner@uptime-pause.test', true);
    const t0 = Date.UTC(2026, 10, 24, 8, 0, 0);
    const { id, downAt, ref } = await monitorInOutage(org, t0);

    const pausedAt = downAt + 90_000;
    await updateMonitor(db, org.principal, ref, { enabled: false }, pausedAt);
    const [closed, ...more] = await incidentsOf(id);
    expect(more).toEqual([]);
    expect(closed).toMatchObject({ down_at: downAt, recovered_at: pausedAt, closed_by: 'monitor' });
    // Nothing recovered: no recovery notification; and nobody checks, so no status either.
    expect(await notesOf(id)).toEqual(['uptime-down']);
    expect(await monitorRow(id)).toMatchObject({ status: 'unknown', status_since: pausedAt });
    const live = await getMonitorLive(db, org.principal, ref);
    expect(live.openIncident).toBeNull();
    expect(live.probing).toMatchObject({ active: false, pausedBy: 'monitor', alsoPausedBy: [] });

    // Hours later nothing was probed, and the scheduler's look changes nothing.
    expect(await roundsAt(pausedAt + 3 * HOUR)).not.toContain(id);
    await schedulerTick(pausedAt + 3 * HOUR);
    expect(await incidentsOf(id)).toHaveLength(1);
    expect(await pausesOf(id)).toHaveLength(1);

    // Resumed with the target back: probed at once, no incident, no notification.
    outage.down = false;
    const resumedAt = t0 + 6 * HOUR;
    await updateMonitor(db, org.principal, ref, { enabled: true }, resumedAt);
    expect(await roundsAt(resumedAt)).toContain(id);
    expect(await monitorRow(id)).toMatchObject({ status: 'up', last_checked_at: resumedAt });
    expect(await incidentsOf(id)).toHaveLength(1);
    expect(await notesOf(id)).toEqual(['uptime-down']);
    expect(await pausesOf(id)).toMatchObject([
      { reason: 'monitor', started_at: pausedAt, ended_at: resumedAt },
    ]);

    // Over the last 24 hours: watched from creation to the pause and since the resume; down 90 s.
    const now = t0 + 8 * HOUR;
    const watched = pausedAt - t0 + (now - resumedAt);
    const metrics = await getMonitorMetrics(db, org.principal, ref, 24, now);
    expect(metrics.uptimePct).toBeCloseTo(100 * (1 - 90_000 / watched), 10);
    expect(metrics.events).toMatchObject([{ recovered_at: pausedAt, closed_by: 'monitor' }]);
    // A range inside the pause was not watched at all.
    expect((await getMonitorMetrics(db, org.principal, ref, 1, t0 + 3 * HOUR)).uptimePct).toBeNull();
  });

  it('resumed while the target is still down, opens a new incident and alerts again', async () => {
    const org = await organization('owner@uptime-pause-still-down.test', true);
    const t0 = Date.UTC(2026, 10, 25, 8, 0, 0);
    const { id, downAt, ref } = await monitorInOutage(org, t0);
    await updateMonitor(db, org.principal, ref, { enabled: false }, downAt + 30_000);
    await updateMonitor(db, org.principal, ref, { enabled: true }, t0 + HOUR);
    expect(await roundsAt(t0 + HOUR)).toContain(id);
    const incidents = await incidentsOf(id);
    expect(incidents.map((i) => [i.closed_by, i.recovered_at === null])).toEqual([
      ['monitor', false],
      [null, true],
    ]);
    expect(await notesOf(id)).toEqual(['uptime-down', 'uptime-down']);
    outage.down = false;
  });

  it('stays paused when a round out during the pause comes back with no region answering', async () => {
    const org = await organization('owner@uptime-pause-unanswered.test', true);
    const t0 = Date.UTC(2026, 10, 26, 8, 0, 0);
    const { id, ref } = await monitorInOutage(org, t0);
    const due = (await monitorRow(id)).next_probe_at!;
    const [round] = (await claimDueRounds(db, { now: due, limit: 10 })).filter((r) => r.monitorId === id);
    expect(round).toBeDefined();
    // Paused while its round is out; then every prober fails as a whole (no results at all).
    const pausedAt = due + 5_000;
    await updateMonitor(db, org.principal, ref, { enabled: false }, pausedAt);
    const outcome = await completeRound(db, round!, [], due, due + 20_000);
    expect(outcome).toMatchObject({ completed: true, verdict: { status: 'unknown' } });
    expect(await pausesOf(id)).toMatchObject([{ reason: 'monitor', started_at: pausedAt, ended_at: null }]);
    const live = await getMonitorLive(db, org.principal, ref, due + 30_000);
    expect(live.probing).toMatchObject({ active: false, pausedBy: 'monitor' });
    // The pause still counts neither up nor down: a later window inside it was not watched.
    expect(live.uptime[0]!.uptimePct).not.toBeNull();
    expect((await getMonitorMetrics(db, org.principal, ref, 1, pausedAt + 2 * HOUR)).uptimePct).toBeNull();
  });
});

describe('a monitor stopped with its site', () => {
  it("closes the incident when the Uptime app is turned off, at the round it missed, and the scheduler's tick says so", async () => {
    const org = await organization('owner@uptime-pause-app.test', true);
    const t0 = Date.UTC(2026, 10, 26, 8, 0, 0);
    const { id, ref } = await monitorInOutage(org, t0);
    const missed = (await monitorRow(id)).next_probe_at!;
    await updateSite(db, org.principal, org.siteId, { uptimeEnabled: false });
    expect(await roundsAt(missed)).not.toContain(id);

    await schedulerTick(missed + 2 * MINUTE);
    expect(await incidentsOf(id)).toMatchObject([{ recovered_at: missed, closed_by: 'app' }]);
    expect(await notesOf(id)).toEqual(['uptime-down']);
    expect((await monitorRow(id)).status).toBe('unknown');
    // A second tick finds the pause already recorded.
    await schedulerTick(missed + 3 * MINUTE);
    expect(await pausesOf(id)).toMatchObject([{ reason: 'app', started_at: missed, ended_at: null }]);

    // The app back on: the overdue round runs at once and ends the pause; the target is still down.
    await updateSite(db, org.principal, org.siteId, { uptimeEnabled: true });
    const back = missed + 2 * HOUR;
    expect(await roundsAt(back)).toContain(id);
    expect(await pausesOf(id)).toMatchObject([{ ended_at: back }]);
    const metrics = await getMonitorMetrics(db, org.principal, ref, 24, back + HOUR);
    // Down from the confirmation to the missed round, and again the hour since: over the watched time.
    const [first, second] = metrics.events;
    const down = first!.recovered_at! - first!.down_at + HOUR;
    expect(second).toMatchObject({ down_at: back, recovered_at: null });
    expect(metrics.uptimePct).toBeCloseTo(100 * (1 - down / (missed - t0 + HOUR)), 10);
    outage.down = false;
  });
});

describe('a monitor held past the allowance', () => {
  it('closes its incident with the reason when overage is turned off, and the live view says it is also paused', async () => {
    const org = await organization('owner@uptime-pause-held.test', true);
    const t0 = Date.UTC(2026, 10, 27, 8, 0, 0);
    // Two older monitors fill the pool of 2 (one site); they are paused, so only the third probes.
    for (const n of [1, 2]) {
      await uptime.minuteMonitor(db, org.principal, org.siteId, target.url(`/?older=${n}`), t0 - n, {
        enabled: false,
      });
    }
    const { id, ref } = await monitorInOutage(org, t0);
    const missed = (await monitorRow(id)).next_probe_at!;
    await setOverage(db, org.tenantId, false);
    expect(await roundsAt(missed)).not.toContain(id);
    await schedulerTick(missed + 2 * MINUTE);
    expect(await incidentsOf(id)).toMatchObject([{ recovered_at: missed, closed_by: 'allowance' }]);
    expect(await notesOf(id)).toEqual(['uptime-down']);

    // Paused by its owner as well: the live view names both, so Resume is not mistaken for a fix.
    await updateMonitor(db, org.principal, ref, { enabled: false }, missed + HOUR);
    const live = await getMonitorLive(db, org.principal, ref);
    expect(live.probing).toEqual({
      active: false,
      pausedBy: 'monitor',
      alsoPausedBy: ['allowance'],
      nextRoundAt: null,
    });
    expect(await pausesOf(id)).toMatchObject([{ reason: 'allowance', ended_at: null }]);
    outage.down = false;
  });
});
