import { describe, expect, it } from 'vitest';
import { parseConfig } from '@/lib/config';
import { seal, signToken, unseal, verifyToken } from '@/lib/crypto/secrets';

const keyA = Buffer.alloc(32, 1).toString('base64');
const keyB = Buffer.alloc(32, 2).toString('base64');
const withKey = (key?: string) =>
  parseConfig({
    NODE_ENV: 'test',
    BETTER_AUTH_SECRET: 's'.repeat(40),
    ...(key ? { ENCRYPTION_KEY: key } : {}),
  });

describe('seal / unseal (AES-256-GCM)', () => {
  it('round-trips, and the sealed form shows nothing of the plaintext', () => {
    const c = withKey(keyA);
    const sealed = seal('1//refresh-token-value', 'ctx:site-1', c);
    expect(sealed).not.toContain('refresh');
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(unseal(sealed, 'ctx:site-1', c)).toBe('1//refresh-token-value');
    // A fresh IV each time: the same plaintext never seals to the same text.
    expect(seal('1//refresh-token-value', 'ctx:site-1', c)).not.toBe(sealed);
  });

  it('refuses another key, another context, and any alteration', () => {
    const sealed = seal('secret', 'ctx:site-1', withKey(keyA));
    expect(unseal(sealed, 'ctx:site-1', withKey(keyB))).toBeNull();
    expect(unseal(sealed, 'ctx:site-2', withKey(keyA))).toBeNull();
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[3]!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    parts[3] = flipped.toString('base64url');
    expect(unseal(parts.join('.'), 'ctx:site-1', withKey(keyA))).toBeNull();
    expect(unseal('garbage', 'ctx:site-1', withKey(keyA))).toBeNull();
  });

  it('derives a key from the auth secret when ENCRYPTION_KEY is unset', () => {
    const c = withKey();
    expect(unseal(seal('x', 'ctx', c), 'ctx', c)).toBe('x');
    expect(unseal(seal('x', 'ctx', c), 'ctx', withKey(keyA))).toBeNull();
  });
});

describe('ENCRYPTION_KEY', () => {
  it('must be 32 bytes of base64', () => {
    expect(() => parseConfig({ ENCRYPTION_KEY: Buffer.alloc(16).toString('base64') })).toThrow(
      /ENCRYPTION_KEY: must be 32 bytes/,
    );
    expect(parseConfig({ ENCRYPTION_KEY: keyA }).ENCRYPTION_KEY?.length).toBe(32);
  });

  it('is required in production once the Google client is configured', () => {
    const production = {
      NODE_ENV: 'production',
      GOOGLE_CLIENT_ID: 'id',
      GOOGLE_CLIENT_SECRET: 'secret',
    };
    expect(() => parseConfig(production)).toThrow(/ENCRYPTION_KEY/);
    expect(parseConfig({ ...production, ENCRYPTION_KEY: keyA }).googleConfigured).toBe(true);
    expect(parseConfig({ NODE_ENV: 'production' }).googleConfigured).toBe(false);
  });

  it('defaults the Google and CrUX endpoints, without trailing slashes on the API bases', () => {
    const c = parseConfig({
      CRUX_API_URL: 'http://127.0.0.1:9000/',
      SEARCH_CONSOLE_API_URL: 'http://127.0.0.1:9001/',
    });
    expect(c.CRUX_API_URL).toBe('http://127.0.0.1:9000');
    expect(c.SEARCH_CONSOLE_API_URL).toBe('http://127.0.0.1:9001');
    expect(parseConfig({}).CRUX_API_URL).toBe('https://chromeuxreport.googleapis.com');
    expect(parseConfig({}).GOOGLE_TOKEN_URL).toBe('https://oauth2.googleapis.com/token');
    expect(parseConfig({ CRUX_API_KEY: '' }).CRUX_API_KEY).toBeUndefined();
  });
});

describe('signToken / verifyToken', () => {
  it('verifies its own tokens for the same purpose only', () => {
    const c = withKey();
    const token = signToken('oauth-state', { s: 'site', exp: 1 }, c);
    expect(verifyToken('oauth-state', token, c)).toEqual({ s: 'site', exp: 1 });
    expect(verifyToken('other-purpose', token, c)).toBeNull();
    const [body, signature] = token.split('.');
    const forged = `${Buffer.from(JSON.stringify({ s: 'other', exp: 1 })).toString('base64url')}.${signature}`;
    expect(verifyToken('oauth-state', forged, c)).toBeNull();
    expect(verifyToken('oauth-state', `${body}.`, c)).toBeNull();
    expect(verifyToken('oauth-state', 'x', c)).toBeNull();
  });
});
