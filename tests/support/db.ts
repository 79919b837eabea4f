import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { resetConfig } from '@/lib/config';
import { closeDb, type Db, getDbHandle } from '@/lib/db/client';

/**
 * A fresh database for one test file: a new Postgres database cloned from a migrated template when
 * TEST_DATABASE_URL is set, an in-memory PGlite otherwise. The app's own `getDb()` then returns it,
 * so route handlers under test use exactly the database the test inspects.
 */
export async function useTestDatabase(): Promise<{ db: Db; driver: string; teardown: () => Promise<void> }> {
  await closeDb();
  const serverUrl = process.env.TEST_DATABASE_URL;
  let dropDatabase: (() => Promise<void>) | undefined;
  if (serverUrl) {
    const name = `sw_test_${randomBytes(6).toString('hex')}`;
    const template = await ensureTemplate(serverUrl);
    await adminQuery(serverUrl, `create database ${name} template ${template}`);
    process.env.DATABASE_URL = withDatabase(serverUrl, name);
    dropDatabase = () => adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
  } else {
    delete process.env.DATABASE_URL;
    process.env.PGLITE_DIR = 'memory://';
  }
  resetConfig();
  const handle = await getDbHandle();
  return {
    db: handle.db,
    driver: handle.driver,
    teardown: async () => {
      await closeDb();
      await dropDatabase?.();
    },
  };
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function adminQuery(serverUrl: string, text: string): Promise<void> {
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
