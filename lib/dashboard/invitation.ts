import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { invitations, organizations, users } from '@/lib/db/schema';
import { isUuid } from '@/lib/db/uuid';

export type InvitationPreview = {
  id: string;
  email: string;
  organizationId: string;
  organizationName: string;
  role: string;
  inviterEmail: string;
  /**
   * pending, accepted, rejected, canceled, expired (pending past its deadline), or replaced
   * (cancelled because the organization invited the same address again: the newer email's link is
   * the one that works).
   */
  status: string;
};

/**
 * What the invitation page shows before anyone signs in: the id is an unguessable UUID delivered
 * only in the invitation email, so its holder may see whom it invites and to what. Accepting still
 * goes through better-auth, which checks the signed-in address matches.
 */
export async function invitationPreview(
  db: Db,
  id: string,
  now = Date.now(),
): Promise<InvitationPreview | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select({
      id: invitations.id,
      email: invitations.email,
      role: invitations.role,
      status: invitations.status,
      expiresAt: invitations.expiresAt,
      createdAt: invitations.createdAt,
      organizationId: organizations.id,
      organizationName: organizations.name,
      inviterEmail: users.email,
    })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .innerJoin(users, eq(users.id, invitations.inviterId))
    .where(eq(invitations.id, id.toLowerCase()))
    .limit(1);
  if (!row) return null;
  const expired = row.status === 'pending' && row.expiresAt.getTime() <= now;
  const replaced = row.status === 'canceled' && (await hasNewerInvitation(db, row));
  return {
    id: row.id,
    email: row.email,
    organizationId: row.organizationId,
    organizationName: row.organizationName,
    role: row.role ?? 'member',
    inviterEmail: row.inviterEmail,
    status: expired ? 'expired' : replaced ? 'replaced' : row.status,
  };
}

/** Whether the organization invited the same address again after this invitation. */
async function hasNewerInvitation(
  db: Db,
  invitation: { organizationId: string; email: string; createdAt: Date },
): Promise<boolean> {
  const [newer] = await db
    .select({ id: invitations.id })
    .from(invitations)
    .where(
      and(
        eq(invitations.organizationId, invitation.organizationId),
        eq(sql`lower(${invitations.email})`, invitation.email.toLowerCase()),
        gt(invitations.createdAt, invitation.createdAt),
      ),
    )
    .limit(1);
  return newer !== undefined;
}
