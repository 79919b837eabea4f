import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { runs } from '@/lib/db/schema';
import { getVisibleSite } from '@/lib/sites/access';

export interface A11yTrendPoint {
  runId: string;
  startedAt: number;
  /** `a11y` for a standalone scan, `crawl` for a crawl that chained the render pass. */
  kind: 'crawl' | 'a11y';
  score: number;
}

/**
 * The accessibility score of a site's recent runs that scanned, oldest first: the Accessibility
 * tab's trend. Each run's score as it finished (`a11y_scan_score`): a later suppression changes the
 * latest report, not the history of earlier scans. A run stored before that column existed falls
 * back to `a11y_score`; a run that did not scan has neither and is left out, whatever its kind.
 */
export async function a11yScoreTrend(
  db: Db,
  principal: Principal,
  siteId: string,
  limit = 30,
): Promise<A11yTrendPoint[]> {
  const site = await getVisibleSite(db, principal, siteId);
  const rows = await db
    .select({
      runId: runs.id,
      startedAt: runs.started_at,
      kind: runs.kind,
      score: sql<number | null>`coalesce(${runs.a11y_scan_score}, ${runs.a11y_score})`,
    })
    .from(runs)
    .where(and(eq(runs.tenant_id, principal.tenantId), eq(runs.site_id, site.id), isNotNull(runs.a11y_score)))
    .orderBy(desc(runs.started_at))
    .limit(limit);
  return rows.flatMap((row) => (row.score === null ? [] : [{ ...row, score: row.score }])).reverse();
}
