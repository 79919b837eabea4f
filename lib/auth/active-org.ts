import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { members, users } from '@/lib/db/schema';

/**
 * The organization a new session starts in: the one the user last made active, while they are still
 * a member of it (a removal, or the organization's deletion, falls back); otherwise their oldest
 * membership. People invited into a client's organization come back to it, as they left it, rather
 * than to their own empty one.
 */
export async function initialActiveOrganization(db: Db, userId: string): Promise<string | null> {
  const [last] = await db
    .select({ organizationId: members.organizationId })
    .from(users)
    .innerJoin(
      members,
      and(eq(members.userId, users.id), eq(members.organizationId, users.lastActiveOrganizationId)),
    )
    .where(eq(users.id, userId))
    .limit(1);
  if (last) return last.organizationId;
  const [oldest] = await db
    .select({ organizationId: members.organizationId })
    .from(members)
    .where(eq(members.userId, userId))
    .orderBy(asc(members.createdAt))
    .limit(1);
  return oldest?.organizationId ?? null;
}

/** Remembers a switch (set-active, a new organization, an accepted invitation) for later sessions. */
export async function rememberActiveOrganization(
  db: Db,
  { userId, organizationId }: { userId: string; organizationId: string },
) {
  await db.update(users).set({ lastActiveOrganizationId: organizationId }).where(eq(users.id, userId));
}
