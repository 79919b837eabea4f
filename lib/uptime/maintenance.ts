import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import { maintenanceWindowMonitors, maintenanceWindows, uptimeMonitors } from '@/lib/db/schema';
import { pausesOverlapping } from './pauses';
import type { Span } from './rollup';

/*
 * What a maintenance window does to the monitors it covers (README.md, "Maintenance windows"):
 * - probing goes on, and the status follows the rounds as always;
 * - a failing round opens no incident, so nobody is alerted (`coveredAt`, read by the rounds);
 *   an incident already open when the window starts goes on and closes on recovery as usual;
 * - the window's time counts neither as up nor as down (`uncountedSpans`, beside the pauses);
 * - once it ends, the first round that still fails opens the incident, with one alert.
 * A window covers every monitor of its site (`all_monitors`, later ones too) or those it lists.
 */

/** Window `w` covers monitor `m`: a window of its site, for all its monitors or listing this one. */
const windowCoversMonitor = () => sql`w.tenant_id = m.tenant_id and w.site_id = m.site_id
  and (w.all_monitors = 1 or exists (select 1 from ${maintenanceWindowMonitors} wm
    where wm.window_id = w.id and wm.monitor_id = m.id))`;

const uuidList = (ids: readonly string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

/**
 * Of the given rounds (a monitor and the instant its round started), the monitors inside a
 * maintenance window at that instant: one statement for a whole batch of rounds.
 */
export async function coveredAt(
  db: Db,
  rounds: readonly { monitorId: string; at: number }[],
): Promise<Set<string>> {
  if (rounds.length === 0) return new Set();
  const values = sql.join(
    rounds.map((r) => sql`(${r.monitorId}::uuid, ${r.at}::bigint)`),
    sql`, `,
  );
  const rows = await queryRows<{ monitor_id: string }>(
    db,
    sql`select v.monitor_id from (values ${values}) as v(monitor_id, at)
      join ${uptimeMonitors} m on m.id = v.monitor_id
      where exists (select 1 from ${maintenanceWindows} w
        where ${windowCoversMonitor()} and w.starts_at <= v.at and w.ends_at > v.at)`,
  );
  return new Set(rows.map((r) => r.monitor_id));
}

/** The monitors a window covers now: its site's (all of them, later ones too) or those it lists. */
export async function windowMonitorIds(
  db: Db,
  window: { id: string; tenant_id: string; site_id: string; all_monitors: number },
): Promise<string[]> {
  const rows =
    window.all_monitors === 1
      ? await db
          .select({ id: uptimeMonitors.id })
          .from(uptimeMonitors)
          .where(
            and(eq(uptimeMonitors.tenant_id, window.tenant_id), eq(uptimeMonitors.site_id, window.site_id)),
          )
      : await db
          .select({ id: maintenanceWindowMonitors.monitor_id })
          .from(maintenanceWindowMonitors)
          .where(eq(maintenanceWindowMonitors.window_id, window.id));
  return rows.map((r) => r.id);
}

/** Each listed monitor's maintenance windows overlapping `[fromMs, toMs)`, as spans, oldest first. */
export async function maintenanceOverlapping(
  db: Db,
  tenantId: string,
  monitorIds: readonly string[],
  fromMs: number,
  toMs: number,
): Promise<Map<string, Span[]>> {
  const byMonitor = new Map<string, Span[]>(monitorIds.map((id) => [id, []]));
  if (monitorIds.length === 0) return byMonitor;
  const rows = await queryRows<{ monitor_id: string; starts_at: string | number; ends_at: string | number }>(
    db,
    sql`select m.id as monitor_id, w.starts_at, w.ends_at
      from ${uptimeMonitors} m join ${maintenanceWindows} w on ${windowCoversMonitor()}
      where m.tenant_id = ${tenantId} and m.id in (${uuidList(monitorIds)})
        and w.starts_at < ${toMs}::bigint and w.ends_at > ${fromMs}::bigint
      order by w.starts_at, w.id`,
  );
  for (const row of rows) {
    byMonitor
      .get(row.monitor_id)
      ?.push({ start: Number(row.starts_at), end: Number(row.ends_at), maintenance: true });
  }
  return byMonitor;
}

/**
 * The spans uptime leaves out of each listed monitor's figure in `[fromMs, toMs)`: its pauses
 * (nobody probed) and its maintenance windows (announced work), both neither up nor down.
 */
export async function uncountedSpans(
  db: Db,
  tenantId: string,
  monitorIds: readonly string[],
  fromMs: number,
  toMs: number,
): Promise<Map<string, Span[]>> {
  const pauses = await pausesOverlapping(db, tenantId, monitorIds, fromMs, toMs);
  const windows = await maintenanceOverlapping(db, tenantId, monitorIds, fromMs, toMs);
  return new Map(monitorIds.map((id) => [id, [...(pauses.get(id) ?? []), ...(windows.get(id) ?? [])]]));
}

/** A window not over yet, with the monitors it covers among those asked about. */
export interface WindowAhead {
  id: string;
  title: string;
  startsAt: number;
  endsAt: number;
  /** When it was scheduled or last edited. */
  updatedAt: number;
  /** The covered monitors among those asked about (never others). */
  monitorIds: string[];
}

/**
 * The windows under way or scheduled that cover any of the listed monitors, soonest first: what a
 * status page announces. Each names only the listed monitors it covers.
 */
export async function windowsAhead(
  db: Db,
  tenantId: string,
  monitorIds: readonly string[],
  now: number,
): Promise<WindowAhead[]> {
  if (monitorIds.length === 0) return [];
  const rows = await queryRows<{
    id: string;
    title: string;
    starts_at: string | number;
    ends_at: string | number;
    updated_at: string | number;
    monitor_ids: string;
  }>(
    db,
    sql`select w.id, w.title, w.starts_at, w.ends_at, w.updated_at, string_agg(m.id::text, ',' order by m.id) as monitor_ids
      from ${uptimeMonitors} m join ${maintenanceWindows} w on ${windowCoversMonitor()}
      where m.tenant_id = ${tenantId} and m.id in (${uuidList(monitorIds)}) and w.ends_at > ${now}::bigint
      group by w.id, w.title, w.starts_at, w.ends_at, w.updated_at
      order by w.starts_at, w.id`,
  );
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    startsAt: Number(r.starts_at),
    endsAt: Number(r.ends_at),
    updatedAt: Number(r.updated_at),
    monitorIds: r.monitor_ids.split(','),
  }));
}
