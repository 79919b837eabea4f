/** Days before a certificate's expiry at which a warning is queued: two weeks to plan, three days as a last call. */
export const CERT_WARNING_DAYS = [14, 3] as const;
export type CertWarningDays = (typeof CERT_WARNING_DAYS)[number];

const DAY_MS = 86_400_000;

/** A warning already queued: which certificate (by its expiry date) and which threshold. */
export interface SentCertWarning {
  expiresAt: number;
  days: CertWarningDays;
}

export interface CertWarningDecision {
  /** The warning to queue now (the most urgent threshold reached), or null. */
  send: CertWarningDays | null;
  /** The thresholds to record as done for this certificate, `send` included. */
  record: CertWarningDays[];
}

/**
 * Whether a probe that saw a certificate expiring at `expiresAt` should queue an expiry warning,
 * given the warnings already queued. One warning per threshold and certificate: a certificate is
 * told apart by its expiry date, so a renewed certificate (a later date) is warned about afresh.
 *
 * A certificate first seen inside both thresholds (3 days left, say) gets one warning, the
 * urgent one, and both thresholds are recorded: the 14-day warning would say less, later. An
 * expired certificate counts as inside every threshold (its probes fail with `tls` as well).
 */
export function certificateWarning(
  expiresAt: number | null,
  now: number,
  sent: readonly SentCertWarning[],
): CertWarningDecision {
  if (expiresAt === null) return { send: null, record: [] };
  const done = new Set(sent.filter((w) => w.expiresAt === expiresAt).map((w) => w.days));
  const reached = CERT_WARNING_DAYS.filter((days) => expiresAt - now <= days * DAY_MS && !done.has(days));
  if (reached.length === 0) return { send: null, record: [] };
  return { send: Math.min(...reached) as CertWarningDays, record: reached };
}
