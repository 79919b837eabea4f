import { createHash, randomBytes } from 'node:crypto';

/*
 * An API key's secret: how it looks, how it is made and how it is stored. It lives with
 * authentication, which reads it on every keyed request; the keys service issues it.
 */

/** Every key starts with this, so it is recognizable in code and in secret scanners. */
export const KEY_PREFIX = 'sw_';

/** `sw_` + 32 random bytes in base64url (43 characters). */
export function generateKeySecret(): string {
  return `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function hashKeySecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** The part shown in listings: enough to tell keys apart, far too little to use. */
export function displayPrefix(secret: string): string {
  return secret.slice(0, KEY_PREFIX.length + 6);
}

export function looksLikeKey(value: string): boolean {
  return value.startsWith(KEY_PREFIX) && value.length >= KEY_PREFIX.length + 43 && value.length <= 200;
}
