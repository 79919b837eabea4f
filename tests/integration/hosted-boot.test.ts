import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { boot } from '@/jobs/boot';
import { activeRunner, stopJobRuntime } from '@/jobs/runtime';
import { resetConfig } from '@/lib/config';
import { closeDb, getDb } from '@/lib/db/client';

/**
 * On Vercel (VERCEL=1) a function's start-up opens nothing and migrates nothing: the deployment's
 * build migrated once (vercel.json's buildCommand), and Inngest runs the jobs. The hosted-bundle
 * test (scripts/hosted-bundle.mjs) shows the same from the built functions; this shows it on the
 * source, against a real Postgres database.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
const saved = { ...process.env };
const DB_SLOT = Symbol.for('sitewatch.db');

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

// A real database server is the point here (an empty database a cold start would have migrated);
// without TEST_DATABASE_URL there is none, and Vercel never runs on the embedded PGlite.
describe.skipIf(!serverUrl)('start-up on Vercel', () => {
  let name: string;
  let url: string;

  beforeEach(async () => {
    name = `sw_hosted_${randomBytes(6).toString('hex')}`;
    await query(serverUrl!, `create database ${name}`);
    const u = new URL(serverUrl!);
    u.pathname = `/${name}`;
    url = u.toString();
    await closeDb();
    Object.assign(process.env, {
      VERCEL: '1',
      VERCEL_ENV: 'production',
      VERCEL_URL: 'sitewatch-k3j2h1-team.vercel.app',
      NODE_ENV: 'production',
      DATABASE_URL: url,
      BETTER_AUTH_SECRET: 'a'.repeat(40),
      INNGEST_SIGNING_KEY: `signkey-prod-${'0'.repeat(64)}`,
      INNGEST_EVENT_KEY: 'event-key',
      ALLOW_PRIVATE_NETWORK: '',
      EMBEDDED_RUNNER: '',
    });
    resetConfig();
  });

  afterEach(async () => {
    await stopJobRuntime();
    await closeDb();
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
    resetConfig();
    await query(serverUrl!, `drop database if exists ${name} with (force)`);
  });

  it('boots without opening the database or starting the embedded runner', async () => {
    await boot();
    expect((globalThis as Record<symbol, unknown>)[DB_SLOT]).toBeUndefined();
    expect(activeRunner()).toBeUndefined();
    const sessions = await query<{ n: string }>(
      serverUrl!,
      `select count(*) as n from pg_stat_activity where datname = '${name}'`,
    );
    expect(Number(sessions[0]!.n)).toBe(0);
  });

  it('opens the database at first use without migrating it (the build does)', async () => {
    const db = await getDb();
    const { sql } = await import('drizzle-orm');
    await db.execute(sql`select 1`);
    const tables = await query<{ table_name: string }>(
      url,
      `select table_name from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')`,
    );
    expect(tables).toEqual([]);
  });
});
