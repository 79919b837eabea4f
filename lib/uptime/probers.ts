import { type Config, config } from '@/lib/config';
import { hostedProber } from './hosted';
import { embeddedProbers, type RegionProber } from './regions';
import { type ProbedFrom, REGIONS, type Region } from './types';

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
  return REGIONS.map((region) =>
    hostedProber(region, {
      endpoint: regionEndpoint(region, c),
      secret,
      protectionBypass: c.VERCEL_AUTOMATION_BYPASS_SECRET,
    }),
  );
}

/**
 * Where the probes run, the one answer every page, mail and webhook payload gives: the hosted
 * regions when they are configured (then a region's name is where its probe ran), else this server,
 * one location, however many probes it fires per round.
 */
export const probeLocations = (c: Config = config()): ProbedFrom =>
  c.UPTIME_PROBE_SECRET ? 'regions' : 'server';

/** Whether the regions are hosted route handlers (rounds then go out in per-second batches). */
export const hostedRegions = (): boolean => probeLocations() === 'regions';

/** A region route's URL: under UPTIME_REGIONS_URL, else the app's own (on Vercel, the deployment's). */
export function regionEndpoint(region: Region, c: Config = config()): string {
  return `${c.UPTIME_REGIONS_URL ?? c.appUrl}/api/uptime/regions/${region}`;
}
