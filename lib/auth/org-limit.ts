import { and, count, desc, eq } from 'drizzle-orm';
import { config } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { limitRequests, members } from '@/lib/db/schema';

export const ORG_LIMIT_KIND = 'user_orgs';

/** The account's organization cap: the configured default, raised by an approved limit request. */
export async function organizationLimitFor(db: Db, userId: string): Promise<number> {
  const [approved] = await db
    .select({ limit: limitRequests.requested_limit })
    .from(limitRequests)
    .where(
      and(
        eq(limitRequests.user_id, userId),
        eq(limitRequests.kind, ORG_LIMIT_KIND),
        eq(limitRequests.status, 'approved'),
      ),
    )
    .orderBy(desc(limitRequests.requested_limit))
    .limit(1);
  return Math.max(config().ORGANIZATIONS_PER_ACCOUNT, approved?.limit ?? 0);
}

/**
 * Whether the account already belongs to as many organizations as it may. The cap counts
 * memberships, however they came about: creating an organization and accepting an invitation both
 * check it.
 */
export async function atOrganizationLimit(db: Db, userId: string): Promise<boolean> {
  const [[row], limit] = await Promise.all([
    db.select({ n: count() }).from(members).where(eq(members.userId, userId)),
    organizationLimitFor(db, userId),
  ]);
  return (row?.n ?? 0) >= limit;
}
