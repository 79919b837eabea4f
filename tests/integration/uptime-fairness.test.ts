import type { IncomingMessage, ServerResponse } from 'node:http';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { setOverage } from '@/lib/billing/settings';
import type { Db } from '@/lib/db/client';
import { uptimeMonitors } from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import { type FinishedRound, RoundLoop } from '@/lib/uptime/coordinator';
import { embeddedProbers } from '@/lib/uptime/regions';
import { claimDueRounds, releaseRounds } from '@/lib/uptime/rounds';
import { useTestDatabase } from '../support/db';
import { insertSite } from '../support/fixtures';
import { signInOwner } from '../support/http';
import { startServer, type TestServer } from '../support/http-server';

/*
 * Fair probing (issue 23 item 2) against real servers on loopback: a tenant whose monitors point at
 * tarpits (the connection is accepted, nothing is ever answered: every probe runs to its timeout,
 * twice) cannot push another tenant's round out of its instant, and one tenant's due rounds cannot
 * fill a claim another tenant's round needed.
 */

let db: Db;
let teardown: () => Promise<void>;
let hostile: { tenantId: string; siteId: string };
let victim: { tenantId: string; siteId: string };
let tarpit: TestServer;
let healthy: TestServer;
let openProbes = 0;
let mostProbesAtOnce = 0;

const REGIONS = 4;

async function addMonitor(
  owner: { tenantId: string; siteId: string },
  url: string,
  nextProbeAt: number,
  timeoutSeconds = 2,
) {
  const [row] = await db
    .insert(uptimeMonitors)
    .values({
      tenant_id: owner.tenantId,
      site_id: owner.siteId,
      url,
      cadence_seconds: 60,
      timeout_seconds: timeoutSeconds,
      enabled: 1,
      next_probe_at: nextProbeAt,
      created_at: nextProbeAt - 1,
      updated_at: nextProbeAt - 1,
    })
    .returning({ id: uptimeMonitors.id });
  return row!.id;
}

const disable = (ids: string[]) =>
  db.update(uptimeMonitors).set({ enabled: 0 }).where(inArray(uptimeMonitors.id, ids));

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  for (const [name, set] of [
    ['hostile', (v: typeof hostile) => (hostile = v)],
    ['victim', (v: typeof victim) => (victim = v)],
  ] as const) {
    const { tenantId } = await signInOwner(db, `owner@${name}-uptime.test`);
    // Rounds here, not the allowance: with overage on no monitor is held.
    await setOverage(db, tenantId, true);
    set({ tenantId, siteId: await insertSite(db, tenantId, `${name}.example`) });
  }
  tarpit = await startServer('127.0.0.2', {
    '*': (req: IncomingMessage, _res: ServerResponse) => {
      openProbes++;
      mostProbesAtOnce = Math.max(mostProbesAtOnce, openProbes);
      req.socket.on('close', () => openProbes--);
    },
  });
  healthy = await startServer('127.0.0.3', { '/': { body: 'ok' } });
});

afterAll(async () => {
  await Promise.all([tarpit?.close(), healthy?.close()]);
  await closeDispatchers();
  await teardown();
});

describe('a tenant whose monitors hang', () => {
  it("cannot delay another tenant's round: it fires at its instant while the tarpits hold their slots", async () => {
    const start = Date.now() + 1_000;
    // Twelve tarpit monitors due first: on a pool of 8 rounds they would take every slot for their
    // timeout, retry and timeout again (about 4 s).
    const tarpits: string[] = [];
    for (let i = 0; i < 12; i++) tarpits.push(await addMonitor(hostile, tarpit.url(`/?m=${i}`), start));
    // Its own timeout is 10 s, so a busy machine's slow answer is not judged slow (half the timeout).
    const mine = await addMonitor(victim, healthy.url('/'), start + 300, 10);

    const finished: FinishedRound[] = [];
    const loop = new RoundLoop(async () => db, {
      probers: embeddedProbers({ retryDelayMs: 10 }),
      pollMs: 50,
      maxRoundsInFlight: 8,
      maxRoundsInFlightPerTenant: 4,
      onRound: (round) => finished.push(round),
    });
    const running = loop.run();
    try {
      await vi.waitFor(() => expect(finished.some((f) => f.round.monitorId === mine)).toBe(true), {
        timeout: 15_000,
        interval: 50,
      });
    } finally {
      loop.stop();
      await running;
      await disable([...tarpits, mine]);
    }
    const round = finished.find((f) => f.round.monitorId === mine)!;
    // Fired at its instant (the timer's own slack aside), not after the tarpits' rounds.
    expect(round.startedAt - round.round.roundAt).toBeLessThan(1_000);
    expect(round.outcome.verdict).toMatchObject({ status: 'up', failedRegions: [] });
    // The hostile tenant never had more than its 4 rounds (4 probes each) out at once.
    expect(mostProbesAtOnce).toBeLessThanOrEqual(4 * REGIONS);
    expect(mostProbesAtOnce).toBeGreaterThan(0);
  }, 60_000);
});

describe('claiming due rounds', () => {
  it("takes every tenant's earliest round before any tenant's next one", async () => {
    const now = Date.now();
    const theirs: string[] = [];
    for (let i = 0; i < 5; i++)
      theirs.push(await addMonitor(hostile, tarpit.url(`/?c=${i}`), now - 60_000 + i));
    const ours = await addMonitor(victim, healthy.url('/?c'), now - 1_000);
    try {
      const claimed = await claimDueRounds(db, { now, limit: 2 });
      expect(claimed.map((r) => r.monitorId).sort()).toEqual([theirs[0], ours].sort());
      await releaseRounds(db, claimed);
    } finally {
      await disable([...theirs, ours]);
    }
  });
});
