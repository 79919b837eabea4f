import {
  CAUSES,
  type MonitorStatus,
  type ProbeCause,
  REGIONS,
  type Region,
  type RegionResult,
} from './types';

/** Failing regions that make a round `down`: two of four, so one region's bad network never can. */
export const DOWN_QUORUM = 2;
/** Ceiling of the slowness threshold (see `slowThresholdMs`). */
export const SLOW_THRESHOLD_MS = 2_000;

/**
 * How slow a successful probe must be to count as slow: 2 s (a page whose headers take longer
 * than that is one visitors notice), or half the monitor's timeout when that is lower, so a
 * monitor that allows 1 s is degraded past 500 ms rather than never before it fails.
 */
export function slowThresholdMs(timeoutSeconds: number): number {
  return Math.min(SLOW_THRESHOLD_MS, (timeoutSeconds * 1000) / 2);
}

export interface RoundVerdict {
  status: MonitorStatus;
  /** Regions whose probe failed, in REGIONS order. */
  failedRegions: Region[];
  /** Regions that succeeded slower than the threshold, in REGIONS order. */
  slowRegions: Region[];
  /** The failing regions' majority cause (ties go to the cause listed first in CAUSES); null when none failed. */
  cause: ProbeCause | null;
  /** Why the round is degraded: one region failing (named in failedRegions) or the target being slow. */
  degradedBy: 'region' | 'slow' | null;
}

/**
 * The consensus of one round (issue 14, item 4), from the regions that answered:
 * - `down` when at least DOWN_QUORUM regions failed;
 * - `degraded` when exactly one failed (it is named), or when none failed but at least
 *   DOWN_QUORUM were slower than `slowThresholdMs`: the same quorum as for down, since one far
 *   region (Oceania to a European origin) is often slow on its own network;
 * - `up` otherwise;
 * - `unknown` when no region answered (the round says nothing; see `nextStatus`).
 */
export function judgeRound(results: readonly RegionResult[], timeoutSeconds: number): RoundVerdict {
  const ordered = [...results].sort((a, b) => REGIONS.indexOf(a.region) - REGIONS.indexOf(b.region));
  const failed = ordered.filter((r) => !r.ok);
  const threshold = slowThresholdMs(timeoutSeconds);
  const slow = ordered.filter((r) => r.ok && r.totalMs > threshold);
  const verdict = {
    failedRegions: failed.map((r) => r.region),
    slowRegions: slow.map((r) => r.region),
    cause: majorityCause(failed),
  };
  if (ordered.length === 0) return { ...verdict, status: 'unknown', degradedBy: null };
  if (failed.length >= DOWN_QUORUM) return { ...verdict, status: 'down', degradedBy: null };
  if (failed.length === 1) return { ...verdict, status: 'degraded', degradedBy: 'region' };
  if (slow.length >= DOWN_QUORUM) return { ...verdict, status: 'degraded', degradedBy: 'slow' };
  return { ...verdict, status: 'up', degradedBy: null };
}

export function majorityCause(failed: readonly { cause: ProbeCause | null }[]): ProbeCause | null {
  const counts = new Map<ProbeCause, number>();
  for (const { cause } of failed) if (cause) counts.set(cause, (counts.get(cause) ?? 0) + 1);
  let best: ProbeCause | null = null;
  for (const cause of CAUSES) {
    const n = counts.get(cause) ?? 0;
    if (n > 0 && (best === null || n > (counts.get(best) ?? 0))) best = cause;
  }
  return best;
}

export interface MonitorState {
  status: MonitorStatus;
  /** When the current status began; null while `unknown` before the first round. */
  statusSince: number | null;
}

/**
 * The monitor's status after a round at `at`: `statusSince` moves only when the status changes.
 * A round no region answered leaves everything as it was: the monitor is not `unknown` again
 * because the probing infrastructure hiccupped.
 */
export function nextStatus(
  current: MonitorState,
  verdict: RoundVerdict,
  at: number,
): MonitorState & { changed: boolean } {
  if (verdict.status === 'unknown' || verdict.status === current.status)
    return { ...current, changed: false };
  return { status: verdict.status, statusSince: at, changed: true };
}
