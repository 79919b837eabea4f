/**
 * A webhook receiver's circuit breaker and lane (the `notification_receivers` row), pure: the
 * delivery worker (./deliver.ts) reads the state when it claims and writes `afterAttempt`'s answer
 * with each attempt's outcome, in the same transaction.
 *
 * - **closed**: deliveries go out as they come due.
 * - **open**: after BREAKER_THRESHOLD failed attempts in a row (timeouts, refusals, 5xx, a 4xx: any
 *   attempt the receiver did not accept), nothing is sent to the receiver until `openUntil`. Its
 *   deliveries wait, their attempts untouched, instead of each spending a worker on a receiver that
 *   is not answering. The wait doubles each time the circuit opens again: 30 s, 1, 2, 4... minutes,
 *   capped at BREAKER_MAX_OPEN_MS.
 * - **half-open**: once `openUntil` has passed, one delivery goes out (a receiver never has two in
 *   flight). Accepted: the circuit closes and the waiting deliveries follow. Not accepted: open again,
 *   for twice as long.
 *
 * Email addresses have no breaker: a mail goes to the mail provider, whose failures are not the
 * address's.
 */

export const BREAKER_THRESHOLD = 3;
export const BREAKER_FIRST_OPEN_MS = 30_000;
export const BREAKER_MAX_OPEN_MS = 30 * 60_000;
/**
 * A send that takes longer than this (or times out) puts its receiver on the slow lane, where a few
 * workers of their own serve the slow receivers of every tenant; the next quick success moves it back.
 */
export const SLOW_SEND_MS = 2_000;
/**
 * A delivery held by an open circuit for longer than this fails ("the receiver kept failing"): about
 * the span of the retry schedule (lib/notify/retry.ts) with room for the breaker's backoff.
 */
export const HELD_BY_CIRCUIT_MAX_MS = 6 * 60 * 60_000;

export type CircuitState = 'closed' | 'open' | 'half-open';

export interface ReceiverHealth {
  consecutiveFailures: number;
  opens: number;
  openedAt: number | null;
  openUntil: number | null;
  slow: boolean;
}

export const HEALTHY: ReceiverHealth = {
  consecutiveFailures: 0,
  opens: 0,
  openedAt: null,
  openUntil: null,
  slow: false,
};

export function circuitState(health: Pick<ReceiverHealth, 'openUntil'>, now: number): CircuitState {
  if (health.openUntil === null) return 'closed';
  return now < health.openUntil ? 'open' : 'half-open';
}

/** How long the circuit stays open the `opens`-th time it opens (1-based). */
export function openForMs(opens: number): number {
  return Math.min(BREAKER_MAX_OPEN_MS, BREAKER_FIRST_OPEN_MS * 2 ** Math.max(0, opens - 1));
}

export interface AttemptResult {
  accepted: boolean;
  timedOut: boolean;
  /** How long the send took (wall clock). */
  elapsedMs: number;
}

/** The receiver's health after one attempt finished at `now`. */
export function afterAttempt(health: ReceiverHealth, attempt: AttemptResult, now: number): ReceiverHealth {
  const slow = attempt.timedOut || attempt.elapsedMs > SLOW_SEND_MS;
  if (attempt.accepted) return { ...HEALTHY, slow };
  const consecutiveFailures = health.consecutiveFailures + 1;
  if (consecutiveFailures < BREAKER_THRESHOLD) return { ...health, consecutiveFailures, slow };
  // At the threshold, or a half-open probe that failed: (re)open for longer than the last time.
  const opens = health.opens + 1;
  return {
    consecutiveFailures,
    opens,
    openedAt: health.openUntil !== null && health.openedAt !== null ? health.openedAt : now,
    openUntil: now + openForMs(opens),
    slow,
  };
}
