import { and, eq, isNull } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import { monitorsHeldAtAllowance } from '@/lib/billing/monitors';
import type { Db } from '@/lib/db/client';
import { type Site, type UptimeIncident, type UptimeMonitor, uptimeIncidents } from '@/lib/db/schema';
import { findMonitor } from './monitors';
import type { PauseReason } from './pauses';
import { type IncidentResource, incidentResource, type MonitorResource, monitorResource } from './resource';
import { type StoredConsensus, type StoredRegionProbe, storedConsensus, storedProbes } from './rounds';
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

/**
 * GET .../monitors/{monitorId}/live: each region's latest probe (phase timings, certificate
 * expiry), the latest round's consensus, the open incident, and whether the monitor is being
 * probed (paused by its own `enabled`, stopped with the site's Uptime app, or held at the allowance).
 */
export async function getMonitorLive(
  db: Db,
  principal: Principal,
  siteId: string,
  monitorId: string,
): Promise<MonitorLive> {
  const { site, monitor } = await findMonitor(db, principal, siteId, monitorId);
  const [open] = await db
    .select()
    .from(uptimeIncidents)
    .where(
      and(
        eq(uptimeIncidents.tenant_id, monitor.tenant_id),
        eq(uptimeIncidents.monitor_id, monitor.id),
        isNull(uptimeIncidents.recovered_at),
      ),
    )
    .limit(1);
  const held = await monitorsHeldAtAllowance(db, monitor.tenant_id);
  return liveOf(principal, site, monitor, held.has(monitor.id), open);
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
