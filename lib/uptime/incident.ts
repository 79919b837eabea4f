import type { RoundVerdict } from './consensus';
import type { ProbeCause, RegionResult } from './types';

/** Healthy rounds in a row that close an incident: one good round behind a flapping target is not a recovery. */
export const RECOVERY_ROUNDS = 2;

export interface OpenIncident {
  /** The round that confirmed the outage (spec: `down_at`, the confirmation time). */
  downAt: number;
  /** The failing regions' majority cause in that round. */
  cause: ProbeCause | null;
  /** Every region's result in that round (spec: `regions`, stored JSON-encoded). */
  regions: RegionResult[];
}

export interface RecoveredIncident extends OpenIncident {
  /** The first of the healthy rounds that closed it: when the target answered again. */
  recoveredAt: number;
}

export interface IncidentTracker {
  open: OpenIncident | null;
  /** Healthy rounds in a row since the last `down` round while an incident is open. */
  healthyRounds: number;
  /** When that healthy streak began; null without one. */
  healthySince: number | null;
}

export type IncidentEvent =
  | { kind: 'opened'; incident: OpenIncident }
  | { kind: 'recovered'; incident: RecoveredIncident };

export const NO_INCIDENT: IncidentTracker = { open: null, healthyRounds: 0, healthySince: null };

/**
 * The incident state machine (issue 14, item 4), pure: the tracker after one round and the
 * notifications that round fires (what to put in the outbox; delivery is not its concern).
 *
 * - No incident, round `down`: one opens, with the round's majority cause and every region's
 *   result as the snapshot; `opened` fires.
 * - Open incident, round `down`: it stays open and any healthy streak starts over, so a target
 *   flapping down, up, down, up keeps one incident rather than opening one per dip.
 * - Open incident, round `up` or `degraded` (the target answers): the streak grows; the
 *   RECOVERY_ROUNDS-th healthy round in a row closes it and `recovered` fires. `recoveredAt` is the
 *   streak's first round, so the downtime ends when the target came back, not a round later,
 *   just as `downAt` is the first round that saw the outage.
 * - A round that says nothing (`unknown`: no region answered) changes nothing.
 * - Inside a maintenance window (`maintenance`) a `down` round opens nothing: the outage was
 *   announced, so nobody is alerted. An incident already open goes on as above. The first `down`
 *   round after the window opens the incident then, with its one `opened`.
 */
export function advanceIncident(
  tracker: IncidentTracker,
  verdict: RoundVerdict,
  results: readonly RegionResult[],
  at: number,
  maintenance = false,
): { tracker: IncidentTracker; events: IncidentEvent[] } {
  if (verdict.status === 'unknown') return { tracker, events: [] };
  const down = verdict.status === 'down';
  if (!tracker.open) {
    if (!down || maintenance) return { tracker, events: [] };
    const incident: OpenIncident = { downAt: at, cause: verdict.cause, regions: [...results] };
    return {
      tracker: { open: incident, healthyRounds: 0, healthySince: null },
      events: [{ kind: 'opened', incident }],
    };
  }
  if (down) return { tracker: { ...tracker, healthyRounds: 0, healthySince: null }, events: [] };
  const healthyRounds = tracker.healthyRounds + 1;
  const healthySince = tracker.healthySince ?? at;
  if (healthyRounds < RECOVERY_ROUNDS)
    return { tracker: { ...tracker, healthyRounds, healthySince }, events: [] };
  return {
    tracker: NO_INCIDENT,
    events: [{ kind: 'recovered', incident: { ...tracker.open, recoveredAt: healthySince } }],
  };
}
