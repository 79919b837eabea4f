import { and, asc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { monitorsOverAllowance } from '@/lib/billing/monitors';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import { type UptimeMonitor, uptimeIncidents, uptimeMonitors, uptimePauses } from '@/lib/db/schema';
import type { Span } from './rollup';

/**
 * Pauses (README.md, "Uptime": state): the spans in which a monitor was not probed, because it was
 * paused (`monitor`), its site's Uptime app was off (`app`) or it was held at the allowance
 * (`allowance`). Nothing watches the target then, so:
 * - an incident open when probing stops is closed at that moment, `closed_by` the reason, without
 *   a recovery notification (nothing recovered; an incident cannot go on while nobody checks);
 * - the status goes back to `unknown` (the last round's verdict is no longer the target's state);
 * - uptime is measured over the time the monitor was watched, so a pause counts neither as up
 *   nor as down (lib/uptime/rollup.ts `uptimePct`).
 * A pause ends with the first round completed after probing resumes (lib/uptime/rounds.ts), whose
 * verdict starts afresh: a target still down opens a new incident and alerts again.
 */
export type PauseReason = 'monitor' | 'app' | 'allowance';

/**
 * Starts a pause of `monitor` at `at` unless one is open: closes its open incident there and sets
 * its status to `unknown`. Run inside the transaction that stops the probing when there is one
 * (the monitor's own pause), otherwise by `recordStoppedMonitors`.
 */
export async function startPause(
  db: Db,
  monitor: Pick<UptimeMonitor, 'id' | 'tenant_id'>,
  reason: PauseReason,
  at: number,
): Promise<void> {
  const opened = await queryRows(
    db,
    sql`insert into ${uptimePauses} (tenant_id, monitor_id, reason, started_at)
      values (${monitor.tenant_id}, ${monitor.id}::uuid, ${reason}, ${at}::bigint)
      on conflict (monitor_id) where ended_at is null do nothing
      returning 1`,
  );
  if (opened.length === 0) return;
  await db
    .update(uptimeIncidents)
    .set({
      recovered_at: sql`greatest(${uptimeIncidents.down_at}, ${at}::bigint)`,
      closed_by: reason,
      healthy_rounds: 0,
      healthy_since: null,
    })
    .where(
      and(
        eq(uptimeIncidents.tenant_id, monitor.tenant_id),
        eq(uptimeIncidents.monitor_id, monitor.id),
        isNull(uptimeIncidents.recovered_at),
      ),
    );
  await db
    .update(uptimeMonitors)
    .set({ status: 'unknown', status_since: at })
    .where(
      and(
        eq(uptimeMonitors.tenant_id, monitor.tenant_id),
        eq(uptimeMonitors.id, monitor.id),
        sql`${uptimeMonitors.status} <> 'unknown'`,
      ),
    );
}

/**
 * Run by the minute scheduler: starts a pause for every monitor that is not probed (paused, its
 * site's Uptime app off, or held at the allowance) and has none open. Stopping with the app or at
 * the allowance happens outside lib/uptime (site settings, billing), so it is noticed here, within
 * a minute; the pause starts at the round the monitor missed (its `next_probe_at`, kept while it
 * is stopped), or now when that round is not due yet. A monitor whose round is still out is left
 * for the next tick, once that round is recorded. Returns how many pauses were started.
 */
export async function recordStoppedMonitors(db: Db, now: number): Promise<number> {
  const stopped = await queryRows<{
    id: string;
    tenant_id: string;
    reason: PauseReason;
    at: string | number;
  }>(
    db,
    sql`select m.id, m.tenant_id,
        case when m.enabled = 0 then 'monitor' when s.uptime_enabled = 0 then 'app' else 'allowance' end as reason,
        -- A heartbeat's next_probe_at is its ping deadline, not a round it missed: it stops now.
        case when m.kind = 'heartbeat' then ${now}::bigint
          else least(coalesce(m.next_probe_at, m.updated_at), ${now}::bigint) end as at
      from ${uptimeMonitors} m
      join sites s on s.id = m.site_id and s.tenant_id = m.tenant_id
      where (m.enabled = 0 or s.uptime_enabled = 0
          or m.id in (select over.id from (${monitorsOverAllowance()}) over))
        and (m.lease_until is null or m.lease_until < ${now}::bigint)
        and not exists (select 1 from ${uptimePauses} p where p.monitor_id = m.id and p.ended_at is null)`,
  );
  for (const m of stopped) {
    await db.transaction((tx) => startPause(tx, m, m.reason, Number(m.at)));
  }
  return stopped.length;
}

/** Ends the open pauses of monitors probed again, each at its first round's start (never before the pause began). */
export async function endPauses(db: Db, rounds: readonly { monitorId: string; at: number }[]): Promise<void> {
  if (rounds.length === 0) return;
  const values = sql.join(
    rounds.map((r) => sql`(${r.monitorId}::uuid, ${r.at}::bigint)`),
    sql`, `,
  );
  await db.execute(sql`update ${uptimePauses} p set ended_at = greatest(p.started_at, v.at)
    from (values ${values}) as v(monitor_id, at)
    where p.monitor_id = v.monitor_id and p.ended_at is null`);
}

/** Each listed monitor's pauses overlapping `[fromMs, toMs)` (an open one runs on), oldest first. */
export async function pausesOverlapping(
  db: Db,
  tenantId: string,
  monitorIds: readonly string[],
  fromMs: number,
  toMs: number,
): Promise<Map<string, Span[]>> {
  const byMonitor = new Map<string, Span[]>(monitorIds.map((id) => [id, []]));
  if (monitorIds.length === 0) return byMonitor;
  const rows = await db
    .select()
    .from(uptimePauses)
    .where(
      and(
        eq(uptimePauses.tenant_id, tenantId),
        inArray(uptimePauses.monitor_id, [...monitorIds]),
        lt(uptimePauses.started_at, toMs),
        or(isNull(uptimePauses.ended_at), gt(uptimePauses.ended_at, fromMs)),
      ),
    )
    .orderBy(asc(uptimePauses.started_at));
  for (const row of rows) byMonitor.get(row.monitor_id)?.push({ start: row.started_at, end: row.ended_at });
  return byMonitor;
}
