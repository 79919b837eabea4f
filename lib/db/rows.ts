import type { SQL } from 'drizzle-orm';
import type { Db } from './client';

/**
 * Rows of a raw SQL statement. Every driver (PGlite, node-postgres, Neon) answers `db.execute` with a
 * result carrying `rows`; drizzle's shared type does not say so, hence the one cast here.
 */
export async function queryRows<T = Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}
