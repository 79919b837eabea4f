import { activeRunner, createFunction, onBoot, sendEvent } from '@/jobs/runtime';
import { getDb } from '@/lib/db/client';
import { type FinishedRound, RoundLoop } from '@/lib/uptime/coordinator';
import { rollupClosedHours } from '@/lib/uptime/metrics';
import { hostedRegions, regionProbers } from '@/lib/uptime/probers';
import { pruneUptimeHistory } from '@/lib/uptime/retention';

/**
 * Uptime rounds run in a loop of their own rather than on the minute cron, which could not start
 * a round within a second of its time (README, "Uptime": scheduling):
 * - embedded: the loop starts with the runner (boot hook below) and runs until it stops;
 * - hosted (Inngest): `uptime-rounds` runs the loop for the minute it was scheduled in, and the
 *   next minute's invocation takes over; leases keep overlapping loops from probing a round twice.
 */
const MINUTE_MS = 60_000;

/**
 * A round that opened or closed an incident queued its notifications in its own transaction; the
 * delivery job is told at once (one event per second at most: the runtime drops a repeated id)
 * rather than finding them at its next poll or minute.
 */
function announceRound(round: FinishedRound): void {
  if (round.outcome.events.length === 0) return;
  const second = Math.floor(Date.now() / 1000);
  sendEvent({ name: 'notify/queued', id: `notify-uptime:${second}`, data: { reason: 'uptime' } }).catch(
    (error: unknown) => console.error('uptime: announcing queued notifications failed:', error),
  );
}

export const uptimeRoundsFunction = createFunction(
  {
    id: 'uptime-rounds',
    name: 'Probe uptime rounds for a minute',
    retries: 1,
    triggers: [{ cron: '* * * * *' }],
  },
  async ({ event, step }) => {
    // In-process, the boot loop already runs every round.
    if (activeRunner()) return { rounds: 0, loop: 'embedded' };
    const minute = Math.floor((typeof event.ts === 'number' ? event.ts : Date.now()) / MINUTE_MS) * MINUTE_MS;
    return step.run('run-rounds', async () =>
      new RoundLoop(getDb, {
        probers: regionProbers(),
        batchWindowMs: hostedRegions() ? 1_000 : 0,
        onRound: announceRound,
      }).run(minute + MINUTE_MS),
    );
  },
);

/**
 * Every 10 minutes: closed hours rolled into hourly buckets (raw results deleted), old buckets
 * pruned, and the pauses, maintenance windows and unused domains nothing reads any more.
 */
export const uptimeRollupFunction = createFunction(
  {
    id: 'uptime-rollup',
    name: 'Roll up closed hours of uptime probes',
    retries: 2,
    triggers: [{ cron: '*/10 * * * *' }],
  },
  async ({ step }) => {
    const rolled = await step.run('rollup', async () => rollupClosedHours(await getDb(), Date.now()));
    const pruned = await step.run('prune', async () => pruneUptimeHistory(await getDb(), Date.now()));
    return { ...rolled, prunedHistory: pruned };
  },
);

// The embedded runner's loop: every round of every monitor, from the four regions, until the
// runner that started it stops.
onBoot(() => {
  const runner = activeRunner();
  const loop = new RoundLoop(getDb, {
    probers: regionProbers(),
    batchWindowMs: hostedRegions() ? 1_000 : 0,
    keepRunning: () => activeRunner() === runner,
    onRound: announceRound,
  });
  void loop.run();
});
