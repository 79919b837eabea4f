import { createHash } from 'node:crypto';
import { RETRY_DELAY_MS } from './probe';

/**
 * When a monitor's rounds happen (README.md, "Scheduling"). Pure: the clock goes in as `now`.
 *
 * Each monitor has a phase inside its cadence, fixed by its id: its rounds fall on the instants
 * `phase + k * cadence`. A thousand monitors created in the same second (an import, a script) are
 * then spread evenly over the minute instead of firing 4,000 probes in the same instant every
 * minute. The first round is the exception: it fires at once on create and resume (spec), and the
 * next one lands on the monitor's phase, between half a cadence and a cadence and a half later.
 */

/** The monitor's offset inside its cadence, in [0, cadenceMs): stable for a given id and cadence. */
export function roundPhaseMs(monitorId: string, cadenceMs: number): number {
  const digest = createHash('sha256').update(monitorId).digest();
  return digest.readUIntBE(0, 6) % cadenceMs;
}

/**
 * The round after the one scheduled at `roundAt`: the first instant on the monitor's phase at
 * least half a cadence after it and after `now`. A round on time (on its phase, finished within
 * half a cadence) is followed exactly one cadence later; one that ran so late, or so long, that
 * its successor's slot has passed is followed by the next free slot rather than a burst of
 * catch-up rounds, so a monitor's rounds never overlap.
 */
export function nextRoundAt(monitorId: string, cadenceSeconds: number, roundAt: number, now: number): number {
  const cadenceMs = cadenceSeconds * 1000;
  const phase = roundPhaseMs(monitorId, cadenceMs);
  const after = Math.max(roundAt + cadenceMs / 2, now);
  const slot = Math.floor((after - phase) / cadenceMs) * cadenceMs + phase;
  return slot > after ? slot : slot + cadenceMs;
}

/** Slack on top of a round's worst case: claiming ahead of the due time, writing the results. */
export const LEASE_MARGIN_MS = 30_000;

/**
 * How long a claimed round is leased: its worst case (a probe that times out, waits for its retry
 * and times out again: 2 x 30 s + 5 s at the longest timeout) plus the margin. A lease that runs
 * out means the worker died or hung; the round is then claimed again and probed afresh.
 */
export function roundLeaseMs(timeoutSeconds: number): number {
  return timeoutSeconds * LEASE_MS_PER_TIMEOUT_SECOND + RETRY_DELAY_MS + LEASE_MARGIN_MS;
}
/** The lease grows with the timeout: two attempts of it (the claim query computes it in SQL). */
export const LEASE_MS_PER_TIMEOUT_SECOND = 2 * 1000;
