import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { canSeeSite, type Principal, visibleSiteIds } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { type Site, sites } from '@/lib/db/schema';
import { isUuid } from '@/lib/db/uuid';
import { siteNotFound } from '@/lib/errors';

/**
 * The one site-visibility rule: the id (lower-cased) of a site the caller may see, or the 404 that
 * answers for a site outside a scoped key or a member's allowlist and for a malformed id alike. The
 * pipeline runs it on a site's route before any permission check, so a 403 never confirms that a
 * hidden site exists; `getVisibleSite` runs it for every other caller (dashboard pages, services).
 */
export function visibleSiteId(principal: Principal, siteId: string): string {
  if (!isUuid(siteId)) throw siteNotFound();
  const id = siteId.toLowerCase();
  if (!canSeeSite(principal, id)) throw siteNotFound();
  return id;
}

/**
 * The site if the caller may see it. Another tenant's site, a site outside a scoped key or outside a
 * member's allowlist, an unknown id and a malformed id all answer the same 404 'site not found', so
 * nothing about other tenants' sites can be learned from the difference.
 */
export async function getVisibleSite(
  db: Db,
  principal: Principal,
  siteId: string,
  options: { forUpdate?: boolean } = {},
): Promise<Site> {
  const id = visibleSiteId(principal, siteId);
  const query = db
    .select()
    .from(sites)
    .where(and(eq(sites.tenant_id, principal.tenantId), eq(sites.id, id)))
    .limit(1);
  // Inside a transaction, `forUpdate` holds the row until commit (read-modify-write of settings).
  const [site] = await (options.forUpdate ? query.for('update') : query);
  if (!site) throw siteNotFound();
  return site;
}

/**
 * For listings: a condition limiting `siteIdColumn` to the caller's visible sites, or undefined when
 * every site of the tenant is visible. Combine it with the tenant filter, never instead of it.
 */
export function visibleSitesCondition(
  principal: Principal,
  siteIdColumn: AnyPgColumn = sites.id,
): SQL | undefined {
  const ids = visibleSiteIds(principal);
  if (ids === null) return undefined;
  // An empty allowlist (a member without grants) sees nothing.
  return ids.length === 0 ? sql`false` : inArray(siteIdColumn, ids);
}

/**
 * A site by organization and id, for the jobs (which act for no principal but still filter on the
 * tenant their event names); undefined when it is gone.
 */
export async function siteOfTenant(
  db: Db,
  { tenantId, siteId }: { tenantId: string; siteId: string },
): Promise<Site | undefined> {
  const [site] = await db
    .select()
    .from(sites)
    .where(and(eq(sites.tenant_id, tenantId), eq(sites.id, siteId)))
    .limit(1);
  return site;
}
