import { count, eq, sql } from 'drizzle-orm';
import { config } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { sites, uptimeMonitors } from '@/lib/db/schema';

/**
 * The organization's uptime monitor allowance (spec "Limits": 2 per site, pooled across the
 * organization): `ALLOWANCE_MONITORS` times the sites it has, against every monitor it has
 * configured, paused ones included. Creating one past the pool needs overage on (lib/uptime), and
 * the projected bill charges what is past it (./service.ts). One read for both, so they agree.
 */
export interface MonitorPool {
  used: number;
  pool: number;
}

export async function monitorPool(db: Db, tenantId: string): Promise<MonitorPool> {
  const [row] = await db
    .select({
      used: count(),
      sites: sql<number>`(select count(*) from ${sites} where ${sites.tenant_id} = ${tenantId})`.mapWith(
        Number,
      ),
    })
    .from(uptimeMonitors)
    .where(eq(uptimeMonitors.tenant_id, tenantId));
  return { used: Number(row?.used ?? 0), pool: config().ALLOWANCE_MONITORS * Number(row?.sites ?? 0) };
}
