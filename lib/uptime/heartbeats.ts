import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import { monitorsOverAllowance } from '@/lib/billing/monitors';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import { type UptimeMonitor, uptimeIncidents, uptimeMonitors, uptimePauses } from '@/lib/db/schema';
import { InvalidError } from '@/lib/errors';
import { enqueueNotification } from '@/lib/notify/outbox';
import { queueMonitorIncidentNews } from '@/lib/notify/subscribers';
import { PINGS_PER_MINUTE } from './limits';
import { findMonitor, lockedMonitor } from './monitors';
import { endPauses } from './pauses';
import { hashPingToken, issuePingToken, looksLikePingToken } from './ping-token';
import { type MonitorResource, monitorResource } from './resource';
import { downAlertKey, monitorAlertTargets } from './rounds';

/*
 * Heartbeat monitors (issue 26 item 5): a job (a cron task, a backup, a queue worker) pings the
 * monitor's secret URL, `GET` or `POST /ping/{token}`, at least every `period_seconds`; when no
 * ping came for the period plus `grace_seconds`, an incident opens with cause `missed_heartbeat`
 * and alerts as any outage does; the next ping closes it and sends the recovery.
 *
 * Hosted-safe: nothing waits on a timer. Each ping moves the monitor's deadline (`next_probe_at`,
 * the same column that holds an http monitor's next round); the minute scheduler
 * (`checkHeartbeats`, jobs/functions/scheduler.ts) opens the incidents of the deadlines that passed.
 * A ping is one indexed write (the token's hash), its per-token limit counted on the same row;
 * only a ping that changes the state (the first, the one after an outage or a pause) does more.
 */

const MINUTE_MS = 60_000;

export type PingOutcome =
  | { kind: 'ok'; recovered: boolean }
  | { kind: 'unknown' }
  | { kind: 'limited'; retryAfterSeconds: number };

/**
 * One ping of `token` at `now`. The common ping is one UPDATE found by the token's hash: the last
 * ping, the deadline moved (while the monitor is enabled; a paused one gets its deadline when
 * resumed) and the minute's count, refused past PINGS_PER_MINUTE without writing anything. A ping
 * to a monitor not yet up (its first, the one ending an outage or following a pause) also records
 * that (`markAlive`): `recovered` says a recovery notification was queued.
 */
export async function recordPing(db: Db, token: string, now: number): Promise<PingOutcome> {
  if (!looksLikePingToken(token)) return { kind: 'unknown' };
  const hash = hashPingToken(token);
  const minute = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  const [pinged] = await queryRows<{ id: string; status: string; enabled: number }>(
    db,
    sql`update ${uptimeMonitors} m set
        ping_count = case when m.ping_window = ${minute}::bigint then m.ping_count + 1 else 1 end,
        ping_window = ${minute}::bigint,
        last_ping_at = ${now}::bigint,
        last_checked_at = case when m.enabled = 1 then ${now}::bigint else m.last_checked_at end,
        next_probe_at = case when m.enabled = 1
          then ${now}::bigint + (coalesce(m.period_seconds, 0) + coalesce(m.grace_seconds, 0)) * 1000::bigint
          else m.next_probe_at end
      where m.ping_token_hash = ${hash} and m.kind = 'heartbeat'
        and not (m.ping_window = ${minute}::bigint and m.ping_count >= ${PINGS_PER_MINUTE}::int)
      returning m.id, m.status, m.enabled`,
  );
  if (pinged) {
    const recovered =
      pinged.enabled === 1 && pinged.status !== 'up' ? await markAlive(db, pinged.id, now) : false;
    return { kind: 'ok', recovered };
  }
  // Nothing written: an unknown token, or one past its limit (told apart by a read, no write).
  const [known] = await db
    .select({ id: uptimeMonitors.id })
    .from(uptimeMonitors)
    .where(and(eq(uptimeMonitors.ping_token_hash, hash), eq(uptimeMonitors.kind, 'heartbeat')))
    .limit(1);
  if (!known) return { kind: 'unknown' };
  return { kind: 'limited', retryAfterSeconds: Math.max(1, Math.ceil((minute + MINUTE_MS - now) / 1000)) };
}

/**
 * The monitors of `kind` watched now (enabled, the site's Uptime app on, within the allowance), as
 * SQL over `m`: heartbeats here, http monitors' domains in ./domain-expiry.ts.
 */
export const watched = (kind: 'http' | 'heartbeat' = 'heartbeat') => sql`m.kind = ${kind} and m.enabled = 1
  and exists (select 1 from sites s where s.id = m.site_id and s.tenant_id = m.tenant_id and s.uptime_enabled = 1)
  and m.id not in (select over.id from (${monitorsOverAllowance()}) over)`;

/**
 * A ping to a monitor that was not up: ends its pause, closes its open incident (`recovery`, at
 * the ping) with the recovery notification, and sets it up. Under the monitor's row lock, so two
 * pings at once close the incident and notify once. Nothing when the monitor is not watched (its
 * site's app off, held at the allowance): the pause it is in goes on. Returns whether it recovered.
 */
async function markAlive(db: Db, monitorId: string, now: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const monitor = await lockedMonitor(tx, monitorId);
    if (!monitor || monitor.status === 'up') return false;
    const [isWatched] = await queryRows(
      tx,
      sql`select 1 from ${uptimeMonitors} m where m.id = ${monitorId}::uuid and ${watched()}`,
    );
    if (!isWatched) return false;
    await endPauses(tx, [{ monitorId, at: now }]);
    const [closed] = await tx
      .update(uptimeIncidents)
      .set({ recovered_at: now, closed_by: 'recovery', healthy_rounds: 0, healthy_since: null })
      .where(and(eq(uptimeIncidents.monitor_id, monitorId), isNull(uptimeIncidents.recovered_at)))
      .returning();
    await tx
      .update(uptimeMonitors)
      .set({ status: 'up', status_since: now })
      .where(eq(uptimeMonitors.id, monitorId));
    if (!closed) return false;
    await enqueueNotification(tx, {
      tenantId: monitor.tenant_id,
      siteId: monitor.site_id,
      now,
      kind: 'uptime-recovered',
      dedupeKey: `uptime-recovered:${closed.id}`,
      payload: { ...heartbeatAlert(monitor, closed.id, closed.down_at), recoveredAt: now },
    });
    await queueMonitorIncidentNews(
      tx,
      { tenantId: monitor.tenant_id, monitorId, cause: closed.cause },
      { incidentId: closed.id, event: 'resolved', startedAt: closed.down_at, resolvedAt: now },
      now,
    );
    return true;
  });
}

/** What a heartbeat's outage alert says (the uptime-down payload, as a probed monitor's). */
function heartbeatAlert(monitor: UptimeMonitor, incidentId: string, downAt: number) {
  return {
    monitorId: monitor.id,
    monitorName: monitor.name,
    url: null,
    ...monitorAlertTargets(monitor),
    monitorKind: 'heartbeat' as const,
    incidentId,
    downAt,
    cause: 'missed_heartbeat' as const,
    failingRegions: [],
    lastPingAt: monitor.last_ping_at,
    periodSeconds: monitor.period_seconds,
    graceSeconds: monitor.grace_seconds,
    detail: missedDetail(monitor),
  };
}

function missedDetail(m: UptimeMonitor): string {
  const every = `expected every ${seconds(m.period_seconds ?? 0)} with ${seconds(m.grace_seconds ?? 0)} of grace`;
  return m.last_ping_at === null
    ? `no ping received yet, ${every}`
    : `no ping since ${new Date(m.last_ping_at).toISOString().slice(0, 16).replace('T', ' ')} UTC, ${every}`;
}

function seconds(s: number): string {
  if (s % 86_400 === 0 && s > 0) return `${s / 86_400} d`;
  if (s % 3600 === 0 && s > 0) return `${s / 3600} h`;
  if (s % 60 === 0 && s > 0) return `${s / 60} min`;
  return `${s} s`;
}

/**
 * Run by the minute scheduler. For every watched heartbeat monitor:
 * - watched again after a pause (resumed, its app back on, no longer held): the pause ends now and
 *   the job gets a whole period and grace from now, whatever it missed while nobody watched;
 * - past its deadline with no incident open: the incident opens at the deadline, cause
 *   `missed_heartbeat`, the status goes down and the outage alert is queued (keyed on the incident,
 *   and the incident unique per monitor while open, so overlapping checks open and alert once).
 * Returns how many incidents it opened.
 */
export async function checkHeartbeats(db: Db, now: number): Promise<{ opened: number; resumed: number }> {
  const resumed = await queryRows<{ id: string }>(
    db,
    sql`select m.id from ${uptimeMonitors} m where ${watched()}
      and exists (select 1 from ${uptimePauses} p where p.monitor_id = m.id and p.ended_at is null)`,
  );
  for (const { id } of resumed) {
    await db.transaction(async (tx) => {
      await endPauses(tx, [{ monitorId: id, at: now }]);
      await tx.execute(sql`update ${uptimeMonitors} m
        set next_probe_at = greatest(coalesce(m.next_probe_at, 0), ${now}::bigint
          + (coalesce(m.period_seconds, 0) + coalesce(m.grace_seconds, 0)) * 1000::bigint)
        where m.id = ${id}::uuid`);
    });
  }
  const missed = await queryRows<{ id: string }>(
    db,
    sql`select m.id from ${uptimeMonitors} m where ${watched()}
      and m.next_probe_at <= ${now}::bigint
      and not exists (select 1 from ${uptimeIncidents} i where i.monitor_id = m.id and i.recovered_at is null)
      and not exists (select 1 from ${uptimePauses} p where p.monitor_id = m.id and p.ended_at is null)`,
  );
  let opened = 0;
  for (const { id } of missed) {
    if (await openMissedIncident(db, id, now)) opened++;
  }
  return { opened, resumed: resumed.length };
}

async function openMissedIncident(db: Db, monitorId: string, now: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const monitor = await lockedMonitor(tx, monitorId);
    // A ping since the list was read moved the deadline; a pause closed the matter.
    if (monitor?.enabled !== 1 || monitor.next_probe_at === null || monitor.next_probe_at > now) {
      return false;
    }
    const downAt = monitor.next_probe_at;
    const [incident] = await tx
      .insert(uptimeIncidents)
      .values({
        tenant_id: monitor.tenant_id,
        monitor_id: monitor.id,
        down_at: downAt,
        cause: 'missed_heartbeat',
        regions: null,
        created_at: now,
      })
      .onConflictDoNothing()
      .returning({ id: uptimeIncidents.id });
    if (!incident) return false;
    await tx
      .update(uptimeMonitors)
      .set({ status: 'down', status_since: downAt })
      .where(eq(uptimeMonitors.id, monitor.id));
    await enqueueNotification(tx, {
      tenantId: monitor.tenant_id,
      siteId: monitor.site_id,
      now,
      kind: 'uptime-down',
      dedupeKey: downAlertKey(incident.id),
      payload: heartbeatAlert(monitor, incident.id, downAt),
    });
    await queueMonitorIncidentNews(
      tx,
      { tenantId: monitor.tenant_id, monitorId: monitor.id, cause: 'missed_heartbeat' },
      { incidentId: incident.id, event: 'opened', startedAt: downAt, resolvedAt: null },
      now,
    );
    return true;
  });
}

/**
 * POST .../monitors/{monitorId}/ping-url/rotate (the route requires 'manage'): a new token, the old
 * one refused from now on. The answer carries the new ping URL in full, the only time it is shown.
 */
export async function rotatePingUrl(
  db: Db,
  principal: Principal,
  { siteId, monitorId }: { siteId: string; monitorId: string },
  now = Date.now(),
): Promise<MonitorResource> {
  const { monitor } = await findMonitor(db, principal, { siteId, monitorId });
  if (monitor.kind !== 'heartbeat') {
    throw new InvalidError('kind', 'only a heartbeat monitor has a ping URL to rotate');
  }
  const { token, columns } = issuePingToken();
  const [row] = await db
    .update(uptimeMonitors)
    .set({ ...columns, updated_at: now })
    .where(and(eq(uptimeMonitors.tenant_id, monitor.tenant_id), eq(uptimeMonitors.id, monitor.id)))
    .returning();
  return monitorResource(row ?? monitor, principal, { pingToken: token });
}
