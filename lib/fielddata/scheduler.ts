import { and, asc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import { config } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { fieldDataSyncs, sites } from '@/lib/db/schema';
import { nextDailySlot } from '@/lib/sites/daily-slot';
import type { FieldDataEvents } from './events';
import { pruneSlots } from './pacing';
import { FIELDDATA_JOB } from './sync';

/** Sites handed to the sync per tick: 50 sites are 150 queries, the quota of a minute. */
const SITES_PER_TICK = 50;

/**
 * One scheduler tick: every site with the Performance app on whose daily sync is due (or that was
 * never synced) is claimed, its clock moved to its next daily slot, and handed to the sync job.
 * Nothing happens without CRUX_API_KEY. Deleted sites are gone (their rows cascade).
 */
export async function runFieldDataSchedulerTick(
  db: Db,
  now: number,
  events: FieldDataEvents,
): Promise<string[]> {
  if (!config().CRUX_API_KEY) return [];
  await pruneSlots(db, now);
  const due = await db
    .select({ siteId: sites.id, tenantId: sites.tenant_id, dueAt: fieldDataSyncs.next_sync_at })
    .from(sites)
    .leftJoin(fieldDataSyncs, eq(fieldDataSyncs.site_id, sites.id))
    .where(
      and(
        eq(sites.performance_enabled, 1),
        or(isNull(fieldDataSyncs.next_sync_at), lte(fieldDataSyncs.next_sync_at, now)),
      ),
    )
    .orderBy(asc(sql`coalesce(${fieldDataSyncs.next_sync_at}, 0)`))
    .limit(SITES_PER_TICK);

  const claimed: { siteId: string; tenantId: string; key: string }[] = [];
  for (const { siteId, tenantId, dueAt } of due) {
    const next = nextDailySlot(siteId, FIELDDATA_JOB, now);
    // Only the scheduler that moves the clock from a due time sends the sync.
    const [row] = await db
      .insert(fieldDataSyncs)
      .values({ site_id: siteId, tenant_id: tenantId, next_sync_at: next, updated_at: now })
      .onConflictDoUpdate({
        target: fieldDataSyncs.site_id,
        set: { next_sync_at: next },
        setWhere: and(eq(fieldDataSyncs.tenant_id, tenantId), lte(fieldDataSyncs.next_sync_at, now)),
      })
      .returning({ siteId: fieldDataSyncs.site_id });
    if (row) claimed.push({ siteId, tenantId, key: `scheduled:${dueAt ?? 'first'}` });
  }
  await events.syncRequested(claimed);
  return claimed.map((c) => c.siteId);
}
