import { type ExpiryWarningDecision, expiryWarning, type SentExpiryWarning } from './expiry-warnings';

/** Days before a certificate's expiry at which a warning is queued: two weeks to plan, three days as a last call. */
export const CERT_WARNING_DAYS = [14, 3] as const;
export type CertWarningDays = (typeof CERT_WARNING_DAYS)[number];

/** A warning already queued: which certificate (by its expiry date) and which threshold. */
export type SentCertWarning = SentExpiryWarning;

export type CertWarningDecision = ExpiryWarningDecision<CertWarningDays>;

/**
 * Whether a probe that saw a certificate expiring at `expiresAt` should queue an expiry warning,
 * given the warnings already queued (./expiry-warnings.ts): one per threshold and certificate, a
 * certificate told apart by its expiry date, so a renewed certificate is warned about afresh. An
 * expired certificate counts as inside every threshold (its probes fail with `tls` as well).
 */
export const certificateWarning = (
  expiresAt: number | null,
  now: number,
  sent: readonly SentCertWarning[],
): CertWarningDecision => expiryWarning(CERT_WARNING_DAYS, expiresAt, now, sent);
