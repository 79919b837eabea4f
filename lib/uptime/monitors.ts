import { and, asc, eq, sql } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import { monitorPool } from '@/lib/billing/monitors';
import { overageState } from '@/lib/billing/settings';
import { config } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { type Site, type UptimeMonitor, uptimeMonitors } from '@/lib/db/schema';
import { ConflictError, ForbiddenError, InvalidError, NotFoundError } from '@/lib/errors';
import { requestConfirmations } from '@/lib/notify/consent';
import { storeWebhooks } from '@/lib/notify/stored-webhooks';
import type { NotificationWebhook } from '@/lib/notify/webhook';
import { getVisibleSite } from '@/lib/sites/access';
import { endPauses, startPause } from './pauses';
import { heartbeatDeadline, issuePingToken } from './ping-token';
import { type MonitorResource, monitorResource } from './resource';
import { nextRoundAt } from './schedule';
import { MONITOR_NOT_FOUND, type MonitorKind } from './types';

/**
 * A monitor's settings as validated by the API (lib/api/schemas/uptime.ts, which proves its
 * output is exactly this shape): every field at creation, defaults applied; any subset on edit.
 */
export interface MonitorSettings {
  kind: MonitorKind;
  /** null for a heartbeat monitor. */
  url: string | null;
  /** null shows the URL. */
  name: string | null;
  cadenceSeconds: number;
  timeoutSeconds: number;
  enabled: boolean;
  alertEmails: string[];
  alertWebhooks: NotificationWebhook[];
  /** http monitors (./expectations.ts); [] and null for heartbeats. */
  expectedStatuses: string[];
  keyword: string | null;
  keywordAbsent: boolean;
  /** Heartbeat monitors (./heartbeats.ts); null for http monitors. */
  periodSeconds: number | null;
  graceSeconds: number | null;
}
/** An edit: any field but the kind, fixed at creation; one of the other kind's is refused (422). */
export interface MonitorEdit {
  url?: string;
  name?: string | null;
  cadenceSeconds?: number;
  timeoutSeconds?: number;
  enabled?: boolean;
  alertEmails?: string[];
  alertWebhooks?: NotificationWebhook[];
  expectedStatuses?: string[];
  keyword?: string | null;
  keywordAbsent?: boolean;
  periodSeconds?: number;
  graceSeconds?: number;
}

/** An http monitor's settings beyond the spec's, as a monitor without expectations has them. */
export const PLAIN_HTTP: Readonly<
  Pick<
    MonitorSettings,
    'kind' | 'expectedStatuses' | 'keyword' | 'keywordAbsent' | 'periodSeconds' | 'graceSeconds'
  >
> = {
  kind: 'http',
  expectedStatuses: [],
  keyword: null,
  keywordAbsent: false,
  periodSeconds: null,
  graceSeconds: null,
};

export const UPTIME_APP_OFF =
  'the Uptime app is not enabled for this site: turn it on (PATCH /v1/sites/{id} with uptimeEnabled: true) to add monitors';

const flag = (on: boolean): 0 | 1 => (on ? 1 : 0);

/** GET /v1/sites/{id}/uptime/monitors: the site's monitors, oldest first. */
export async function listMonitors(db: Db, principal: Principal, siteId: string): Promise<MonitorResource[]> {
  const site = await getVisibleSite(db, principal, siteId);
  return (await monitorsOfSite(db, site)).map((m) => monitorResource(m, principal));
}

/** A site's monitor rows, oldest first (the listing's order; the monthly report's too). */
export function monitorsOfSite(db: Db, site: Pick<Site, 'tenant_id' | 'id'>): Promise<UptimeMonitor[]> {
  return db
    .select()
    .from(uptimeMonitors)
    .where(and(eq(uptimeMonitors.tenant_id, site.tenant_id), eq(uptimeMonitors.site_id, site.id)))
    .orderBy(asc(uptimeMonitors.created_at), asc(uptimeMonitors.id));
}

// Advisory lock namespace for "monitor slots of one tenant" (two-int form, beside the site slots').
const MONITOR_SLOT_LOCK = 7_419_101;

/**
 * POST /v1/sites/{id}/uptime/monitors (the route requires 'manage'). 409 while the site's Uptime
 * app is off; 403 past the organization's pooled allowance with overage off, checked under a
 * per-tenant lock so concurrent creations cannot both take the last slot. An enabled monitor's
 * first round is due at once: every region probes it on the scheduler's next pass. A heartbeat
 * monitor gets its ping token, shown in full in this answer only, and its first deadline a period
 * and grace from now.
 */
export async function createMonitor(
  db: Db,
  principal: Principal,
  siteId: string,
  input: MonitorSettings,
  now = Date.now(),
): Promise<MonitorResource> {
  const site = await getVisibleSite(db, principal, siteId);
  if (site.uptime_enabled !== 1) throw new ConflictError(UPTIME_APP_OFF);
  const heartbeat = input.kind === 'heartbeat';
  const ping = heartbeat ? issuePingToken() : null;
  const row = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MONITOR_SLOT_LOCK}, hashtext(${site.tenant_id}))`);
    const { used, pool } = await monitorPool(tx, site.tenant_id);
    if (used >= pool && !(await overageState(tx, site.tenant_id)).enabled) {
      throw new ForbiddenError(
        `included uptime monitors used up: ${used} of ${pool} (${config().ALLOWANCE_MONITORS} per site, pooled across the organization) and overage billing is off; turn overage on (PATCH /v1/billing) or delete a monitor`,
      );
    }
    const [inserted] = await tx
      .insert(uptimeMonitors)
      .values({
        site_id: site.id,
        tenant_id: site.tenant_id,
        kind: input.kind,
        url: input.url,
        name: input.name,
        cadence_seconds: input.cadenceSeconds,
        timeout_seconds: input.timeoutSeconds,
        enabled: flag(input.enabled),
        alert_emails: input.alertEmails,
        alert_webhooks: storeWebhooks(input.alertWebhooks, site.tenant_id),
        expected_statuses: input.expectedStatuses,
        keyword: input.keyword,
        keyword_absent: flag(input.keywordAbsent),
        period_seconds: input.periodSeconds,
        grace_seconds: input.graceSeconds,
        ...ping?.columns,
        status: 'unknown',
        // A heartbeat's first deadline: a period and grace from now (./heartbeats.ts).
        next_probe_at: input.enabled
          ? heartbeat
            ? heartbeatDeadline(now, {
                period_seconds: input.periodSeconds,
                grace_seconds: input.graceSeconds,
              })
            : now
          : null,
        created_at: now,
        updated_at: now,
      })
      .returning();
    // Created paused: not watched until it is resumed (uptime counts from its first round).
    if (inserted && !input.enabled) await startPause(tx, inserted, 'monitor', now);
    return inserted;
  });
  if (!row) throw new Error('monitor insert returned no row');
  await requestConfirmations(db, site.tenant_id, input.alertEmails, now);
  return monitorResource(row, principal, ping ? { pingToken: ping.token } : {});
}

/** The monitor's row, locked for the rest of the transaction `tx` (undefined when it is gone). */
export async function lockedMonitor(tx: Db, monitorId: string): Promise<UptimeMonitor | undefined> {
  const [monitor] = await tx
    .select()
    .from(uptimeMonitors)
    .where(eq(uptimeMonitors.id, monitorId))
    .for('update');
  return monitor;
}

/** The site (visible to the caller) and its monitor, or 404; `forUpdate` inside a transaction. */
export async function findMonitor(
  db: Db,
  principal: Principal,
  { siteId, monitorId }: { siteId: string; monitorId: string },
  options: { forUpdate?: boolean } = {},
): Promise<{ site: Site; monitor: UptimeMonitor }> {
  const site = await getVisibleSite(db, principal, siteId);
  const query = db
    .select()
    .from(uptimeMonitors)
    .where(
      and(
        eq(uptimeMonitors.tenant_id, site.tenant_id),
        eq(uptimeMonitors.site_id, site.id),
        eq(uptimeMonitors.id, monitorId),
      ),
    )
    .limit(1);
  const [monitor] = await (options.forUpdate ? query.for('update') : query);
  if (!monitor) throw new NotFoundError(MONITOR_NOT_FOUND);
  return { site, monitor };
}

/** GET .../monitors/{monitorId}. */
export async function getMonitor(
  db: Db,
  principal: Principal,
  { siteId, monitorId }: { siteId: string; monitorId: string },
): Promise<MonitorResource> {
  return monitorResource((await findMonitor(db, principal, { siteId, monitorId })).monitor, principal);
}

/**
 * PATCH .../monitors/{monitorId} (the route requires 'manage'). Omitted fields keep their value.
 * The state table: `enabled: false` pauses (probing stops, monitor and history stay, an open
 * incident closes, `closed_by: monitor`, and the status is `unknown` until a round says); `enabled:
 * true` on a paused monitor resumes it with a round due at once, as does a new URL (a new target
 * deserves a fresh look from every region). A new cadence moves the next round onto it. Allowed
 * while the Uptime app is off: the monitor stays stopped until the app is on again.
 */
export async function updateMonitor(
  db: Db,
  principal: Principal,
  { siteId, monitorId }: { siteId: string; monitorId: string },
  input: MonitorEdit,
  now = Date.now(),
): Promise<MonitorResource> {
  const row = await db.transaction(async (tx) => {
    const { monitor: before } = await findMonitor(tx, principal, { siteId, monitorId }, { forUpdate: true });
    refuseOtherKind(before, input);
    const after = applyEdit(before, input, now);
    const changes = Object.fromEntries(
      Object.entries(after).filter(([key, value]) => before[key as keyof UptimeMonitor] !== value),
    ) as Partial<UptimeMonitor>;
    if (Object.keys(changes).length === 0) return before;
    // Paused: nothing watches the target from now, so an open incident ends here (./pauses.ts).
    if (before.enabled === 1 && after.enabled === 0) await startPause(tx, before, 'monitor', now);
    // A heartbeat is watched again from its resumption (an http monitor's pause ends with its round, at once).
    if (before.kind === 'heartbeat' && before.enabled === 0 && after.enabled === 1) {
      await endPauses(tx, [{ monitorId: before.id, at: now }]);
    }
    const [updated] = await tx
      .update(uptimeMonitors)
      .set({ ...changes, updated_at: now })
      .where(and(eq(uptimeMonitors.tenant_id, before.tenant_id), eq(uptimeMonitors.id, before.id)))
      .returning();
    return updated ?? before;
  });
  if (input.alertEmails !== undefined) await requestConfirmations(db, row.tenant_id, input.alertEmails, now);
  return monitorResource(row, principal);
}

const HTTP_FIELDS = [
  'url',
  'cadenceSeconds',
  'timeoutSeconds',
  'expectedStatuses',
  'keyword',
  'keywordAbsent',
] as const;
const HEARTBEAT_FIELDS = ['periodSeconds', 'graceSeconds'] as const;

/** A field of the other kind is a 422 naming it: a heartbeat has no URL to probe, an http monitor no period. */
function refuseOtherKind(monitor: UptimeMonitor, input: MonitorEdit): void {
  const heartbeat = monitor.kind === 'heartbeat';
  for (const field of heartbeat ? HTTP_FIELDS : HEARTBEAT_FIELDS) {
    if (input[field] !== undefined) {
      throw new InvalidError(
        field,
        `applies to ${heartbeat ? 'http' : 'heartbeat'} monitors only; this one is a ${monitor.kind} monitor`,
      );
    }
  }
}

function applyEdit(before: UptimeMonitor, input: MonitorEdit, now: number): UptimeMonitor {
  const after: UptimeMonitor = { ...before };
  if (before.kind === 'heartbeat') return applyHeartbeatEdit(before, after, input, now);
  if (input.url !== undefined) after.url = input.url;
  if (input.name !== undefined) after.name = input.name;
  if (input.cadenceSeconds !== undefined) after.cadence_seconds = input.cadenceSeconds;
  if (input.timeoutSeconds !== undefined) after.timeout_seconds = input.timeoutSeconds;
  if (input.enabled !== undefined) after.enabled = flag(input.enabled);
  if (input.alertEmails !== undefined) after.alert_emails = input.alertEmails;
  if (input.alertWebhooks !== undefined)
    after.alert_webhooks = storeWebhooks(input.alertWebhooks, before.tenant_id);
  if (input.expectedStatuses !== undefined) after.expected_statuses = input.expectedStatuses;
  if (input.keyword !== undefined) after.keyword = input.keyword;
  if (input.keywordAbsent !== undefined) after.keyword_absent = flag(input.keywordAbsent);

  const resumed = before.enabled === 0 && after.enabled === 1;
  const newTarget = after.url !== before.url;
  if (after.enabled === 0) {
    // Paused: nothing is due. A round already out finishes and is recorded.
    after.next_probe_at = null;
  } else if (resumed || newTarget || before.next_probe_at === null) {
    after.next_probe_at = now;
  } else if (after.cadence_seconds !== before.cadence_seconds && before.last_checked_at !== null) {
    after.next_probe_at = nextRoundAt(after.id, after.cadence_seconds, before.last_checked_at, now);
  }
  return after;
}

/**
 * A heartbeat monitor's edit: paused, nothing is due; resumed, the job has a whole period and
 * grace from now; a new period or grace moves the deadline from the last ping (or from when
 * watching began), so a shorter period can make a ping already late.
 */
function applyHeartbeatEdit(before: UptimeMonitor, after: UptimeMonitor, input: MonitorEdit, now: number) {
  if (input.name !== undefined) after.name = input.name;
  if (input.enabled !== undefined) after.enabled = flag(input.enabled);
  if (input.alertEmails !== undefined) after.alert_emails = input.alertEmails;
  if (input.alertWebhooks !== undefined)
    after.alert_webhooks = storeWebhooks(input.alertWebhooks, before.tenant_id);
  if (input.periodSeconds !== undefined) after.period_seconds = input.periodSeconds;
  if (input.graceSeconds !== undefined) after.grace_seconds = input.graceSeconds;
  if (after.enabled === 0) {
    after.next_probe_at = null;
  } else if (before.enabled === 0 || before.next_probe_at === null) {
    after.next_probe_at = heartbeatDeadline(now, after);
  } else if (after.period_seconds !== before.period_seconds || after.grace_seconds !== before.grace_seconds) {
    // The anchor the deadline was counted from: the last ping, or when watching began.
    const anchor = before.next_probe_at - heartbeatDeadline(0, before);
    after.next_probe_at = heartbeatDeadline(anchor, after);
  }
  return after;
}

/** DELETE .../monitors/{monitorId} (the route requires 'manage'): its incidents, results and buckets go with it. */
export async function deleteMonitor(
  db: Db,
  principal: Principal,
  { siteId, monitorId }: { siteId: string; monitorId: string },
): Promise<{ deleted: true }> {
  const { monitor } = await findMonitor(db, principal, { siteId, monitorId });
  await db
    .delete(uptimeMonitors)
    .where(and(eq(uptimeMonitors.tenant_id, monitor.tenant_id), eq(uptimeMonitors.id, monitor.id)));
  return { deleted: true };
}
