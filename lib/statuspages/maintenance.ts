import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import {
  maintenanceWindowMonitors,
  maintenanceWindows,
  statusPageMonitors,
  uptimeMonitors,
} from '@/lib/db/schema';
import { windowsAhead } from '@/lib/uptime/maintenance';
import { clockLabel, dayLabel, durationLabel, escapeXml as e, rfc3339, timeTag } from './markup';
import type { PublicMonitor, PublicStatus } from './public';

/*
 * Maintenance on a public status page (issue 26 item 3): the windows under way or scheduled that
 * cover a listed monitor, announced ahead of time in every rendition (the page, summary.json,
 * feed.atom), naming only the listed monitors they cover. A listed monitor inside a window under
 * way shows "Under maintenance" instead of its probed status, which goes on being measured; its
 * time counts neither as up nor as down in the bars (lib/uptime/maintenance.ts).
 */

export interface PublicMaintenance {
  /** The window's id: the Atom entry's, and the page's anchor. */
  id: string;
  title: string;
  startsAt: number;
  endsAt: number;
  /** `active`: under way now; `upcoming`: scheduled. */
  state: 'active' | 'upcoming';
  /** When it was scheduled or last changed (epoch ms): the feed entry's date. */
  announcedAt: number;
  /** The listed monitors it covers, by position and name, in page order. */
  monitors: { position: number; name: string }[];
}

/** The windows ahead covering the page's monitors (`listed`: its monitors with their place on the page). */
export async function pageMaintenance(
  db: Db,
  tenantId: string,
  listed: readonly { id: string; position: number; name: string }[],
  now: number,
): Promise<PublicMaintenance[]> {
  const windows = await windowsAhead(
    db,
    tenantId,
    listed.map((m) => m.id),
    now,
  );
  return windows.map((w) => ({
    id: w.id,
    title: w.title,
    startsAt: w.startsAt,
    endsAt: w.endsAt,
    state: w.startsAt <= now ? 'active' : 'upcoming',
    announcedAt: w.updatedAt,
    monitors: listed
      .filter((m) => w.monitorIds.includes(m.id))
      .map((m) => ({ position: m.position, name: m.name })),
  }));
}

/** Listed monitors inside a window under way show so instead of their probed status (paused ones stay paused). */
export function underMaintenance(monitors: PublicMonitor[], maintenance: readonly PublicMaintenance[]): void {
  const covered = new Set(
    maintenance.filter((w) => w.state === 'active').flatMap((w) => w.monitors.map((m) => m.position)),
  );
  for (const monitor of monitors) {
    if (covered.has(monitor.position) && monitor.status !== 'paused') monitor.status = 'maintenance';
  }
}

/**
 * The page fingerprint's part for maintenance (lib/statuspages/fingerprint.ts; `p` is the page
 * row): each window covering a listed monitor that is not over or ended within `recentFrom` (its
 * time is left out of the bars), with its last edit and whether it has begun and ended by `now`,
 * so the page changes when a window is scheduled, edited, deleted, begins or ends.
 */
export function maintenanceFingerprint(now: number, recentFrom: number): SQL {
  return sql`(select string_agg(concat_ws(':', w.id, w.updated_at, w.starts_at <= ${now}::bigint,
        w.ends_at <= ${now}::bigint), ',' order by w.id)
      from ${maintenanceWindows} w
     where w.tenant_id = p.tenant_id and w.ends_at > ${recentFrom}::bigint
       and exists (select 1 from ${statusPageMonitors} l join ${uptimeMonitors} m on m.id = l.monitor_id
         where l.status_page_id = p.id and m.site_id = w.site_id
           and (w.all_monitors = 1 or exists (select 1 from ${maintenanceWindowMonitors} wm
             where wm.window_id = w.id and wm.monitor_id = m.id))))`;
}

/** Styles of the maintenance section and states, appended to the page's one style sheet. */
export const MAINTENANCE_STYLE = `
.windows{list-style:none;margin:0;padding:0}
.window{background:var(--card);border:1px solid var(--line);border-left:.5rem solid var(--maintbar);border-radius:.75rem;
padding:.75rem 1.25rem;margin-bottom:.75rem}
.window h3{margin:0;font-size:1rem;overflow-wrap:anywhere}.window p{margin:.25rem 0 0;color:var(--muted);font-size:.875rem}
.window .when{color:var(--maint);font-weight:600}
.state.maintenance{color:var(--maint)}.overall.maintenance{border-left-color:var(--maintbar)}
:root{--maint:#1d4ed8;--maintbar:#3b82f6}
@media (prefers-color-scheme:dark){:root{--maint:#93c5fd;--maintbar:#3b82f6}}
`;

function span(w: PublicMaintenance): string {
  return `${timeTag(w.startsAt)} to ${timeTag(w.endsAt, w.startsAt)} (${e(durationLabel(w.endsAt - w.startsAt))})`;
}

/** The page's Maintenance section: windows under way first, then scheduled ones; nothing when there is none. */
export function maintenanceSection(status: PublicStatus): string {
  if (status.maintenance.length === 0) return '';
  const items = status.maintenance.map((w) => {
    const when = w.state === 'active' ? 'Under way' : 'Scheduled';
    const affects = w.monitors.map((m) => m.name).join(', ');
    return `<li class="window ${w.state}" id="maintenance-${e(w.id)}"><h3>${e(w.title)}</h3>
<p><span class="when">${when}</span> · ${span(w)}</p><p>${e(`Affects ${affects}. Checks go on; failures during the window are not counted as downtime.`)}</p></li>`;
  });
  return `<section aria-labelledby="maintenance-heading"><h2 id="maintenance-heading">Maintenance</h2>
<ul class="windows">${items.join('')}</ul></section>`;
}

/** When each window last changed as the feed sees it: its announcement, or its start once under way. */
const entryUpdated = (w: PublicMaintenance) =>
  w.state === 'active' ? Math.max(w.startsAt, w.announcedAt) : w.announcedAt;

/** The latest change among the page's windows (the feed's `updated`); 0 without any. */
export function maintenanceUpdated(status: PublicStatus): number {
  return Math.max(0, ...status.maintenance.map(entryUpdated));
}

/** An Atom entry per window ahead, its id the window's, so a start shows as an update of the announcement. */
export function maintenanceEntries(status: PublicStatus): string[] {
  return status.maintenance.map((w) => {
    const state = w.state === 'active' ? 'under way' : 'scheduled';
    const summary = `${w.title}: ${dayLabel(w.startsAt)}, ${clockLabel(w.startsAt)} to ${dayLabel(w.endsAt)}, ${clockLabel(w.endsAt)}. Affects ${w.monitors.map((m) => m.name).join(', ')}.`;
    return `<entry>
<id>urn:uuid:${e(w.id)}</id>
<title>${e(`Maintenance (${state}): ${w.title}`)}</title>
<updated>${rfc3339(entryUpdated(w))}</updated>
<published>${rfc3339(w.announcedAt)}</published>
<link rel="alternate" type="text/html" href="${e(`${status.page.url}#maintenance-${w.id}`)}"/>
<summary>${e(summary)}</summary>
</entry>`;
  });
}
