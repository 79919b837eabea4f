/**
 * The delivery retry policy. A failed attempt is retried after `retryDelayMs(attempt)`: 1 minute,
 * doubling each time (2, 4, 8, 16, 32 minutes), capped at an hour, so the 8 attempts of
 * `MAX_DELIVERY_ATTEMPTS` span about two hours (1 + 2 + 4 + 8 + 16 + 32 + 60 = 123 minutes) and ride
 * out a receiver's restart or a short outage. A `Retry-After` (429, 503) longer than the backoff is
 * honoured up to the same hour. An answer that will not change on a retry (a redirect, which is not
 * followed; a 4xx other than 408, 425 and 429; an address the service may not reach) fails the
 * delivery at once.
 */
export const MAX_DELIVERY_ATTEMPTS = 8;
export const FIRST_RETRY_DELAY_MS = 60_000;
export const MAX_RETRY_DELAY_MS = 60 * 60_000;

/**
 * A claimed delivery's lease: a worker that has not recorded the outcome by then is taken for dead and
 * the delivery is sent again with the same idempotency key. Longer than any one attempt (webhooks
 * time out after 10 s, mail after 15 s) with room for a slow database.
 */
export const DELIVERY_LEASE_MS = 2 * 60_000;

/** Time before attempt `attempt + 1`, after attempt number `attempt` (1-based) failed. */
export function retryDelayMs(attempt: number, retryAfterMs?: number | null): number {
  const backoff = Math.min(MAX_RETRY_DELAY_MS, FIRST_RETRY_DELAY_MS * 2 ** Math.max(0, attempt - 1));
  if (retryAfterMs === null || retryAfterMs === undefined || !Number.isFinite(retryAfterMs)) return backoff;
  return Math.min(MAX_RETRY_DELAY_MS, Math.max(backoff, retryAfterMs));
}

/** Whether an HTTP answer is worth retrying: server errors, timeouts, rate limits. */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 425 || status === 429;
}

/** `Retry-After` as milliseconds (delta-seconds or an HTTP date), or null. */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
