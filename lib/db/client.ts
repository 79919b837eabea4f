import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { config } from '@/lib/config';
import * as schema from './schema';

/**
 * The database every service receives. PGlite, node-postgres and Neon's Pool all expose the same
 * drizzle Postgres API, so services are written once against this type.
 */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DbHandle = { db: Db; driver: 'pglite' | 'pg' | 'neon'; close: () => Promise<void> };

export function isNeonUrl(url: string): boolean {
  try {
    return new URL(url).hostname.endsWith('.neon.tech');
  } catch {
    return false;
  }
}

/**
 * Opens the database a URL names: unset = embedded PGlite in `pgliteDir`. `neonWsProxy` (the
 * NEON_WS_PROXY setting) takes any URL through Neon's serverless driver via that WebSocket proxy.
 */
export async function openDatabase(
  url: string | undefined,
  pgliteDir: string,
  neonWsProxy?: string,
): Promise<DbHandle> {
  if (!url) {
    const { PGliteThread } = await import('./pglite-thread');
    const { drizzle } = await import('drizzle-orm/pglite');
    if (!pgliteDir.startsWith('memory://')) {
      const { mkdirSync } = await import('node:fs');
      mkdirSync(pgliteDir, { recursive: true });
    }
    // Postgres touches all of its shared buffers, and WebAssembly memory is never given back:
    // PGlite's default 128 MB would stay resident for good. 16 MB holds a crawl's hot frontier pages.
    const client = await PGliteThread.open(pgliteDir, { postgresqlconf: ['shared_buffers=16MB'] });
    const db: Db = drizzle({ client: client as never, schema });
    return { db, driver: 'pglite', close: () => client.close() };
  }
  if (neonWsProxy || isNeonUrl(url)) {
    const { Pool, neonConfig } = await import('@neondatabase/serverless');
    const { drizzle } = await import('drizzle-orm/neon-serverless');
    const ws = (await import('ws')).default;
    neonConfig.webSocketConstructor = ws;
    // NEON_WS_PROXY is Neon's local-development setup: its wsproxy (or tests/support/neon-ws-proxy.ts)
    // in front of a plain Postgres, spoken to in plain ws: (config keeps it on loopback in
    // production) and without the pipelined connect, which sends the password before the server
    // asks: Neon's proxy takes that, a plain Postgres refuses it. The driver keeps these settings
    // module-wide, so they are set (or put back to Neon's) on every open.
    neonConfig.wsProxy = neonWsProxy ?? neonConfig.defaults.wsProxy;
    neonConfig.useSecureWebSocket = !neonWsProxy;
    neonConfig.pipelineConnect = neonWsProxy ? false : neonConfig.defaults.pipelineConnect;
    const pool = new Pool({ connectionString: url });
    pool.on('error', (error: Error) => console.error(`database: idle connection lost: ${error.message}`));
    return {
      db: drizzle({ client: pool, schema }) satisfies Db,
      driver: 'neon',
      close: () => pool.end(),
    };
  }
  const pg = (await import('pg')).default;
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection dropped by the server (restart, failover) must not take the process down;
  // the pool replaces it on next use.
  pool.on('error', (error) => console.error(`database: idle connection lost: ${error.message}`));
  return { db: drizzle({ client: pool, schema }) satisfies Db, driver: 'pg', close: () => pool.end() };
}

// One handle per process. Kept on globalThis so Next's module reloading in development and the
// instrumentation hook share it instead of opening PGlite's single-owner data folder twice.
const slot = Symbol.for('sitewatch.db');
type Slot = { [slot]?: Promise<DbHandle> };

export function getDbHandle(): Promise<DbHandle> {
  const g = globalThis as Slot;
  g[slot] ??= (async () => {
    const c = config();
    const handle = await openDatabase(c.DATABASE_URL, c.PGLITE_DIR, c.NEON_WS_PROXY);
    // On Vercel the deployment's build has migrated (vercel.json's buildCommand runs db:migrate
    // before next build): a cold start of one of its functions must not take the migration lock
    // and read the migration files again, and those files are not traced into the functions.
    if (!c.VERCEL) {
      const { migrate } = await import('./migrate');
      await migrate(handle);
    }
    return handle;
  })();
  return g[slot];
}

export async function getDb(): Promise<Db> {
  return (await getDbHandle()).db;
}

/** Closes and forgets the process database (tests switch databases between files). */
export async function closeDb(): Promise<void> {
  const g = globalThis as Slot;
  const current = g[slot];
  g[slot] = undefined;
  if (current) await (await current).close();
}
