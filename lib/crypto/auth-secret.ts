import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '@/lib/config';

/** 32 random bytes: 256 bits, the full key strength of the HMAC-SHA256 that signs sessions and tokens. */
export const AUTH_SECRET_BYTES = 32;
/** Next to the database in the data folder, so a backup of the folder restores sessions with it. */
export const AUTH_SECRET_FILE = 'auth-secret';
// What the file holds: the bytes in base64url (43 characters); shorter means it was cut or edited.
const MIN_SECRET_LENGTH = Math.ceil((AUTH_SECRET_BYTES * 4) / 3);
const OWNER_ONLY = 0o600;

// The generated secret of a process that keeps nothing on disk. On globalThis, not in this module:
// Next loads a module once per bundle layer (route handlers, pages, instrumentation), and a session
// signed with the route handlers' secret must verify on the pages (issue 24 item 11).
const PROCESS_SECRET = Symbol.for('sitewatch.auth.processSecret');
type SecretHolder = { [PROCESS_SECRET]?: string };

/**
 * The key better-auth signs with. `BETTER_AUTH_SECRET` wins. Otherwise it is generated on first boot
 * and kept in the data folder (the parent of `PGLITE_DIR`), readable by the server's user only.
 * Tests and an in-memory database keep nothing on disk, so they get a random secret for the life of
 * the process (their sessions do not outlive it either). Production with a real database refuses to
 * start without `BETTER_AUTH_SECRET` (see parseConfig): its instances share no data folder.
 */
export function authSecret(c: Config): string {
  if (c.BETTER_AUTH_SECRET) return c.BETTER_AUTH_SECRET;
  const folder = dataFolder(c);
  if (!folder) {
    const holder = globalThis as SecretHolder;
    holder[PROCESS_SECRET] ??= newSecret();
    return holder[PROCESS_SECRET];
  }
  return loadOrCreateSecret(path.join(folder, AUTH_SECRET_FILE));
}

/** The folder the server keeps its files in, or null when nothing is kept on disk. */
export function dataFolder(c: Pick<Config, 'NODE_ENV' | 'PGLITE_DIR'>): string | null {
  if (c.NODE_ENV === 'test' || /^[a-z][a-z0-9+.-]*:\/\//i.test(c.PGLITE_DIR)) return null;
  return path.dirname(path.resolve(c.PGLITE_DIR));
}

/** Reads the secret file, creating it first when missing; two processes starting at once agree on one. */
export function loadOrCreateSecret(file: string): string {
  const existing = readSecret(file);
  if (existing !== null) return existing;
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // Written whole under a temporary name, then linked into place: the link fails if another process
  // won the race, and a crash never leaves a half-written secret behind.
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  writeFileSync(temporary, newSecret(), { mode: OWNER_ONLY, flag: 'wx' });
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temporary);
  }
  const created = readSecret(file);
  if (created === null) throw new Error(`could not create the auth secret file ${file}`);
  return created;
}

// The secret files read, by path, with the file's identity when read: every seal and unseal asks
// for the secret (lib/crypto/secrets.ts), and reading the file each time cost 40 to 60 µs where a
// stat costs 10. The file is read again whenever it changed (replaced, rewritten, its mode loosened).
// On globalThis for the same reason as the process secret.
const SECRET_FILES = Symbol.for('sitewatch.auth.secretFiles');
type FileHolder = { [SECRET_FILES]?: Map<string, { stamp: string; text: string }> };

function readSecret(file: string): string | null {
  let stamp: string;
  try {
    const stat = statSync(file);
    stamp = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.mode}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const holder = globalThis as FileHolder;
  holder[SECRET_FILES] ??= new Map();
  const read = holder[SECRET_FILES];
  const known = read.get(file);
  if (known?.stamp === stamp) return known.text;
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (text.length < MIN_SECRET_LENGTH) {
    throw new Error(
      `the auth secret file ${file} holds fewer than ${MIN_SECRET_LENGTH} characters: delete it to generate a new one (everyone signs in again) or set BETTER_AUTH_SECRET`,
    );
  }
  // A copy restored with looser permissions is tightened rather than trusted as it is.
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, OWNER_ONLY);
  else read.set(file, { stamp, text });
  return text;
}

const newSecret = () => randomBytes(AUTH_SECRET_BYTES).toString('base64url');
