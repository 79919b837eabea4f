import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { type Config, config } from '@/lib/config';
import { authSecret } from './auth-secret';

/**
 * Secrets at rest and signed tokens: AES-256-GCM for values the server must read back (an OAuth
 * refresh token), HMAC-SHA256 for values it hands out and checks on return (an OAuth `state`).
 *
 * Keys: `ENCRYPTION_KEY` (32 bytes, base64) encrypts; unset (development, tests, a self-hosted
 * install without the Google client), a key is derived from the auth secret with HKDF under its own
 * label, so one secret never serves two purposes. Production with the Google client configured
 * refuses to start without `ENCRYPTION_KEY` (lib/config.ts). Signing keys are always derived from the
 * auth secret, one per purpose.
 */

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Keys derived from the auth secret, by label and secret. HKDF is deterministic, and it is the
 * costly part of opening a sealed value (about 0.1 ms on the 2-core machine): a list of 50 monitors
 * with 5 webhooks each opens 250 URLs, which took 40 ms of CPU a request before (npm run
 * bench:tenants, the hostile tenant's heaviest read). The secret is part of the key, so a secret that
 * changes derives afresh.
 */
const derived = new Map<string, Buffer>();
const DERIVED_MAX = 64;

function derive(c: Config, label: string): Buffer {
  const secret = authSecret(c);
  const id = `${label}\n${secret}`;
  let key = derived.get(id);
  if (!key) {
    if (derived.size >= DERIVED_MAX) derived.clear();
    key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `sitewatch ${label}`, 32));
    derived.set(id, key);
  }
  return key;
}

function encryptionKey(c: Config): Buffer {
  return c.ENCRYPTION_KEY ?? derive(c, 'encryption key');
}

const b64 = (bytes: Buffer) => bytes.toString('base64url');

/**
 * `v1.<iv>.<tag>.<ciphertext>` (base64url). `context` is bound as associated data: a value sealed
 * for one row (say `search-refresh-token:<site id>`) does not open when copied into another.
 */
export function seal(plaintext: string, context: string, c: Config = config()): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', encryptionKey(c), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const encrypted = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, b64(iv), b64(cipher.getAuthTag()), b64(encrypted)].join('.');
}

/** The plaintext of `sealed`, or null when it was sealed under another key or context, or altered. */
export function unseal(sealed: string, context: string, c: Config = config()): string | null {
  const [version, iv, tag, data, ...rest] = sealed.split('.');
  if (version !== VERSION || iv === undefined || tag === undefined || data === undefined || rest.length > 0)
    return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', encryptionKey(c), Buffer.from(iv, 'base64url'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return null;
  }
}

/** `<payload>.<HMAC-SHA256 of payload under the purpose's key>` (base64url), e.g. an OAuth state. */
export function signToken(purpose: string, payload: unknown, c: Config = config()): string {
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${body}.${mac(c, purpose, body)}`;
}

/** The payload of a token `signToken` made for this purpose, or null for anything else. */
export function verifyToken(purpose: string, token: string, c: Config = config()): unknown {
  const [body, signature, ...rest] = token.split('.');
  if (!body || !signature || rest.length > 0) return null;
  const expected = Buffer.from(mac(c, purpose, body), 'base64url');
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown;
  } catch {
    return null;
  }
}

function mac(c: Config, purpose: string, body: string): string {
  return createHmac('sha256', derive(c, `signing key: ${purpose}`))
    .update(body)
    .digest('base64url');
}
