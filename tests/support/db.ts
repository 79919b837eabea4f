import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { resetConfig } from '@/lib/config';
import { closeDb, type Db, getDbHandle } from '@/lib/db/client';
import { addressOfUrl, type NeonWsProxy, startNeonWsProxy } from './neon-ws-proxy';

/**
 * A fresh database for one test file: a new Postgres database cloned from a migrated template when
 * TEST_DATABASE_URL is set, an in-memory PGlite otherwise. The app's own `getDb()` then returns it,
 * so route handlers under test use exactly the database the test inspects.
 *
 * `TEST_DATABASE_DRIVER=neon` (with TEST_DATABASE_URL) runs the file on the hosted path instead:
 * Neon's serverless driver over a WebSocket, through NEON_WS_PROXY when the caller set it, else
 * through a proxy started here (tests/support/neon-ws-proxy.ts) in front of the same server.
 */
export async function useTestDatabase(): Promise<{ db: Db; driver: string; teardown: () => Promise<void> }> {
  await closeDb();
  const serverUrl = process.env.TEST_DATABASE_URL;
  const onNeon = process.env.TEST_DATABASE_DRIVER === 'neon';
  if (onNeon && !serverUrl)
    throw new Error('TEST_DATABASE_DRIVER=neon needs TEST_DATABASE_URL (a Postgres server)');
  let dropDatabase: (() => Promise<void>) | undefined;
  let proxy: NeonWsProxy | undefined;
  if (serverUrl) {
    const name = `sw_test_${randomBytes(6).toString('hex')}`;
    const template = await ensureTemplate(serverUrl);
    await adminQuery(serverUrl, `create database ${name} template ${template}`);
    process.env.DATABASE_URL = withDatabase(serverUrl, name);
    dropDatabase = () => adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
    if (onNeon && !process.env.NEON_WS_PROXY) {
      proxy = await startNeonWsProxy({ allow: [addressOfUrl(serverUrl)] });
      process.env.NEON_WS_PROXY = proxy.address;
    }
  } else {
    delete process.env.DATABASE_URL;
    process.env.PGLITE_DIR = 'memory://';
  }
  resetConfig();
  const handle = await getDbHandle();
  if (onNeon && handle.driver !== 'neon')
    throw new Error(`TEST_DATABASE_DRIVER=neon opened ${handle.driver}`);
  return {
    db: handle.db,
    driver: handle.driver,
    teardown: async () => {
      await closeDb();
      if (proxy) {
        delete process.env.NEON_WS_PROXY;
        await proxy.close();
      }
      await dropDatabase?.();
    },
  };
}

/** The URL of another database on the same server. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** One statement on its own connection (create or drop a database: never inside a pool's session). */
export async function adminQuery(serverUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** One migrated template per migration set, created once under an advisory lock. */
async function ensureTemplate(serverUrl: string): Promise<string> {
  const journal = readFileSync(path.resolve('drizzle/meta/_journal.json'), 'utf8');
  const sqlFiles = JSON.parse(journal).entries.map((e: { tag: string }) =>
    readFileSync(path.resolve(`drizzle/${e.tag}.sql`), 'utf8'),
  );
  const hash = createHash('sha256').update(journal).update(sqlFiles.join('\n')).digest('hex').slice(0, 12);
  const template = `sw_template_${hash}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(7419002)');
    const exists = await client.query('select 1 from pg_database where datname = $1', [template]);
    if (exists.rowCount === 0) {
      await client.query(`create database ${template}`);
      const { openDatabase } = await import('@/lib/db/client');
      const { migrate } = await import('@/lib/db/migrate');
      const handle = await openDatabase(withDatabase(serverUrl, template), '');
      await migrate(handle);
      await handle.close();
    }
    await client.query('select pg_advisory_unlock(7419002)');
  } finally {
    await client.end();
  }
  return template;
}
