import { and, eq, gt, inArray, isNull, or } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import {
  type StatusPage,
  statusPageIncidents,
  statusPageIncidentUpdates,
  statusPageMonitors,
  type UptimeMonitor,
  uptimeIncidents,
} from '@/lib/db/schema';
import { ConflictError, NotFoundError } from '@/lib/errors';
import { CAUSES } from '@/lib/notify/message';
import { queuePageIncidentNews } from '@/lib/notify/subscribers';
import { incidentsOverlapping } from '@/lib/uptime/metrics';
import { DAY_MS } from '@/lib/uptime/rollup';
import {
  type IncidentImpact,
  type IncidentUpdateStatus,
  type PageIncidentRecord,
  readPageIncidents,
} from './page-incidents';
import { INCIDENT_DAYS, listedMonitors } from './public';
import { findPage } from './service';

/*
 * What the organization says on a status page (issue 26 item 2), as Better Stack's status reports
 * and openstatus's status updates do: updates (`investigating`, `identified`, `monitoring`,
 * `resolved`, with a message) on the consensus incidents of the page's listed monitors, and manual
 * incidents for what no monitor sees. Updates belong to the page they are posted on.
 *
 * The probes stay the truth of a monitor's incident: it resolves when its checks recover, so an
 * update may not call it resolved while it is still failing (409), and its recovery resolves it
 * whatever the last update said. A manual incident is resolved by an update saying so; after that
 * only further `resolved` updates (a follow-up, a post-mortem) are taken: a new problem is a new
 * incident.
 */

export const INCIDENT_NOT_FOUND = 'incident not found';

export interface IncidentUpdateInput {
  status: IncidentUpdateStatus;
  message: string;
}

export interface ManualIncidentInput extends IncidentUpdateInput {
  title: string;
  impact: IncidentImpact;
}

function monitorName(monitor: UptimeMonitor | undefined): string {
  return monitor?.name ?? monitor?.url ?? 'Monitor';
}

/** Spec: StatusPageIncident (lib/api/schemas/statuspages.ts proves the shapes equal). */
function incidentView(record: PageIncidentRecord, monitors: ReadonlyMap<string, UptimeMonitor>) {
  const monitor = record.monitorId ? monitors.get(record.monitorId) : undefined;
  const cause = record.cause ? (CAUSES[record.cause] ?? record.cause) : 'outage';
  return {
    id: record.id,
    kind: record.kind,
    title: record.kind === 'manual' ? (record.title ?? '') : `${monitorName(monitor)}: ${cause}`,
    status: record.status,
    impact: record.impact,
    monitorId: record.monitorId,
    cause: record.cause,
    startedAt: record.startedAt,
    resolvedAt: record.resolvedAt,
    updates: record.updates,
  };
}
export type PageIncidentView = ReturnType<typeof incidentView>;

/** Everything the page shows of incidents, as the owner sees it (with monitor ids), newest first. */
async function pageIncidentViews(db: Db, page: StatusPage, now: number): Promise<PageIncidentView[]> {
  const monitors = await listedMonitors(db, page);
  const from = now - INCIDENT_DAYS * DAY_MS;
  const consensus = await incidentsOverlapping(
    db,
    page.tenant_id,
    monitors.map((m) => m.id),
    from,
    now,
  );
  const records = await readPageIncidents(db, page, [...consensus.values()].flat(), from);
  const byId = new Map(monitors.map((m) => [m.id, m]));
  return records.map((record) => incidentView(record, byId));
}

/** The page's incidents of the last INCIDENT_DAYS days (ongoing ones included), with their updates. */
export async function listPageIncidents(
  db: Db,
  { tenantId, pageId }: { tenantId: string; pageId: string },
  now = Date.now(),
): Promise<{ incidents: PageIncidentView[] }> {
  const page = await findPage(db, { tenantId, id: pageId });
  return { incidents: await pageIncidentViews(db, page, now) };
}

async function viewOf(db: Db, page: StatusPage, incidentId: string, now: number): Promise<PageIncidentView> {
  const view = (await pageIncidentViews(db, page, now)).find((i) => i.id === incidentId);
  if (!view) throw new NotFoundError(INCIDENT_NOT_FOUND);
  return view;
}

/** Opens a manual incident with its first update; a `resolved` first update records one already over. */
export async function openManualIncident(
  db: Db,
  { tenantId, pageId }: { tenantId: string; pageId: string },
  input: ManualIncidentInput,
  now = Date.now(),
): Promise<PageIncidentView> {
  const page = await findPage(db, { tenantId, id: pageId });
  const id = await db.transaction(async (tx) => {
    const [incident] = await tx
      .insert(statusPageIncidents)
      .values({
        tenant_id: tenantId,
        status_page_id: page.id,
        title: input.title,
        impact: input.impact,
        started_at: now,
        resolved_at: input.status === 'resolved' ? now : null,
      })
      .returning({ id: statusPageIncidents.id });
    await tx.insert(statusPageIncidentUpdates).values({
      tenant_id: tenantId,
      status_page_id: page.id,
      page_incident_id: incident!.id,
      status: input.status,
      message: input.message,
      created_at: now,
    });
    // The page's subscribers hear of it, queued with it (lib/notify/subscribers.ts).
    await queuePageIncidentNews(
      tx,
      page,
      {
        incidentId: incident!.id,
        event: input.status === 'resolved' ? 'resolved' : 'opened',
        name: { title: input.title },
        status: input.status,
        message: input.message,
        startedAt: now,
        resolvedAt: input.status === 'resolved' ? now : null,
      },
      `${incident!.id}:opened`,
      now,
    );
    return incident!.id;
  });
  return viewOf(db, page, id, now);
}

type FoundIncident =
  | { kind: 'manual'; resolvedAt: number | null; startedAt: number; title: string }
  | {
      kind: 'monitor';
      resolvedAt: number | null;
      startedAt: number;
      monitorId: string;
      cause: string | null;
    };

/**
 * Which incident `incidentId` names on this page: one of its manual incidents, or a consensus
 * incident of a monitor it lists, shown on the page (ongoing, or resolved after `from`). Anything
 * else, another organization's included, is not found.
 */
async function findPageIncident(
  db: Db,
  page: StatusPage,
  incidentId: string,
  from: number,
): Promise<FoundIncident> {
  const [manual] = await db
    .select({
      resolvedAt: statusPageIncidents.resolved_at,
      startedAt: statusPageIncidents.started_at,
      title: statusPageIncidents.title,
    })
    .from(statusPageIncidents)
    .where(
      and(
        eq(statusPageIncidents.tenant_id, page.tenant_id),
        eq(statusPageIncidents.status_page_id, page.id),
        eq(statusPageIncidents.id, incidentId),
        or(isNull(statusPageIncidents.resolved_at), gt(statusPageIncidents.resolved_at, from)),
      ),
    );
  if (manual) return { kind: 'manual', ...manual };
  const [consensus] = await db
    .select({
      resolvedAt: uptimeIncidents.recovered_at,
      startedAt: uptimeIncidents.down_at,
      monitorId: uptimeIncidents.monitor_id,
      cause: uptimeIncidents.cause,
    })
    .from(uptimeIncidents)
    .where(
      and(
        eq(uptimeIncidents.tenant_id, page.tenant_id),
        eq(uptimeIncidents.id, incidentId),
        or(isNull(uptimeIncidents.recovered_at), gt(uptimeIncidents.recovered_at, from)),
        inArray(
          uptimeIncidents.monitor_id,
          db
            .select({ id: statusPageMonitors.monitor_id })
            .from(statusPageMonitors)
            .where(eq(statusPageMonitors.status_page_id, page.id)),
        ),
      ),
    );
  if (consensus) return { kind: 'monitor', ...consensus };
  throw new NotFoundError(INCIDENT_NOT_FOUND);
}

/** Posts an update on one of the page's incidents; a `resolved` one closes a manual incident. */
export async function postIncidentUpdate(
  db: Db,
  { tenantId, pageId, incidentId }: { tenantId: string; pageId: string; incidentId: string },
  input: IncidentUpdateInput,
  now = Date.now(),
): Promise<PageIncidentView> {
  const page = await findPage(db, { tenantId, id: pageId });
  const incident = await findPageIncident(db, page, incidentId, now - INCIDENT_DAYS * DAY_MS);
  if (incident.kind === 'monitor' && incident.resolvedAt === null && input.status === 'resolved') {
    throw new ConflictError(
      'status: the monitor is still failing; its incident resolves when its checks recover (post monitoring meanwhile)',
    );
  }
  if (incident.kind === 'manual' && incident.resolvedAt !== null && input.status !== 'resolved') {
    throw new ConflictError('status: the incident is resolved; open a new incident for a new problem');
  }
  await db.transaction(async (tx) => {
    const [update] = await tx
      .insert(statusPageIncidentUpdates)
      .values({
        tenant_id: tenantId,
        status_page_id: page.id,
        ...(incident.kind === 'manual'
          ? { page_incident_id: incidentId }
          : { uptime_incident_id: incidentId }),
        status: input.status,
        message: input.message,
        created_at: now,
      })
      .returning({ id: statusPageIncidentUpdates.id });
    const resolves =
      incident.kind === 'manual' && incident.resolvedAt === null && input.status === 'resolved';
    if (resolves) {
      await tx
        .update(statusPageIncidents)
        .set({ resolved_at: now })
        .where(and(eq(statusPageIncidents.tenant_id, tenantId), eq(statusPageIncidents.id, incidentId)));
    }
    await queuePageIncidentNews(
      tx,
      page,
      {
        incidentId,
        event: resolves ? 'resolved' : 'update',
        name:
          incident.kind === 'manual'
            ? { title: incident.title }
            : { monitorId: incident.monitorId, cause: incident.cause },
        status: input.status,
        message: input.message,
        startedAt: incident.startedAt,
        resolvedAt: resolves ? now : incident.resolvedAt,
      },
      `update:${update!.id}`,
      now,
    );
  });
  return viewOf(db, page, incidentId, now);
}
