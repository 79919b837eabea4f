import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { sites } from '@/lib/db/schema';
import { InvalidError } from '@/lib/errors';

/**
 * Refuses (422, naming `field`) any id that is not a site of this organization. Used wherever a caller
 * hands us a site list to grant: a key's scope, a member's allowlist. Returns the ids deduplicated.
 */
export async function assertOrganizationSites(
  db: Db,
  tenantId: string,
  siteIds: string[],
  field = 'siteIds',
): Promise<string[]> {
  const unique = [...new Set(siteIds)];
  if (unique.length === 0) return unique;
  const owned = await db
    .select({ id: sites.id })
    .from(sites)
    .where(and(eq(sites.tenant_id, tenantId), inArray(sites.id, unique)));
  const ownedIds = new Set(owned.map((s) => s.id));
  const foreign = unique.find((id) => !ownedIds.has(id));
  if (foreign) throw new InvalidError(field, `${foreign} is not a site of this organization`);
  return unique;
}
