import { sql } from 'drizzle-orm';
import type { Db } from './client';

/**
 * Planner statistics after a large write, before the statements that read it back.
 *
 * The planner estimates a run's rows from the table's statistics. Until they are gathered it
 * guesses a few thousand, and a keyset read (`url > $after order by url limit 2000`) becomes a
 * bitmap scan of every row left plus a sort, on every page of rows: finalizing a 1,000,000-page crawl
 * read its SEO facts that way for over ten minutes. Autovacuum gathers statistics only after the
 * table has changed by a tenth, and not at all where it is off or absent: embedded PGlite has no
 * autovacuum, and some servers run without it. So the writer of a large batch gathers them itself.
 * ANALYZE samples a fixed 30,000 rows however large the table (about half a second on a
 * 4 GB `crawl_urls`), so below LARGE_WRITE_ROWS it is left to autovacuum. Finalization calls it
 * before it reads the run back and again once its inlinks and broken links are written.
 */
export const LARGE_WRITE_ROWS = 10_000;

/** Tables whose writers call this; a fixed list, as the name goes into the statement as is. */
type AnalyzedTable = 'crawl_urls' | 'broken_links';

/**
 * Gathers `table`'s statistics when `rowsWritten` is large. An ANALYZE or VACUUM already running on
 * the table (autovacuum's) holds the lock this needs: waiting up to 5 s for it, then going on
 * without, is better than holding up the writer, since the statistics only make plans better.
 * Returns whether they were gathered.
 */
export async function refreshStatisticsAfterWrite(
  db: Db,
  table: AnalyzedTable,
  rowsWritten: number,
): Promise<boolean> {
  if (rowsWritten < LARGE_WRITE_ROWS) return false;
  try {
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local lock_timeout = '5s'`);
      await tx.execute(sql.raw(`analyze ${table}`));
    });
    return true;
  } catch (error) {
    console.warn(`statistics: analyze ${table} skipped: ${error instanceof Error ? error.message : error}`);
    return false;
  }
}
