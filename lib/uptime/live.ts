import { and, eq, isNull } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { uptimeIncidents } from '@/lib/db/schema';
import { findMonitor } from './monitors';
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
  probing: {
    active: boolean;
    pausedBy: 'monitor' | 'app' | null;
    nextRoundAt: number | null;
  };
  regions: { region: Region; probe: RegionProbe | null }[];
  consensus: StoredConsensus | null;
  openIncident: IncidentResource | null;
}

/**
 * GET .../monitors/{monitorId}/live: each region's latest probe (phase timings, certificate
 * expiry), the latest round's consensus, the open incident, and whether the monitor is being
 * probed (paused by its own `enabled`, or stopped with the site's Uptime app).
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
  const pausedBy = monitor.enabled === 0 ? 'monitor' : site.uptime_enabled === 0 ? 'app' : null;
  const probes = storedProbes(monitor);
  return {
    monitor: monitorResource(monitor),
    probing: {
      active: pausedBy === null,
      pausedBy,
      nextRoundAt: pausedBy === null ? monitor.next_probe_at : null,
    },
    regions: REGIONS.map((region) => {
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
    }),
    consensus: storedConsensus(monitor),
    openIncident: open ? incidentResource(open) : null,
  };
}
