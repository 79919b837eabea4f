import { type CertWarningDays, certificateWarning, type SentCertWarning } from './certificate';
import { judgeRound, type MonitorState, nextStatus, type RoundVerdict } from './consensus';
import { advanceIncident, type IncidentEvent, type IncidentTracker, NO_INCIDENT } from './incident';
import type { RegionResult } from './types';

/**
 * Everything the coordinator keeps per monitor between rounds. The storage layer persists it
 * (monitor row columns, the open incident row, the warnings already queued) and hands it back.
 */
export interface MonitorRoundState {
  status: MonitorState;
  incident: IncidentTracker;
  certWarnings: SentCertWarning[];
  lastCheckedAt: number | null;
}

export const NEW_MONITOR: MonitorRoundState = {
  status: { status: 'unknown', statusSince: null },
  incident: NO_INCIDENT,
  certWarnings: [],
  lastCheckedAt: null,
};

export type UptimeEvent =
  | IncidentEvent
  | { kind: 'certificate-expiring'; expiresAt: number; days: CertWarningDays };

/**
 * One round applied to one monitor, pure: the consensus, the new state and the events to queue
 * (incident opened or recovered, a certificate expiry warning), in that order. The coordinator
 * writes the state and the events in one transaction, so a crash never sends an event twice or
 * loses one.
 *
 * The certificate judged is the one expiring first among the regions' results: regions may
 * reach different servers (a CDN's edges), and whichever lapses first breaks the site for
 * someone.
 *
 * `maintenance`: the monitor is inside a maintenance window at `at`, so a failing round opens no
 * incident (`advanceIncident`); the status and certificate warnings are judged as always.
 */
export function applyRound(
  state: MonitorRoundState,
  results: readonly RegionResult[],
  timeoutSeconds: number,
  at: number,
  maintenance = false,
): { verdict: RoundVerdict; state: MonitorRoundState; events: UptimeEvent[] } {
  const verdict = judgeRound(results, timeoutSeconds);
  if (verdict.status === 'unknown') return { verdict, state, events: [] };
  const { changed: _changed, ...status } = nextStatus(state.status, verdict, at);
  const incident = advanceIncident(state.incident, verdict, results, at, maintenance);
  const events: UptimeEvent[] = [...incident.events];
  const expiries = results.map((r) => r.tlsCertExpiresAt).filter((e): e is number => e !== null);
  const expiresAt = expiries.length === 0 ? null : Math.min(...expiries);
  const warning = certificateWarning(expiresAt, at, state.certWarnings);
  let certWarnings = state.certWarnings;
  if (warning.send !== null && expiresAt !== null) {
    events.push({ kind: 'certificate-expiring', expiresAt, days: warning.send });
    certWarnings = [...certWarnings, ...warning.record.map((days) => ({ expiresAt, days }))];
  }
  return {
    verdict,
    state: { status, incident: incident.tracker, certWarnings, lastCheckedAt: at },
    events,
  };
}
