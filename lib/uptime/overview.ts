import type { Principal } from '@/lib/auth/principal';
import { monitorsHeldAtAllowance } from '@/lib/billing/monitors';
import type { Db } from '@/lib/db/client';
import { getVisibleSite } from '@/lib/sites/access';
import { liveOf, type MonitorLive } from './live';
import { closedHoursOf, incidentsOverlapping } from './metrics';
import { monitorsOfSite } from './monitors';
import { type IncidentResource, incidentResource } from './resource';
import { HOUR_MS, type HourlyBucket } from './rollup';

/** The monitors list's window: the last day's closed hours and incidents. */
export const OVERVIEW_HOURS = 24;

/** One monitor as the list shows it: its live state, and its last day's closed hours and incidents. */
export interface MonitorOverview extends MonitorLive {
  hours: HourlyBucket[];
  events: IncidentResource[];
}

/**
 * A site's monitors, oldest first, each with what its live and 24-hour metrics reads give, in a
 * fixed number of queries whatever the number of monitors (the list page asked the API twice per
 * monitor): the monitors, those held at the allowance, the hours' buckets (stored and pending) and
 * the incidents overlapping the day, an open one among them.
 */
export async function listMonitorOverviews(
  db: Db,
  principal: Principal,
  siteId: string,
  now = Date.now(),
): Promise<MonitorOverview[]> {
  const site = await getVisibleSite(db, principal, siteId);
  const monitors = await monitorsOfSite(db, site);
  if (monitors.length === 0) return [];
  const ids = monitors.map((m) => m.id);
  const fromMs = now - OVERVIEW_HOURS * HOUR_MS;
  const held = await monitorsHeldAtAllowance(db, site.tenant_id);
  const hours = await closedHoursOf(db, site.tenant_id, ids, fromMs, now);
  const incidents = await incidentsOverlapping(db, site.tenant_id, ids, fromMs, now);
  return monitors.map((monitor) => {
    const events = incidents.get(monitor.id) ?? [];
    const open = events.find((i) => i.recovered_at === null);
    return {
      ...liveOf(principal, site, monitor, held.has(monitor.id), open),
      hours: hours.get(monitor.id) ?? [],
      events: events.map(incidentResource),
    };
  });
}
