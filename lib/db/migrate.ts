import path from 'node:path';
import type { DbHandle } from './client';
import { applyDataMigrations } from './data-migrations';

/** Where drizzle-kit writes migrations; resolved from the working directory (the project root). */
export const migrationsFolder = path.resolve(process.cwd(), 'drizzle');

/**
 * Applies pending migrations, then the data migrations (lib/db/data-migrations.ts). Safe to run
 * repeatedly and concurrently on Postgres: drizzle records applied migrations, and an advisory lock
 * keeps two processes (a preview build and a booting server) from applying the same one twice.
 */
export async function migrate(handle: DbHandle): Promise<void> {
  const { sql } = await import('drizzle-orm');
  if (handle.driver === 'pglite') {
    const { migrate: run } = await import('drizzle-orm/pglite/migrator');
    await run(handle.db as never, { migrationsFolder });
    await applyDataMigrations(handle.db);
    return;
  }
  const run =
    handle.driver === 'neon'
      ? (await import('drizzle-orm/neon-serverless/migrator')).migrate
      : (await import('drizzle-orm/node-postgres/migrator')).migrate;
  await handle.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(7419001)`);
    await run(tx as never, { migrationsFolder });
  });
  // After, not inside: the migrator ends the transaction block it was given.
  await applyDataMigrations(handle.db);
}
