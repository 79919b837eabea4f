import type { Run, Site } from '@/lib/db/schema';

/*
 * The pickers below shape rows into the resources that lib/api/schemas/resources.ts declares; that
 * file checks at compile time that each picker's output is exactly its schema's, so the two cannot
 * drift. They stay here, with the rows, because the domain answers resources without importing the
 * API layer.
 */

const flag = (on: boolean): 0 | 1 => (on ? 1 : 0);

/**
 * The Site resource exactly as the spec lists it. Picked field by field so a column added for internal
 * use never leaks into responses by accident.
 */
export function siteResource(s: Site) {
  return {
    id: s.id,
    tenant_id: s.tenant_id,
    hostname: s.hostname,
    root_url: s.root_url,
    cadence_minutes: s.cadence_minutes,
    max_pages: s.max_pages,
    max_concurrency: s.max_concurrency,
    enabled: s.enabled,
    last_run_at: s.last_run_at,
    next_run_at: s.next_run_at,
    created_at: s.created_at,
    scanner_enabled: s.scanner_enabled,
    a11y_enabled: s.a11y_enabled,
    a11y_cadence_minutes: s.a11y_cadence_minutes,
    a11y_next_run_at: s.a11y_next_run_at,
    performance_enabled: s.performance_enabled,
    uptime_enabled: s.uptime_enabled,
    seo_enabled: s.seo_enabled,
    fielddata_status: s.fielddata_status,
    fielddata_checked_at: s.fielddata_checked_at,
    // The spec carries both lists as JSON-encoded strings.
    exclude_paths: JSON.stringify(s.exclude_paths),
    strip_params: JSON.stringify(s.strip_params),
  };
}
export type SiteResource = ReturnType<typeof siteResource>;

/**
 * The Run resource (spec "Run"): everything but the run's internal bookkeeping (trigger, chaining,
 * live phase and window, captured settings, heartbeat), which belongs to the live crawl state.
 */
export function runResource(r: Run) {
  return {
    id: r.id,
    site_id: r.site_id,
    tenant_id: r.tenant_id,
    started_at: r.started_at,
    finished_at: r.finished_at,
    state: r.state,
    kind: r.kind,
    pages_crawled: r.pages_crawled,
    links_checked: r.links_checked,
    broken_count: r.broken_count,
    pages_with_broken_count: r.pages_with_broken_count,
    internal_broken: r.internal_broken,
    external_broken: r.external_broken,
    a11y_score: r.a11y_score,
    a11y_scan_score: r.a11y_scan_score,
    a11y_critical: r.a11y_critical,
    a11y_serious: r.a11y_serious,
    a11y_moderate: r.a11y_moderate,
    a11y_minor: r.a11y_minor,
    a11y_pages_scanned: r.a11y_pages_scanned,
    a11y_issue_count: r.a11y_issue_count,
    a11y_resolved: r.a11y_resolved,
    seo_score: r.seo_score,
    seo_critical: r.seo_critical,
    seo_serious: r.seo_serious,
    seo_moderate: r.seo_moderate,
    seo_minor: r.seo_minor,
    seo_pages_scanned: r.seo_pages_scanned,
    seo_issue_count: r.seo_issue_count,
    error: r.error,
    // A result cut short says so: 1 when any limit stopped part of the run's work, and which.
    cut_short: flag(r.limits_hit.length > 0),
    limits_hit: r.limits_hit,
  };
}
export type RunResource = ReturnType<typeof runResource>;
