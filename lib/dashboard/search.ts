import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { getSearchAnalytics, type SearchAnalyticsReport } from '@/lib/search/analytics';
import { getSearchConnection, type SearchConnectionView } from '@/lib/search/connection';
import { getVisibleSite } from '@/lib/sites/access';

/** The ranges the Search tab offers (`?days=`); the first is the default. */
export const SEARCH_TAB_DAYS = [28, 90] as const;
export type SearchTabDays = (typeof SEARCH_TAB_DAYS)[number];

export function searchTabDays(raw: string | string[] | undefined): SearchTabDays {
  const days = Number(typeof raw === 'string' ? raw : undefined);
  return SEARCH_TAB_DAYS.find((d) => d === days) ?? SEARCH_TAB_DAYS[0];
}

export interface SearchTabView {
  seoEnabled: boolean;
  connection: SearchConnectionView;
  /**
   * The stored analytics when a property is chosen (`connected`, or `error` after it was: the days
   * synced before stay readable); null otherwise.
   */
  analytics: SearchAnalyticsReport | null;
}

/**
 * What the Search tab shows, read with the services behind GET /v1/sites/{id}/search and
 * /search/analytics. Readable by every member who sees the site (the API's connection read is
 * owner/admin because it leads to the controls; the dashboard shows members the same facts, no
 * controls).
 */
export async function searchTabView(
  db: Db,
  principal: Principal,
  siteId: string,
  days: number,
  now = Date.now(),
): Promise<SearchTabView> {
  const site = await getVisibleSite(db, principal, siteId);
  const connection = await getSearchConnection(db, principal, site.id);
  const seoEnabled = site.seo_enabled === 1;
  const hasProperty =
    connection.property !== null && (connection.status === 'connected' || connection.status === 'error');
  return {
    seoEnabled,
    connection,
    analytics: seoEnabled && hasProperty ? await getSearchAnalytics(db, principal, site.id, days, now) : null,
  };
}
