import { and, count, eq, ne, sql } from 'drizzle-orm';
import { includedSites, overageState } from '@/lib/billing/settings';
import type { Db } from '@/lib/db/client';
import { sites } from '@/lib/db/schema';
import { ConflictError, ForbiddenError } from '@/lib/errors';

/** The spec's site list quota object. */
export type SiteQuota = { count: number; included: number; overageEnabled: boolean };

export async function getSiteQuota(db: Db, tenantId: string): Promise<SiteQuota> {
  const [row] = await db.select({ n: count() }).from(sites).where(eq(sites.tenant_id, tenantId));
  return {
    count: row?.n ?? 0,
    included: includedSites(),
    overageEnabled: (await overageState(db, tenantId)).enabled,
  };
}

// Advisory lock namespace for "site slots of one tenant" (two-int form, so it cannot collide with
// single-bigint locks such as the test template's).
const SITE_SLOT_LOCK = 7_419_100;

/**
 * Inside a transaction: waits for any other registration or root-URL change of the same tenant to
 * commit. Held until commit, so the checks below see the other transaction's row. Taking it again in
 * the same transaction returns at once.
 */
export async function lockTenantSites(tx: Db, tenantId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${SITE_SLOT_LOCK}, hashtext(${tenantId}))`);
}

/**
 * Inside a transaction holding `lockTenantSites`: refuses a root URL another site of the tenant
 * already has (the stored, normalized form), naming that site. Two rows for one site would crawl it
 * twice and bill two slots.
 */
export async function refuseDuplicateRootUrl(
  tx: Db,
  { tenantId, rootUrl, exceptSiteId }: { tenantId: string; rootUrl: string; exceptSiteId?: string },
): Promise<void> {
  const [existing] = await tx
    .select({ id: sites.id })
    .from(sites)
    .where(
      and(
        eq(sites.tenant_id, tenantId),
        eq(sites.root_url, rootUrl),
        exceptSiteId ? ne(sites.id, exceptSiteId) : undefined,
      ),
    )
    .limit(1);
  if (existing) {
    throw new ConflictError(`rootUrl: ${rootUrl} is already registered as site ${existing.id}`);
  }
}

/**
 * Inside a transaction: takes `lockTenantSites`, then refuses when the included site count is used up
 * with overage off. Holding the lock until commit makes the cap exact under concurrent POSTs: the
 * second one counts the first one's row.
 */
export async function claimSiteSlot(tx: Db, tenantId: string): Promise<void> {
  await lockTenantSites(tx, tenantId);
  const quota = await getSiteQuota(tx, tenantId);
  if (quota.count >= quota.included && !quota.overageEnabled) {
    throw new ForbiddenError(
      `included site count used up: ${quota.count} of ${quota.included} sites registered and overage billing is off; turn overage on (PATCH /v1/billing) or delete a site`,
    );
  }
}
