import { isAdminRole, type Principal } from '@/lib/auth/principal';
import type { UptimeIncident, UptimeMonitor } from '@/lib/db/schema';
import { readStoredWebhooks } from '@/lib/notify/stored-webhooks';
import { elideUrlPath } from '@/lib/notify/webhook';
import { domainExpiryOf } from './domain';
import { maskedPingUrl, pingUrl } from './ping-token';

/*
 * The pickers below shape rows into the resources lib/api/schemas/uptime.ts declares; that file
 * checks at compile time that each picker's output is exactly its schema's. Picked field by field
 * so the internal columns (round lease, latest probes, warnings sent) never leak into a response.
 */

/**
 * Who reads a monitor's alert webhook URLs in full: owners and admins in the dashboard, who set them.
 * An API key or a member sees each URL's origin only (the path of a chat webhook is its
 * credential, and a key may be a CMS integration's); the kinds and the count stay visible.
 */
export function seesWebhookUrls(principal: Principal): boolean {
  return principal.via === 'session' && isAdminRole(principal.role);
}

/** The stored (sealed) `alert_webhooks` as the spec's JSON-encoded `[{kind, url}]`, URLs in full or elided. */
function alertWebhooksOf(m: UptimeMonitor, full: boolean): string | null {
  if (m.alert_webhooks === null) return null;
  const hooks = readStoredWebhooks(m.alert_webhooks, m.tenant_id);
  return JSON.stringify(full ? hooks : hooks.map((h) => ({ kind: h.kind, url: elideUrlPath(h.url) })));
}

/**
 * A heartbeat monitor's ping URL: in full only with the token just issued (creation, rotation),
 * since only its hash is kept; masked otherwise. Null for an http monitor.
 */
function pingUrlOf(m: UptimeMonitor, pingToken: string | undefined): string | null {
  if (m.kind !== 'heartbeat') return null;
  if (pingToken !== undefined) return pingUrl(pingToken);
  return m.ping_token_hint === null ? null : maskedPingUrl(m.ping_token_hint);
}

/**
 * Spec: Uptime monitor, as `principal` may read it (`seesWebhookUrls`), with issue 26's kinds and
 * expectations. `pingToken`: the token just issued, shown in full in this one answer.
 */
export function monitorResource(m: UptimeMonitor, principal: Principal, issued: { pingToken?: string } = {}) {
  return {
    id: m.id,
    site_id: m.site_id,
    tenant_id: m.tenant_id,
    kind: m.kind,
    url: m.url,
    name: m.name,
    cadence_seconds: m.cadence_seconds,
    timeout_seconds: m.timeout_seconds,
    enabled: m.enabled,
    // The spec carries both lists as JSON-encoded strings.
    alert_emails: m.alert_emails === null ? null : JSON.stringify(m.alert_emails),
    alert_webhooks: alertWebhooksOf(m, seesWebhookUrls(principal)),
    expected_statuses: m.expected_statuses,
    keyword: m.keyword,
    keyword_absent: m.keyword_absent,
    period_seconds: m.period_seconds,
    grace_seconds: m.grace_seconds,
    ping_url: pingUrlOf(m, issued.pingToken),
    last_ping_at: m.last_ping_at,
    status: m.status,
    status_since: m.status_since,
    last_checked_at: m.last_checked_at,
    ...domainExpiryOf(m),
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
    regions: i.regions === null ? null : JSON.stringify(i.regions),
    created_at: i.created_at,
    closed_by: i.closed_by,
  };
}
export type IncidentResource = ReturnType<typeof incidentResource>;
