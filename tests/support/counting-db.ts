import type { Db } from '@/lib/db/client';
import * as schema from '@/lib/db/schema';

/**
 * The same database through a second drizzle instance whose logger counts every statement: a
 * count, not a timing, so a bound on it holds on any machine. `driver` is useTestDatabase's.
 */
export async function countingDb(
  db: Db,
  driver: string,
): Promise<{ db: Db; queries: () => number; sessionLookups: () => number }> {
  let n = 0;
  let sessionLookups = 0;
  const logger = {
    logQuery: (query: string) => {
      n++;
      if (/from "sessions"/i.test(query)) sessionLookups++;
    },
  };
  const client = (db as unknown as { $client: unknown }).$client;
  const counted =
    driver === 'pglite'
      ? (await import('drizzle-orm/pglite')).drizzle({ client: client as never, schema, logger })
      : (await import('drizzle-orm/node-postgres')).drizzle({ client: client as never, schema, logger });
  return { db: counted as unknown as Db, queries: () => n, sessionLookups: () => sessionLookups };
}
