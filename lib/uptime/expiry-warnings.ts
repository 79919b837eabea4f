const DAY_MS = 86_400_000;

/** A warning already queued: which expiry (told apart by its date) and which threshold, in days. */
export interface SentExpiryWarning {
  expiresAt: number;
  days: number;
}

export interface ExpiryWarningDecision<D extends number> {
  /** The warning to queue now (the most urgent threshold reached), or null. */
  send: D | null;
  /** The thresholds to record as done for this expiry date, `send` included. */
  record: D[];
}

/**
 * Whether something expiring at `expiresAt` (a certificate, a domain's registration) should be
 * warned about now, given the `thresholds` (days ahead) and the warnings already queued. One warning
 * per threshold and expiry date: a renewal (a later date) is warned about afresh.
 *
 * Something first seen inside several thresholds (3 days left, say) gets one warning, the most
 * urgent, and every threshold it is inside is recorded: the earlier warnings would say less, later.
 * What has already expired counts as inside every threshold.
 */
export function expiryWarning<D extends number>(
  thresholds: readonly D[],
  expiresAt: number | null,
  now: number,
  sent: readonly SentExpiryWarning[],
): ExpiryWarningDecision<D> {
  if (expiresAt === null) return { send: null, record: [] };
  const done = new Set(sent.filter((w) => w.expiresAt === expiresAt).map((w) => w.days));
  const reached = thresholds.filter((days) => expiresAt - now <= days * DAY_MS && !done.has(days));
  if (reached.length === 0) return { send: null, record: [] };
  return { send: Math.min(...reached) as D, record: reached };
}
