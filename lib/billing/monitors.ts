import { count, eq, type SQL, sql } from 'drizzle-orm';
import { config } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import { billingSettings, sites, uptimeMonitors } from '@/lib/db/schema';

/**
 * The organization's uptime monitor allowance (spec "Limits": per site, pooled across the
 * organization): `ALLOWANCE_MONITORS` (2 by default) times the sites it has, against every monitor it has
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

/**
 * The monitors held at the allowance, as a query of their `id` and `tenant_id` (of one tenant, or
 * of all): with overage off, an organization with more monitors than its pool (overage turned off
 * with monitors past it, or a site deleted) keeps probing the pool's worth of its oldest monitors
 * and holds the newest ones, as an app pauses at its allowance (spec "Limits": with overage off
 * nothing is billed beyond the subscription). Nothing is stored: a held monitor is probed again,
 * with a fresh round from every region, as soon as overage is turned on, a monitor is deleted or
 * a site added, like the monitors of a site whose Uptime app is turned back on.
 */
export function monitorsOverAllowance(tenantId?: string): SQL {
  const ofTenant = tenantId === undefined ? sql`` : sql`and m.tenant_id = ${tenantId}`;
  return sql`select ranked.id, ranked.tenant_id from (
      select m.id, m.tenant_id,
        row_number() over (partition by m.tenant_id order by m.created_at, m.id) as position
      from ${uptimeMonitors} m
      left join ${billingSettings} b on b.tenant_id = m.tenant_id
      where coalesce(b.overage_enabled, 0) = 0 ${ofTenant}
    ) ranked
    where ranked.position > ${config().ALLOWANCE_MONITORS}::int
      * (select count(*) from ${sites} s where s.tenant_id = ranked.tenant_id)`;
}

/** The tenant's monitors held at the allowance (empty with overage on). */
export async function monitorsHeldAtAllowance(db: Db, tenantId: string): Promise<Set<string>> {
  const rows = await queryRows<{ id: string }>(db, monitorsOverAllowance(tenantId));
  return new Set(rows.map((r) => r.id));
}
