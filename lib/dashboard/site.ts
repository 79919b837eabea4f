import { and, desc, eq } from 'drizzle-orm';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { runs, type Site } from '@/lib/db/schema';
import { NotFoundError } from '@/lib/errors';
import { getVisibleSite } from '@/lib/sites/access';
import { type RunResource, runResource } from '@/lib/sites/resource';
import { requireDashboard } from './session';

// How the pages show a site (the API's resource) and which months its monthly report offers.
export { defaultReportMonth, reportMonthChoices } from '@/lib/reports/monthly';
export { siteResource } from '@/lib/sites/resource';

/**
 * The site a dashboard page is about, or the 404 page: an invisible site and an unknown one look the
 * same, as they do through the API. Cached per request for the site layout and its pages.
 */
export const siteForPage = cache(async (siteId: string): Promise<Site> => {
  const { db, principal } = await requireDashboard();
  try {
    return await getVisibleSite(db, principal, siteId);
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
});

/** Most recent runs of a visible site, newest first: the site page's run history. */
export async function recentRuns(
  db: Db,
  principal: Principal,
  siteId: string,
  limit = 20,
): Promise<RunResource[]> {
  const site = await getVisibleSite(db, principal, siteId);
  const rows = await db
    .select()
    .from(runs)
    .where(and(eq(runs.tenant_id, principal.tenantId), eq(runs.site_id, site.id)))
    .orderBy(desc(runs.started_at))
    .limit(limit);
  return rows.map(runResource);
}
