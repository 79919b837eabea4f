import { and, asc, desc, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { completedCrawlOf } from '@/lib/db/running-crawl';
import {
  runs,
  type StatusPage,
  statusPageMonitors,
  statusPages,
  type UptimeMonitor,
  uptimeMonitors,
} from '@/lib/db/schema';
import { readSnapshot } from '@/lib/db/snapshot';
import { uncountedSpans } from '@/lib/uptime/maintenance';
import { incidentsOverlapping } from '@/lib/uptime/metrics';
import { DAY_MS, type DailyUptime, dailyUptime, dayStart, uptimePct } from '@/lib/uptime/rollup';
import { type PublicMaintenance, pageMaintenance, underMaintenance } from './maintenance';
import {
  type IncidentImpact,
  type IncidentUpdateStatus,
  type PageIncidentRecord,
  readPageIncidents,
} from './page-incidents';
import { publicUrl } from './resource';

/*
 * What a public status page shows (GET /status/{slug} and its summary.json, feed and badge): read
 * from the uptime domain's own views (incidents and pauses overlapping a range, incident-based
 * uptime per day), for the listed monitors only, in one read-only snapshot so the overall state,
 * the bars and the incident list agree. Nothing else of the organization is read: no member, no
 * other monitor, no tenant id; a monitor's URL only when the owner chose to show it.
 */

/** Days the uptime bar covers (UTC days, today included). */
export const BAR_DAYS = 90;
/** Incidents listed on the page and in the feed: those of the last this many days. */
export const INCIDENT_DAYS = 90;

export type PublicMonitorStatus = 'up' | 'degraded' | 'down' | 'unknown' | 'paused' | 'maintenance';
export type OverallStatus =
  | 'operational'
  | 'degraded'
  | 'partial_outage'
  | 'major_outage'
  | 'maintenance'
  | 'unknown';

export interface PublicMonitor {
  /** Its position on the page (1-based): an identifier that says nothing of the organization. */
  position: number;
  name: string;
  /** Only when the page shows monitor URLs. */
  url: string | null;
  status: PublicMonitorStatus;
  /** Since when it has been in `status` (epoch ms); null before its first round. */
  since: number | null;
  /** Incident-based uptime over the bar's days; null when it was not watched in any of them. */
  uptimePct: number | null;
  days: DailyUptime[];
  /** Its site's accessibility score (0-100, latest scan); only when the page shows it, else undefined. */
  a11yScore?: number | null;
  /** Its site's broken links (latest completed crawl); only when the page shows them. */
  brokenLinks?: number | null;
}

export interface PublicIncidentUpdate {
  status: IncidentUpdateStatus;
  message: string;
  at: number;
}

export interface PublicIncident {
  id: string;
  /** `monitor`: a listed monitor's consensus incident; `manual`: opened by the organization on this page. */
  kind: 'monitor' | 'manual';
  /** A manual incident's title; null for a monitor's. */
  title: string | null;
  /** The monitor's position and name on the page; null for a manual incident. */
  monitor: { position: number; name: string } | null;
  /** A manual incident's effect on the headline; null for a monitor's. */
  impact: IncidentImpact | null;
  startedAt: number;
  /** null while it is ongoing. */
  resolvedAt: number | null;
  cause: string | null;
  /** Where it stands: `resolved`, else its latest update's status; null before any update. */
  status: IncidentUpdateStatus | null;
  /** What the organization posted about it on this page, newest first (never who posted it). */
  updates: PublicIncidentUpdate[];
}

export interface PublicStatus {
  page: { slug: string; title: string; description: string | null; url: string; updatedAt: number };
  /** The instant everything is measured at. */
  at: number;
  status: OverallStatus;
  monitors: PublicMonitor[];
  /** The listed monitors' incidents and the page's manual ones of the last INCIDENT_DAYS days, newest first, ongoing ones included. */
  incidents: PublicIncident[];
  /** Maintenance windows under way or scheduled for the listed monitors, soonest first (./maintenance.ts). */
  maintenance: PublicMaintenance[];
}

/** The published page at `slug`, or undefined (unknown, or not published: the same 404). */
export async function findPublishedPage(db: Db, slug: string): Promise<StatusPage | undefined> {
  const [page] = await db
    .select()
    .from(statusPages)
    .where(and(eq(statusPages.slug, slug), eq(statusPages.published, 1)));
  return page;
}

/** The monitors the page lists, in its order (the organization's own only). */
export async function listedMonitors(db: Db, page: StatusPage): Promise<UptimeMonitor[]> {
  const rows = await db
    .select({ monitor: uptimeMonitors })
    .from(statusPageMonitors)
    .innerJoin(
      uptimeMonitors,
      and(eq(uptimeMonitors.id, statusPageMonitors.monitor_id), eq(uptimeMonitors.tenant_id, page.tenant_id)),
    )
    .where(
      and(eq(statusPageMonitors.tenant_id, page.tenant_id), eq(statusPageMonitors.status_page_id, page.id)),
    )
    .orderBy(asc(statusPageMonitors.position));
  return rows.map((r) => r.monitor);
}

/** Each site's latest accessibility score and latest completed crawl's broken links. */
async function siteFigures(
  db: Db,
  tenantId: string,
  siteIds: readonly string[],
): Promise<Map<string, { a11yScore: number | null; brokenLinks: number | null }>> {
  const figures = new Map(
    siteIds.map((id) => [id, { a11yScore: null as number | null, brokenLinks: null as number | null }]),
  );
  for (const siteId of siteIds) {
    const [scored] = await db
      .select({ score: runs.a11y_score })
      .from(runs)
      .where(and(eq(runs.tenant_id, tenantId), eq(runs.site_id, siteId), isNotNull(runs.a11y_score)))
      .orderBy(desc(runs.started_at))
      .limit(1);
    const [crawl] = await db
      .select({ broken: runs.broken_count })
      .from(runs)
      .where(completedCrawlOf(tenantId, siteId))
      .orderBy(desc(runs.started_at))
      .limit(1);
    figures.set(siteId, { a11yScore: scored?.score ?? null, brokenLinks: crawl?.broken ?? null });
  }
  return figures;
}

function nameOf(monitor: UptimeMonitor, position: number, showUrls: boolean): string {
  if (monitor.name) return monitor.name;
  return (showUrls ? monitor.url : null) ?? `Service ${position}`;
}

const SEVERITY: Record<PublicMonitorStatus, number> = {
  up: 0,
  paused: 0,
  unknown: 0,
  maintenance: 0,
  degraded: 1,
  down: 2,
};

/**
 * The page's headline: every listed monitor up is operational; all down, a major outage. Monitors
 * under maintenance are announced work, not an outage: the others decide, and with nothing else
 * wrong the headline says maintenance is under way.
 */
export function overallStatus(statuses: readonly PublicMonitorStatus[]): OverallStatus {
  const maintenance = statuses.includes('maintenance');
  const watched = statuses.filter((s) => s !== 'paused' && s !== 'unknown' && s !== 'maintenance');
  if (watched.length === 0) return maintenance ? 'maintenance' : 'unknown';
  const down = watched.filter((s) => s === 'down').length;
  if (down === watched.length) return 'major_outage';
  if (down > 0) return 'partial_outage';
  if (watched.some((s) => SEVERITY[s] > 0)) return 'degraded';
  return maintenance ? 'maintenance' : 'operational';
}

/** An open manual incident raises the headline to its impact (`none`: a notice, it stays). */
export function withOpenIncidents(
  overall: OverallStatus,
  incidents: readonly PublicIncident[],
): OverallStatus {
  const rank: OverallStatus[] = [
    'unknown',
    'operational',
    'maintenance',
    'degraded',
    'partial_outage',
    'major_outage',
  ];
  let worst = overall;
  for (const incident of incidents) {
    if (incident.kind !== 'manual' || incident.resolvedAt !== null || !incident.impact) continue;
    if (incident.impact === 'none') continue;
    if (rank.indexOf(incident.impact) > rank.indexOf(worst)) worst = incident.impact;
  }
  return worst;
}

/** A page incident as the public sees it: a monitor by its place on the page, no ids of the organization. */
function publicIncident(
  record: PageIncidentRecord,
  byMonitor: ReadonlyMap<string, PublicMonitor>,
): PublicIncident {
  const monitor = record.monitorId ? byMonitor.get(record.monitorId) : undefined;
  return {
    id: record.id,
    kind: record.kind,
    title: record.title,
    monitor: monitor ? { position: monitor.position, name: monitor.name } : null,
    impact: record.impact,
    startedAt: record.startedAt,
    resolvedAt: record.resolvedAt,
    cause: record.cause,
    status: record.status,
    updates: record.updates.map((u) => ({ status: u.status, message: u.message, at: u.createdAt })),
  };
}

/** Everything the public page shows, measured at `now`; undefined for an unknown or unpublished slug. */
export async function readPublicStatus(
  db: Db,
  slug: string,
  now = Date.now(),
): Promise<PublicStatus | undefined> {
  return readSnapshot(db, async (tx) => {
    const page = await findPublishedPage(tx, slug);
    if (!page) return undefined;
    const monitors = await listedMonitors(tx, page);
    const ids = monitors.map((m) => m.id);
    const barFrom = dayStart(now) - (BAR_DAYS - 1) * DAY_MS;
    const from = Math.min(barFrom, now - INCIDENT_DAYS * DAY_MS);
    const incidents = await incidentsOverlapping(tx, page.tenant_id, ids, from, now);
    const uncounted = await uncountedSpans(tx, page.tenant_id, ids, barFrom, now);
    const showSites = page.show_a11y_score === 1 || page.show_broken_links === 1;
    const sites = showSites
      ? await siteFigures(tx, page.tenant_id, [...new Set(monitors.map((m) => m.site_id))])
      : new Map();
    const showUrls = page.show_monitor_urls === 1;
    const listed: PublicMonitor[] = monitors.map((monitor, i) => {
      const spans = (incidents.get(monitor.id) ?? []).map((inc) => ({
        downAt: inc.down_at,
        recoveredAt: inc.recovered_at,
      }));
      const outside = uncounted.get(monitor.id) ?? [];
      const figures = sites.get(monitor.site_id);
      return {
        position: i + 1,
        name: nameOf(monitor, i + 1, showUrls),
        url: showUrls ? monitor.url : null,
        status: monitor.enabled === 1 ? monitor.status : 'paused',
        since: monitor.status_since,
        uptimePct: uptimePct(barFrom, now, monitor.created_at, spans, outside),
        days: dailyUptime(BAR_DAYS, now, monitor.created_at, spans, outside),
        ...(page.show_a11y_score === 1 ? { a11yScore: figures?.a11yScore ?? null } : {}),
        ...(page.show_broken_links === 1 ? { brokenLinks: figures?.brokenLinks ?? null } : {}),
      };
    });
    const maintenance = await pageMaintenance(
      tx,
      page.tenant_id,
      monitors.map((m, i) => ({ id: m.id, position: i + 1, name: listed[i]!.name })),
      now,
    );
    underMaintenance(listed, maintenance);
    const byId = new Map(monitors.map((m, i) => [m.id, listed[i]!]));
    const records = await readPageIncidents(
      tx,
      page,
      [...incidents.values()].flat(),
      now - INCIDENT_DAYS * DAY_MS,
    );
    const recent = records.map((record) => publicIncident(record, byId));
    return {
      page: {
        slug: page.slug,
        title: page.title,
        description: page.description,
        url: publicUrl(page.slug),
        updatedAt: page.updated_at,
      },
      at: now,
      status: withOpenIncidents(overallStatus(listed.map((m) => m.status)), recent),
      monitors: listed,
      incidents: recent,
      maintenance,
    };
  });
}
