import { asc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { notificationOutbox, sites, uptimeIncidents, uptimeMonitors } from '@/lib/db/schema';
import { runDueRounds } from '@/lib/uptime/coordinator';
import { createMonitor, type MonitorSettings, PLAIN_HTTP } from '@/lib/uptime/monitors';
import { embeddedProbers, type RegionFault, type RegionProber } from '@/lib/uptime/regions';
import { v1 } from './api-client';
import { insertSite } from './fixtures';

/** The monitor's stored row (it must exist). */
export const monitorRow = async (db: Db, id: string) =>
  (await db.select().from(uptimeMonitors).where(eq(uptimeMonitors.id, id)))[0]!;

/** The monitor's incidents, oldest first. */
export const incidentsOf = (db: Db, id: string) =>
  db
    .select()
    .from(uptimeIncidents)
    .where(eq(uptimeIncidents.monitor_id, id))
    .orderBy(asc(uptimeIncidents.down_at));

/** The outbox's notifications about the monitor, oldest first. */
export const outboxOf = async (db: Db, id: string) =>
  (await db.select().from(notificationOutbox).orderBy(asc(notificationOutbox.created_at))).filter(
    (n) => (n.payload as { monitorId?: string }).monitorId === id,
  );

/**
 * The four embedded regions, each cut off from every target while `outage.down` is true: the
 * target is down as the rounds see it (a real local server answers once they are let through again).
 */
export function regionOutage(down = false) {
  const outage = { down };
  const cut: RegionFault = () => (outage.down ? 'cut off (test fault)' : null);
  const probers = () => embeddedProbers({ retryDelayMs: 10, faults: { na: cut, eu: cut, as: cut, oc: cut } });
  return { outage, probers };
}

/** Runs every round due when the monitor's next one is; that round's time and outcome. */
export async function nextRound(db: Db, probers: () => RegionProber[], monitorId: string) {
  const due = (await monitorRow(db, monitorId)).next_probe_at!;
  const finished = await runDueRounds(db, probers(), { now: due });
  const mine = finished.find((f) => f.round.monitorId === monitorId);
  expect(mine, `the round due at ${due} probed the monitor`).toBeDefined();
  return { due, outcome: mine!.outcome };
}

/** Through the API, as a user would: Uptime turned on for the site, and a monitor made on it (`monitor`: the create body). */
export async function monitorByApi(token: string, siteId: string, monitor: Record<string, unknown>) {
  const uptimeOn = await v1({ token }).PATCH('/v1/sites/{id}', {
    params: { path: { id: siteId } },
    body: { uptimeEnabled: true },
  });
  expect(uptimeOn.status, JSON.stringify(uptimeOn.body)).toBe(200);
  // Callers hand the create body as a plain record (some on purpose with fields to refuse): sent as it is.
  const created = await v1({ token }).raw({
    method: 'POST',
    path: `/v1/sites/${siteId}/uptime/monitors`,
    body: monitor,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.monitor.id as string;
}

/** Through the API: a site at `https://<host>/`, and a monitor on it as `monitorByApi` makes one. */
export async function siteWithMonitorByApi(token: string, host: string, monitor: Record<string, unknown>) {
  const site = await v1({ token }).POST('/v1/sites', { body: { rootUrl: `https://${host}/` } });
  expect(site.status, JSON.stringify(site.body)).toBe(201);
  const siteId = site.body.site.id as string;
  return { siteId, monitorId: await monitorByApi(token, siteId, monitor) };
}

/** A site whose only app is Uptime (the scheduler starts nothing else for it). */
export async function uptimeOnlySite(db: Db, tenantId: string, hostname: string) {
  const siteId = await insertSite(db, tenantId, hostname);
  await db
    .update(sites)
    .set({ scanner_enabled: 0, a11y_enabled: 0, seo_enabled: 0, performance_enabled: 0 })
    .where(eq(sites.id, siteId));
  return siteId;
}

/** A monitor of `url` every minute, created at `at` through the service (`settings` over those). */
export const minuteMonitor = (
  db: Db,
  principal: Principal,
  siteId: string,
  url: string,
  at: number,
  settings: Partial<MonitorSettings> = {},
) =>
  createMonitor(
    db,
    principal,
    siteId,
    {
      ...PLAIN_HTTP,
      url,
      name: null,
      cadenceSeconds: 60,
      timeoutSeconds: 5,
      enabled: true,
      alertEmails: [],
      alertWebhooks: [],
      ...settings,
    },
    at,
  );
