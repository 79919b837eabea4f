import type { SQL } from 'drizzle-orm';
import type { Db } from './client';

/**
 * Rows of a raw SQL statement. Every driver (PGlite, node-postgres, Neon) answers `db.execute` with a
 * result carrying `rows`; drizzle's shared type leaves the result `unknown`, hence the one cast here.
 */
export async function queryRows<T = Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}
