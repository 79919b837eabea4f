import { sql } from 'drizzle-orm';
import type { DbHandle } from './client';
import { STATISTICS_TARGET } from './statistics';

/**
 * Reclaims dead row versions in the embedded database.
 *
 * Every crawl rewrites each of its URLs' rows three times (leased, answered, counted at
 * finalization) and drops the previous crawl's frontier when it finalizes; uptime checks, the
 * notification outbox and rate-limit windows are pruned as they age. Postgres keeps each replaced or
 * deleted row until a VACUUM marks its space reusable, and autovacuum does that on a server and on
 * Neon. Embedded PGlite runs no autovacuum: without this its data folder grows with every crawl ever
 * run, and reads of a site's rows wade through its old versions.
 *
 * VACUUM (not FULL) takes no lock that stops reads or writes, but PGlite runs one statement at a
 * time, so other statements wait for it: a nightly run keeps that to a quiet hour. `ANALYZE` with it
 * keeps the planner's statistics current too (PGlite has nobody else to gather them), at the same
 * small sample as finalization's (lib/db/statistics.ts: on PGlite the sample is the server's memory).
 */
export async function vacuumEmbedded(handle: DbHandle): Promise<{ vacuumed: boolean }> {
  // A server or Neon has autovacuum, and tuning it is the operator's (or Neon's) business.
  if (handle.driver !== 'pglite') return { vacuumed: false };
  // VACUUM cannot run in a transaction, so the target is set for PGlite's one session and reset.
  await handle.db.execute(sql.raw(`set default_statistics_target = ${STATISTICS_TARGET}`));
  try {
    await handle.db.execute(sql`vacuum (analyze)`);
  } finally {
    await handle.db.execute(sql`reset default_statistics_target`);
  }
  return { vacuumed: true };
}
