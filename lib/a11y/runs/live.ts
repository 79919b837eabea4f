import { and, desc, eq, sql } from 'drizzle-orm';
import { activePassOf } from '@/lib/db/active-pass';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import { a11yPages, runs } from '@/lib/db/schema';

/**
 * The live state of a site's accessibility render pass, shaped like the live crawl state: `rendering`
 * from the pass's seeding until its run is finalized, `idle` otherwise. `pagesTotal` is the page
 * set seeded for the pass (0 until seeding stored it); `pagesRendered` the pages done so far, scanned
 * or recorded as not scanned. `runId` names the run (a standalone `a11y` run or the chained crawl).
 */
export type A11yLiveState = {
  state: 'idle' | 'rendering';
  runId: string | null;
  pagesRendered: number;
  pagesTotal: number;
};

export const IDLE_A11Y_LIVE_STATE: Readonly<A11yLiveState> = Object.freeze({
  state: 'idle',
  runId: null,
  pagesRendered: 0,
  pagesTotal: 0,
});

export async function getA11yLiveState(
  db: Db,
  { tenantId, siteId }: { tenantId: string; siteId: string },
): Promise<A11yLiveState> {
  const [run] = await db
    .select({ id: runs.id })
    .from(runs)
    .where(activePassOf(tenantId, siteId))
    .orderBy(desc(runs.started_at))
    .limit(1);
  if (!run) return { ...IDLE_A11Y_LIVE_STATE };
  const [pages] = await queryRows<{ rendered: string | number; total: string | number }>(
    db,
    sql`select count(*) filter (where ${a11yPages.status} <> 'pending') as rendered, count(*) as total
        from ${a11yPages} where ${and(eq(a11yPages.tenant_id, tenantId), eq(a11yPages.run_id, run.id))}`,
  );
  return {
    state: 'rendering',
    runId: run.id,
    pagesRendered: Number(pages?.rendered ?? 0),
    pagesTotal: Number(pages?.total ?? 0),
  };
}
