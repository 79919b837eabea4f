import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '@/lib/config';
import { AUTH_SECRET_BYTES, AUTH_SECRET_FILE, authSecret } from '@/lib/crypto/auth-secret';

const PUBLISHED_DEV_SECRET = 'sitewatch-development-secret-change-me-in-production';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'sitewatch-secret-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** `npm start` on the embedded defaults: production, PGlite on disk, no secret given. */
const embedded = (extra: Record<string, string> = {}) =>
  parseConfig({ NODE_ENV: 'production', PGLITE_DIR: path.join(folder, 'pglite'), ...extra });

describe('authSecret', () => {
  it('generates a random secret on first boot, owner-only, in the data folder, and reuses it', () => {
    const first = authSecret(embedded());
    const file = path.join(folder, AUTH_SECRET_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe(first);
    expect(Buffer.from(first, 'base64url')).toHaveLength(AUTH_SECRET_BYTES);
    expect(first).not.toBe(PUBLISHED_DEV_SECRET);
    // The next boot signs with the same key, so sessions survive a restart.
    expect(authSecret(embedded())).toBe(first);
  });

  it('gives every new install its own secret', () => {
    const one = authSecret(embedded());
    rmSync(path.join(folder, AUTH_SECRET_FILE));
    expect(authSecret(embedded())).not.toBe(one);
  });

  it('reads the file again once it changed (what it read is kept only while the file is the same)', () => {
    const file = path.join(folder, AUTH_SECRET_FILE);
    writeFileSync(file, 'b'.repeat(43), { mode: 0o600 });
    expect(authSecret(embedded())).toBe('b'.repeat(43));
    expect(authSecret(embedded())).toBe('b'.repeat(43));
    writeFileSync(file, 'c'.repeat(44), { mode: 0o600 });
    expect(authSecret(embedded())).toBe('c'.repeat(44));
  });

  it('lets BETTER_AUTH_SECRET win and then writes no file', () => {
    const given = 'x'.repeat(40);
    expect(authSecret(embedded({ BETTER_AUTH_SECRET: given }))).toBe(given);
    expect(() => statSync(path.join(folder, AUTH_SECRET_FILE))).toThrow(/ENOENT/);
  });

  it('tightens a secret file restored with loose permissions and refuses a truncated one', () => {
    const file = path.join(folder, AUTH_SECRET_FILE);
    writeFileSync(file, 'a'.repeat(43), { mode: 0o644 });
    expect(authSecret(embedded())).toBe('a'.repeat(43));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    writeFileSync(file, 'short');
    expect(() => authSecret(embedded())).toThrow(/fewer than 43 characters/);
  });

  it('keeps nothing on disk for an in-memory database or tests: one random secret per process', () => {
    const memory = authSecret(embedded({ PGLITE_DIR: 'memory://' }));
    expect(memory).not.toBe(PUBLISHED_DEV_SECRET);
    expect(Buffer.from(memory, 'base64url')).toHaveLength(AUTH_SECRET_BYTES);
    expect(authSecret(embedded({ PGLITE_DIR: 'memory://' }))).toBe(memory);
    expect(authSecret(parseConfig({ NODE_ENV: 'test', PGLITE_DIR: path.join(folder, 'pglite') }))).toBe(
      memory,
    );
    expect(() => statSync(path.join(folder, AUTH_SECRET_FILE))).toThrow(/ENOENT/);
  });

  it('gives every copy of the module in one process the same generated secret', async () => {
    // Next loads this module once for the route handlers and again for the pages: a session signed
    // by the first must verify on the second (issue 24 item 11). A fresh import is such a second copy.
    const c = parseConfig({ NODE_ENV: 'test' });
    const here = authSecret(c);
    vi.resetModules();
    const other = await import('@/lib/crypto/auth-secret');
    expect(other.authSecret).not.toBe(authSecret);
    expect(other.authSecret(c)).toBe(here);
  });
});
