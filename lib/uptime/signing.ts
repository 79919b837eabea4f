import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signature on a coordinator's call to a hosted probe region: the region's route handler
 * probes only batches the coordinator sent, so nobody can turn the public region endpoints into
 * a free load generator pointed at a third party.
 *
 * Header value `t=<ms since epoch>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, the shape Stripe
 * and Slack use: the timestamp is signed with the body, so an old request cannot be replayed
 * with a fresh timestamp. A request is accepted within `REPLAY_WINDOW_MS` of its timestamp, either
 * side (clocks of two hosts drift). Inside the window a captured request can be replayed against
 * the region it names (`batch.ts`); that costs one extra probe of monitors already due, and its
 * answer goes to the replayer, never into the coordinator's round. Pure functions: the caller
 * passes the clock.
 */
export const SIGNATURE_HEADER = 'x-sitewatch-signature';
export const REPLAY_WINDOW_MS = 5 * 60_000;
/** An HMAC key shorter than this is refused outright rather than used weakly. */
export const MIN_SECRET_LENGTH = 32;

export function signBatch(secret: string, body: string, nowMs: number): string {
  assertSecret(secret);
  const t = Math.floor(nowMs);
  return `t=${t},v1=${mac(secret, t, body)}`;
}

export type Verdict = { ok: true } | { ok: false; reason: string };

/** Whether `header` signs `body` with `secret`, close enough to `nowMs`. */
export function verifyBatch(
  secret: string,
  body: string,
  header: string | null | undefined,
  nowMs: number,
  windowMs = REPLAY_WINDOW_MS,
): Verdict {
  assertSecret(secret);
  if (!header) return { ok: false, reason: 'missing signature' };
  const fields = new Map(
    header.split(',').map((part) => {
      const eq = part.indexOf('=');
      return [part.slice(0, eq).trim(), part.slice(eq + 1).trim()] as const;
    }),
  );
  const t = Number(fields.get('t'));
  const given = fields.get('v1');
  if (!Number.isSafeInteger(t) || !given || !/^[0-9a-f]{64}$/.test(given)) {
    return { ok: false, reason: 'malformed signature' };
  }
  if (Math.abs(nowMs - t) > windowMs) return { ok: false, reason: 'signature outside the replay window' };
  const expected = Buffer.from(mac(secret, t, body), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(given, 'hex'))) return { ok: false, reason: 'bad signature' };
  return { ok: true };
}

function mac(secret: string, t: number, body: string): string {
  return createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
}

function assertSecret(secret: string): void {
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new Error(`the probe signing secret must be at least ${MIN_SECRET_LENGTH} characters`);
  }
}
