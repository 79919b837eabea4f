import type { Principal } from '@/lib/auth/principal';
import { monitorsHeldAtAllowance } from '@/lib/billing/monitors';
import type { Db } from '@/lib/db/client';
import type { Site, UptimeIncident, UptimeMonitor } from '@/lib/db/schema';
import { readSnapshot } from '@/lib/db/snapshot';
import type { EventAlerts } from '@/lib/notify/alerted';
import { KIND_RECEIVERS } from '@/lib/notify/kinds';
import { eventAlerts } from '@/lib/notify/log';
import { resolveReceivers } from '@/lib/notify/receivers';
import { uncountedSpans } from './maintenance';
import { incidentsOverlapping } from './metrics';
import { findMonitor } from './monitors';
import type { PauseReason } from './pauses';
import { type IncidentResource, incidentResource, type MonitorResource, monitorResource } from './resource';
import { HOUR_MS, uptimePct } from './rollup';
import {
  downAlertKey,
  monitorAlertTargets,
  type StoredConsensus,
  type StoredRegionProbe,
  storedConsensus,
  storedProbes,
} from './rounds';
import { REGIONS, type Region } from './types';

/** One region's latest probe as the live endpoint shows it. */
export interface RegionProbe {
  region: Region;
  roundAt: number;
  checkedAt: number;
  ok: boolean;
  statusCode: number | null;
  totalMs: number;
  phases: StoredRegionProbe['phases'];
  tlsCertExpiresAt: number | null;
  cause: StoredRegionProbe['cause'];
  error: string | null;
  attempts: number;
}

export interface MonitorLive {
  monitor: MonitorResource;
  probing: Probing;
  regions: { region: Region; probe: RegionProbe | null }[];
  consensus: StoredConsensus | null;
  openIncident: IncidentResource | null;
}

/** Whether a monitor is being probed, and what holds it when it is not. */
export interface Probing {
  active: boolean;
  /**
   * `monitor`: its own `enabled` is 0; `app`: the site's Uptime app is off; `allowance`: past the
   * organization's monitor allowance with overage off (lib/billing/monitors.ts); null while active.
   */
  pausedBy: PauseReason | null;
  /**
   * The other reasons that hold it, in the same order: a paused monitor on a site whose app is off,
   * or past the allowance, stays stopped when resumed alone. Empty with one reason or none.
   */
  alsoPausedBy: PauseReason[];
  nextRoundAt: number | null;
}

export function probingOf(
  monitor: Pick<UptimeMonitor, 'enabled' | 'next_probe_at'>,
  site: Pick<Site, 'uptime_enabled'>,
  overAllowance: boolean,
): Probing {
  const reasons: PauseReason[] = [];
  if (monitor.enabled === 0) reasons.push('monitor');
  if (site.uptime_enabled === 0) reasons.push('app');
  if (overAllowance) reasons.push('allowance');
  const [pausedBy = null, ...alsoPausedBy] = reasons;
  return {
    active: pausedBy === null,
    pausedBy,
    alsoPausedBy,
    nextRoundAt: pausedBy === null ? monitor.next_probe_at : null,
  };
}

/** Each region's latest probe, in region order (null for a region that has not probed yet). */
export function regionProbesOf(monitor: UptimeMonitor): MonitorLive['regions'] {
  const probes = storedProbes(monitor);
  return REGIONS.map((region) => {
    const p = probes[region];
    return {
      region,
      probe: p
        ? {
            region,
            roundAt: p.roundAt,
            checkedAt: p.checkedAt,
            ok: p.ok,
            statusCode: p.status,
            totalMs: p.totalMs,
            phases: p.phases,
            tlsCertExpiresAt: p.tlsCertExpiresAt,
            cause: p.cause,
            error: p.error,
            attempts: p.attempts,
          }
        : null,
    };
  });
}

/** The uptime windows the monitor page shows, in hours: 24 h, 7 d, 30 d, 90 d. */
export const UPTIME_WINDOW_HOURS = [24, 168, 720, 2160] as const;
export type UptimeWindowHours = (typeof UPTIME_WINDOW_HOURS)[number];

/** One window's incident-based uptime, measured up to the snapshot's `at`. */
export interface UptimeWindow {
  hours: UptimeWindowHours;
  fromMs: number;
  /** Unrounded, as `uptimePct` computes it; null when the monitor was not watched in any of the window. */
  uptimePct: number | null;
  /** Incidents overlapping the window, the ongoing one included. */
  incidents: number;
}

/**
 * The monitor page's one read (issue 24 item 4): the live state, and the uptime windows and the
 * incident list computed from the same rows at the same instant `at`. The page used to ask five
 * endpoints at five moments, and re-read the percentages only when the status changed, so they
 * froze during an incident and two windows over the same life could differ in the last digit.
 */
export interface MonitorSnapshot extends MonitorLive {
  /** The instant everything here is measured at; an ongoing incident counts as down up to it. */
  at: number;
  uptime: UptimeWindow[];
  /** The incidents overlapping the longest window (90 days), oldest first, the ongoing one included. */
  incidents: IncidentResource[];
  alerting: MonitorAlerting;
}

/** Who an outage of this monitor reaches: the monitor page's warning and its banner's "Alerted …" line. */
export interface MonitorAlerting {
  /**
   * How many addresses and webhooks an outage alert would go to now (the site's uptime receivers
   * and the monitor's own), resolved as delivery resolves them: 0 means nobody would be alerted.
   */
  outageReceivers: number;
  /** Whom the open incident's alert actually went to, from its deliveries; null with no open incident. */
  openIncident: EventAlerts | null;
}

/**
 * Who an outage reaches: counted by the resolver delivery uses (lib/notify/receivers.ts) with the
 * payload a down alert would carry, so the page cannot promise an alert that would not go out.
 */
async function alertingOf(
  db: Db,
  monitor: UptimeMonitor,
  openIncidentId: string | null,
): Promise<MonitorAlerting> {
  const receivers = await resolveReceivers(
    db,
    { tenantId: monitor.tenant_id, siteId: monitor.site_id, payload: monitorAlertTargets(monitor) },
    KIND_RECEIVERS['uptime-down'],
  );
  return {
    outageReceivers: receivers.length,
    openIncident: openIncidentId
      ? await eventAlerts(db, { tenantId: monitor.tenant_id, dedupeKey: downAlertKey(openIncidentId) })
      : null,
  };
}

/**
 * GET .../monitors/{monitorId}/live: each region's latest probe (phase timings, certificate
 * expiry), the latest round's consensus, the open incident, whether the monitor is being probed
 * (paused by its own `enabled`, stopped with the site's Uptime app, or held at the allowance), and
 * its uptime over each window with the incidents behind it. One read-only, repeatable-read
 * transaction: the status, the open incident, the list and the percentages all see the same rows.
 */
export async function getMonitorLive(
  db: Db,
  principal: Principal,
  { siteId, monitorId }: { siteId: string; monitorId: string },
  now = Date.now(),
): Promise<MonitorSnapshot> {
  return readSnapshot(db, async (tx) => {
    const { site, monitor } = await findMonitor(tx, principal, { siteId, monitorId });
    const longest = now - Math.max(...UPTIME_WINDOW_HOURS) * HOUR_MS;
    const incidents =
      (await incidentsOverlapping(tx, monitor.tenant_id, [monitor.id], longest, now)).get(monitor.id) ?? [];
    const uncounted =
      (await uncountedSpans(tx, monitor.tenant_id, [monitor.id], longest, now)).get(monitor.id) ?? [];
    const held = await monitorsHeldAtAllowance(tx, monitor.tenant_id);
    const open = incidents.find((i) => i.recovered_at === null);
    const spans = incidents.map((i) => ({ downAt: i.down_at, recoveredAt: i.recovered_at }));
    return {
      ...liveOf(principal, site, monitor, held.has(monitor.id), open),
      at: now,
      uptime: UPTIME_WINDOW_HOURS.map((hours) => {
        const fromMs = now - hours * HOUR_MS;
        return {
          hours,
          fromMs,
          uptimePct: uptimePct(fromMs, now, monitor.created_at, spans, uncounted),
          incidents: incidents.filter((i) => i.recovered_at === null || i.recovered_at > fromMs).length,
        };
      }),
      incidents: incidents.map(incidentResource),
      alerting: await alertingOf(tx, monitor, open?.id ?? null),
    };
  });
}

/**
 * The live answer from what was read: the endpoint's for one monitor, the monitors list's for
 * each (lib/uptime/overview.ts).
 */
export function liveOf(
  principal: Principal,
  site: Pick<Site, 'uptime_enabled'>,
  monitor: UptimeMonitor,
  overAllowance: boolean,
  openIncident: UptimeIncident | undefined,
): MonitorLive {
  return {
    monitor: monitorResource(monitor, principal),
    probing: probingOf(monitor, site, overAllowance),
    regions: regionProbesOf(monitor),
    consensus: storedConsensus(monitor),
    openIncident: openIncident ? incidentResource(openIncident) : null,
  };
}
