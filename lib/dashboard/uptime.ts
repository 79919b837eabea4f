import { notFound } from 'next/navigation';
import { cache } from 'react';
import { config } from '@/lib/config';
import { isUuid } from '@/lib/db/uuid';
import { NotFoundError } from '@/lib/errors';
import { getMonitor } from '@/lib/uptime/monitors';

export { probeLocations } from '@/lib/uptime/probers';

/** Uptime monitors per site in the organization's pooled allowance, as configured (ALLOWANCE_MONITORS). */
export const monitorsPerSite = (): number => config().ALLOWANCE_MONITORS;

import { listMonitorOverviews, type MonitorOverview } from '@/lib/uptime/overview';
import type { MonitorResource } from '@/lib/uptime/resource';
import { requireDashboard } from './session';

/**
 * The uptime monitor a dashboard page is about, or the 404 page: a malformed id, another site's
 * monitor and an unknown one look the same, as they do through the API. Cached per request for the
 * page and its metadata.
 */
export const monitorForPage = cache(async (siteId: string, monitorId: string): Promise<MonitorResource> => {
  if (!isUuid(monitorId)) notFound();
  const { db, principal } = await requireDashboard();
  try {
    return await getMonitor(db, principal, { siteId, monitorId });
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
});

/**
 * The Uptime tab's monitors with their live state and last 24 hours, read in one go on the server
 * (the page used to ask the API for each monitor's live state and metrics: two requests a monitor).
 */
export async function monitorOverviewsForPage(siteId: string): Promise<MonitorOverview[]> {
  const { db, principal } = await requireDashboard();
  return listMonitorOverviews(db, principal, siteId);
}
