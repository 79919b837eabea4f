import { and, asc, eq, lte } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { searchConnections, sites } from '@/lib/db/schema';
import { nextSearchSync } from './analytics';
import type { SearchEvents } from './events';

const SITES_PER_TICK = 100;

/**
 * One scheduler tick: connected properties of sites with the SEO app on whose daily sync is due
 * (choosing a property makes it due at once) are claimed, their clock moved to the site's next
 * daily slot, and handed to the sync job. Connections in `error`, `revoked` or waiting for a
 * property have no due time.
 */
export async function runSearchSchedulerTick(db: Db, now: number, events: SearchEvents): Promise<string[]> {
  const due = await db
    .select({
      id: searchConnections.id,
      siteId: sites.id,
      tenantId: sites.tenant_id,
      dueAt: searchConnections.next_sync_at,
    })
    .from(searchConnections)
    .innerJoin(
      sites,
      and(eq(sites.id, searchConnections.site_id), eq(sites.tenant_id, searchConnections.tenant_id)),
    )
    .where(
      and(
        eq(searchConnections.status, 'connected'),
        eq(sites.seo_enabled, 1),
        lte(searchConnections.next_sync_at, now),
      ),
    )
    .orderBy(asc(searchConnections.next_sync_at))
    .limit(SITES_PER_TICK);
  const claimed = [];
  for (const c of due) {
    if (c.dueAt === null) continue;
    const [row] = await db
      .update(searchConnections)
      .set({ next_sync_at: nextSearchSync(c.siteId, now) })
      .where(
        and(
          eq(searchConnections.tenant_id, c.tenantId),
          eq(searchConnections.id, c.id),
          eq(searchConnections.next_sync_at, c.dueAt),
        ),
      )
      .returning({ id: searchConnections.id });
    if (row) claimed.push({ siteId: c.siteId, tenantId: c.tenantId, dueAt: c.dueAt });
  }
  await events.syncRequested(claimed);
  return claimed.map((c) => c.siteId);
}
