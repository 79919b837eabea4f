/**
 * Which runs are accessibility scans: the one definition the status endpoint, the report and the
 * run history share. A run scans accessibility when it is a standalone `a11y` run or a crawl that
 * chains the render pass (`chain_a11y`; crawl finalization clears it when the pass is not chained
 * after all: the crawl failed or the app was turned off). Whether its pass is in progress is
 * `activePassOf` (lib/db/active-pass.ts).
 */
import { eq, or, type SQL } from 'drizzle-orm';
import { runs } from '@/lib/db/schema';

export const scansA11y: SQL = or(eq(runs.kind, 'a11y'), eq(runs.chain_a11y, 1)) as SQL;
