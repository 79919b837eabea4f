import { config } from '@/lib/config';
import { hostedProber } from './hosted';
import { embeddedProbers, type RegionProber } from './regions';
import { REGIONS, type Region } from './types';

/**
 * The probe-region adapter: the one place that knows where the regions run (architecture.md).
 * Without `UPTIME_PROBE_SECRET`, the four regions probe in this process. With it, each region is a
 * route handler pinned to its own Vercel region (app/api/uptime/regions/<region>/route.ts), which
 * the coordinator calls with signed batches at `UPTIME_REGIONS_URL` (default APP_URL).
 */
export function regionProbers(): RegionProber[] {
  const c = config();
  const secret = c.UPTIME_PROBE_SECRET;
  if (!secret) return embeddedProbers();
  return REGIONS.map((region) => hostedProber(region, { endpoint: regionEndpoint(region), secret }));
}

/** Whether the regions are hosted route handlers (rounds then go out in per-second batches). */
export const hostedRegions = (): boolean => Boolean(config().UPTIME_PROBE_SECRET);

export function regionEndpoint(region: Region): string {
  const c = config();
  return `${c.UPTIME_REGIONS_URL ?? c.appUrl}/api/uptime/regions/${region}`;
}
