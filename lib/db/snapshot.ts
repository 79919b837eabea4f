import { sql } from 'drizzle-orm';
import type { Db } from './client';

/**
 * Runs `read` in one read-only, repeatable-read transaction: every query in it sees the database as
 * it was at its first statement. For an answer composed of several queries whose parts must agree
 * (a monitor's status, open incident and uptime figures; a crawl's live counters and its run row),
 * which separate statements, or statements on separate pooled connections, read at different
 * moments: a round or a crawl batch committing between them made the answer contradict itself.
 */
export async function readSnapshot<T>(db: Db, read: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    // Must be the transaction's first statement: it fixes the snapshot for everything after it.
    await tx.execute(sql`set transaction isolation level repeatable read, read only`);
    return read(tx);
  });
}
