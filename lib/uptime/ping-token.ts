import { createHash, randomBytes } from 'node:crypto';
import { config } from '@/lib/config';
import type { UptimeMonitor } from '@/lib/db/schema';

/*
 * A heartbeat monitor's ping token and ping URL (./heartbeats.ts). Stored as its SHA-256 only, as
 * API keys are; the URL in full is shown once, at creation and at each rotation.
 */

const TOKEN_PREFIX = 'hb_';

/** `hb_` + 32 random bytes in base64url: unguessable, and recognizable in a crontab or a secret scanner. */
export function newPingToken(): string {
  return `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function hashPingToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The part of the token the masked ping URL shows: enough to tell URLs apart, far too little to ping. */
export function pingTokenHint(token: string): string {
  return token.slice(0, TOKEN_PREFIX.length + 4);
}

/** A token as they look: anything else is a 404 without a database read. */
export function looksLikePingToken(token: string): boolean {
  return /^hb_[A-Za-z0-9_-]{43}$/.test(token);
}

export function pingUrl(token: string): string {
  return `${config().appUrl}/ping/${token}`;
}

/** The ping URL as every read shows it: the full one is shown once, at creation and rotation. */
export function maskedPingUrl(hint: string): string {
  return `${config().appUrl}/ping/${hint}…`;
}

/** The new token and its stored columns. */
export function issuePingToken() {
  const token = newPingToken();
  return { token, columns: { ping_token_hash: hashPingToken(token), ping_token_hint: pingTokenHint(token) } };
}

/** When a ping is missed: `anchor` (the last ping, or when watching began) plus the period and grace. */
export function heartbeatDeadline(
  anchor: number,
  m: Pick<UptimeMonitor, 'period_seconds' | 'grace_seconds'>,
): number {
  return anchor + ((m.period_seconds ?? 0) + (m.grace_seconds ?? 0)) * 1000;
}
