import { and, desc, eq, gt, inArray, isNull, or } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import {
  type INCIDENT_IMPACTS,
  type INCIDENT_UPDATE_STATUSES,
  type StatusPage,
  type StatusPageIncident,
  statusPageIncidents,
  statusPageIncidentUpdates,
  type UptimeIncident,
} from '@/lib/db/schema';

/*
 * The incidents a status page shows (issue 26 item 2): the consensus incidents of its listed
 * monitors, which appear by themselves, and the manual incidents the organization opened on it,
 * each with the updates posted on this page. One reader for the public renditions
 * (lib/statuspages/public.ts) and the API (lib/statuspages/incidents.ts), so both say the same.
 */

export type IncidentUpdateStatus = (typeof INCIDENT_UPDATE_STATUSES)[number];
export type IncidentImpact = (typeof INCIDENT_IMPACTS)[number];

export interface IncidentUpdateRecord {
  id: string;
  status: IncidentUpdateStatus;
  message: string;
  createdAt: number;
}

export interface PageIncidentRecord {
  id: string;
  /** `monitor`: a consensus incident of a listed monitor; `manual`: opened on the page. */
  kind: 'monitor' | 'manual';
  /** The manual incident's title; null for a monitor's (the page names it by monitor and cause). */
  title: string | null;
  /** A manual incident's effect on the headline; null for a monitor's (its monitor's status says it). */
  impact: IncidentImpact | null;
  monitorId: string | null;
  cause: string | null;
  startedAt: number;
  resolvedAt: number | null;
  /** Where it stands (incidentStatus). */
  status: IncidentUpdateStatus | null;
  /** Newest first. */
  updates: IncidentUpdateRecord[];
}

/**
 * Where an incident stands: `resolved` once it is closed (a monitor's recovery, or a manual
 * incident's `resolved` update), else what its latest update says; null while nobody has said
 * anything of an ongoing monitor incident (the page then says only that it is ongoing).
 */
export function incidentStatus(
  resolvedAt: number | null,
  updates: readonly IncidentUpdateRecord[],
): IncidentUpdateStatus | null {
  if (resolvedAt !== null) return 'resolved';
  return updates[0]?.status ?? null;
}

/** The page's manual incidents open now or resolved after `from`. */
async function manualIncidents(db: Db, page: StatusPage, from: number): Promise<StatusPageIncident[]> {
  return db
    .select()
    .from(statusPageIncidents)
    .where(
      and(
        eq(statusPageIncidents.tenant_id, page.tenant_id),
        eq(statusPageIncidents.status_page_id, page.id),
        or(isNull(statusPageIncidents.resolved_at), gt(statusPageIncidents.resolved_at, from)),
      ),
    );
}

/** The updates this page posted on these incidents, newest first, by incident id. */
async function updatesOf(
  db: Db,
  page: StatusPage,
  uptimeIds: readonly string[],
  manualIds: readonly string[],
): Promise<Map<string, IncidentUpdateRecord[]>> {
  const byIncident = new Map<string, IncidentUpdateRecord[]>();
  if (uptimeIds.length + manualIds.length === 0) return byIncident;
  const u = statusPageIncidentUpdates;
  const rows = await db
    .select()
    .from(u)
    .where(
      and(
        eq(u.tenant_id, page.tenant_id),
        eq(u.status_page_id, page.id),
        or(
          uptimeIds.length ? inArray(u.uptime_incident_id, [...uptimeIds]) : undefined,
          manualIds.length ? inArray(u.page_incident_id, [...manualIds]) : undefined,
        ),
      ),
    )
    .orderBy(desc(u.created_at), desc(u.id));
  for (const row of rows) {
    const incidentId = (row.uptime_incident_id ?? row.page_incident_id)!;
    const list = byIncident.get(incidentId) ?? [];
    list.push({ id: row.id, status: row.status, message: row.message, createdAt: row.created_at });
    byIncident.set(incidentId, list);
  }
  return byIncident;
}

/**
 * The page's incidents, newest first: `consensus` (its listed monitors' incidents, as the caller
 * read them) resolved after `from` or ongoing, and its manual incidents likewise, with their updates.
 */
export async function readPageIncidents(
  db: Db,
  page: StatusPage,
  consensus: readonly UptimeIncident[],
  from: number,
): Promise<PageIncidentRecord[]> {
  const recent = consensus.filter((i) => i.recovered_at === null || i.recovered_at > from);
  const manual = await manualIncidents(db, page, from);
  const updates = await updatesOf(
    db,
    page,
    recent.map((i) => i.id),
    manual.map((i) => i.id),
  );
  const records: PageIncidentRecord[] = [
    ...recent.map((i) => {
      const said = updates.get(i.id) ?? [];
      return {
        id: i.id,
        kind: 'monitor' as const,
        title: null,
        impact: null,
        monitorId: i.monitor_id,
        cause: i.cause,
        startedAt: i.down_at,
        resolvedAt: i.recovered_at,
        status: incidentStatus(i.recovered_at, said),
        updates: said,
      };
    }),
    ...manual.map((i) => {
      const said = updates.get(i.id) ?? [];
      return {
        id: i.id,
        kind: 'manual' as const,
        title: i.title,
        impact: i.impact,
        monitorId: null,
        cause: null,
        startedAt: i.started_at,
        resolvedAt: i.resolved_at,
        status: incidentStatus(i.resolved_at, said),
        updates: said,
      };
    }),
  ];
  return records.sort((a, b) => b.startedAt - a.startedAt || (a.id < b.id ? 1 : -1));
}
