import { and, isNotNull, lt, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { domainRegistrations, maintenanceWindows, uptimeMonitors, uptimePauses } from '@/lib/db/schema';
import { BUCKET_RETENTION_MS } from './metrics';
import { DAY_MS } from './rollup';

/**
 * What uptime history outlives its use. Every figure reaches back at most 90 days (the monitor
 * page's longest window, the status page's bar and incident list, the hourly buckets), so a pause
 * or a maintenance window that ended before that is read by nothing: it goes with the buckets of
 * the same age. A domain no monitor watches any more is no longer read through RDAP; its row goes
 * a day after it was added (never one a monitor is being pointed at as this runs).
 */
export const UNUSED_DOMAIN_GRACE_MS = DAY_MS;

export async function pruneUptimeHistory(
  db: Db,
  now: number,
): Promise<{ pauses: number; windows: number; domains: number }> {
  const before = now - BUCKET_RETENTION_MS;
  const pauses = await db
    .delete(uptimePauses)
    .where(and(isNotNull(uptimePauses.ended_at), lt(uptimePauses.ended_at, before)))
    .returning({ id: uptimePauses.id });
  // The windows' monitor lists go with them (on delete cascade).
  const windows = await db
    .delete(maintenanceWindows)
    .where(lt(maintenanceWindows.ends_at, before))
    .returning({ id: maintenanceWindows.id });
  const domains = await db
    .delete(domainRegistrations)
    .where(
      and(
        lt(domainRegistrations.created_at, now - UNUSED_DOMAIN_GRACE_MS),
        sql`not exists (select 1 from ${uptimeMonitors} m where m.domain = ${domainRegistrations.domain})`,
      ),
    )
    .returning({ domain: domainRegistrations.domain });
  return { pauses: pauses.length, windows: windows.length, domains: domains.length };
}
