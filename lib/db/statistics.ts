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
 * ANALYZE samples a fixed number of rows however large the table (9,000 at STATISTICS_TARGET;
 * 30,000 took about half a second on a 4 GB `crawl_urls`), so below LARGE_WRITE_ROWS it is left to
 * autovacuum. Finalization calls it before it reads the run back and again once its inlinks and
 * broken links are written.
 */
export const LARGE_WRITE_ROWS = 10_000;

/**
 * The statistics target of these ANALYZEs (Postgres's default is 100): ANALYZE samples 300 rows per
 * unit, so 30 samples 9,000. Each sampled row is held whole, with its page's links and SEO facts
 * inline, and on embedded PGlite that memory is the crawler's own: WebAssembly memory, which grows
 * and never shrinks. At 100 the 30,000-row sample of a 20,000-page crawl took PGlite's memory from
 * 36 to 73 MB and the crawler's peak from 290 to 321 MB; at 30 neither moved. What the plans need
 * (a run's row count, the share of rows not yet counted, the order of URLs) needs no more.
 */
export const STATISTICS_TARGET = 30;

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
      await tx.execute(sql.raw(`set local default_statistics_target = ${STATISTICS_TARGET}`));
      await tx.execute(sql.raw(`analyze ${table}`));
    });
    return true;
  } catch (error) {
    console.warn(`statistics: analyze ${table} skipped: ${error instanceof Error ? error.message : error}`);
    return false;
  }
}
