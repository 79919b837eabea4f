import type { UptimeIncident, UptimeMonitor } from '@/lib/db/schema';

/*
 * The pickers below shape rows into the resources lib/api/schemas/uptime.ts declares; that file
 * checks at compile time that each picker's output is exactly its schema's. Picked field by field
 * so the internal columns (round lease, latest probes, warnings sent) never leak into a response.
 */

/** Spec: Uptime monitor. */
export function monitorResource(m: UptimeMonitor) {
  return {
    id: m.id,
    site_id: m.site_id,
    tenant_id: m.tenant_id,
    url: m.url,
    name: m.name,
    cadence_seconds: m.cadence_seconds,
    timeout_seconds: m.timeout_seconds,
    enabled: m.enabled,
    alert_emails: m.alert_emails,
    alert_webhooks: m.alert_webhooks,
    status: m.status,
    status_since: m.status_since,
    last_checked_at: m.last_checked_at,
    created_at: m.created_at,
    updated_at: m.updated_at,
  };
}
export type MonitorResource = ReturnType<typeof monitorResource>;

/** Spec: Uptime incident. */
export function incidentResource(i: UptimeIncident) {
  return {
    id: i.id,
    tenant_id: i.tenant_id,
    monitor_id: i.monitor_id,
    down_at: i.down_at,
    recovered_at: i.recovered_at,
    cause: i.cause,
    regions: i.regions,
    created_at: i.created_at,
  };
}
export type IncidentResource = ReturnType<typeof incidentResource>;
