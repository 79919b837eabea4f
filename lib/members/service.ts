import { and, asc, count, eq } from 'drizzle-orm';
import { isAdminRole, type Principal, type Role } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { memberAccess, memberSiteGrants, members, organizations, users } from '@/lib/db/schema';
import { ConflictError, ForbiddenError, NotFoundError } from '@/lib/errors';
import { assertOrganizationSites } from '@/lib/keys/site-scope';
import { offerAlerts } from '@/lib/orgs/alert-offers';

/*
 * Members of one organization and what each may see. better-auth owns the member rows (invitations,
 * sign-in); this module owns role changes, removal and per-site access, and enforces the owner rules
 * itself inside one transaction per change, holding the organization row lock, so two concurrent
 * demotions or removals can never leave an organization without an owner (better-auth's own
 * remove-member checks and deletes in separate statements).
 *
 * Rules:
 * - only an owner may grant the owner role, take it away, or remove an owner (403 otherwise);
 * - the last owner can be neither demoted nor removed (409);
 * - site access (allowlist, canCrawl) is for the `member` role only: owners and admins see every site
 *   and may always crawl, so setting access on them is 409; a promotion drops the member's grants, so
 *   a later demotion starts again from default-deny.
 */

const MEMBER_NOT_FOUND = 'member not found';
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type MemberRow = { id: string; userId: string; role: Role };

/** A member as the organization's owners and admins see them. */
export interface MemberView {
  id: string;
  userId: string;
  email: string;
  name: string;
  role: Role;
  /** A member's allowlist; null for owners and admins, who see every site. */
  siteIds: string[] | null;
  /** Always true for owners and admins. */
  canCrawl: boolean;
  createdAt: number;
}

/** A member's site access, as validated by the caller (PATCH /v1/members/{memberId}/access). */
export interface MemberAccessInput {
  /** The member's whole allowlist, replacing the old one; [] revokes every site. */
  siteIds?: string[];
  canCrawl?: boolean;
}

export async function listMembers(db: Db, tenantId: string): Promise<MemberView[]> {
  const [rows, grants] = await Promise.all([
    db
      .select({
        id: members.id,
        userId: members.userId,
        email: users.email,
        name: users.name,
        role: members.role,
        canCrawl: memberAccess.can_crawl,
        createdAt: members.createdAt,
      })
      .from(members)
      .innerJoin(users, eq(users.id, members.userId))
      .leftJoin(memberAccess, eq(memberAccess.member_id, members.id))
      .where(eq(members.organizationId, tenantId))
      .orderBy(asc(members.createdAt), asc(members.id)),
    db
      .select({ memberId: memberSiteGrants.member_id, siteId: memberSiteGrants.site_id })
      .from(memberSiteGrants)
      .where(eq(memberSiteGrants.tenant_id, tenantId))
      .orderBy(asc(memberSiteGrants.created_at), asc(memberSiteGrants.site_id)),
  ]);
  const grantsByMember = new Map<string, string[]>();
  for (const g of grants)
    grantsByMember.set(g.memberId, [...(grantsByMember.get(g.memberId) ?? []), g.siteId]);
  return rows.map((row) => {
    const role = row.role as Role;
    const privileged = isAdminRole(role);
    return {
      id: row.id,
      userId: row.userId,
      email: row.email,
      name: row.name,
      role,
      siteIds: privileged ? null : (grantsByMember.get(row.id) ?? []),
      canCrawl: privileged || row.canCrawl === 1,
      createdAt: row.createdAt.getTime(),
    };
  });
}

/** Serializes every owner-affecting change of one organization. */
async function lockOrganization(tx: Tx, tenantId: string): Promise<void> {
  await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, tenantId))
    .for('update');
}

async function findMember(tx: Tx, tenantId: string, memberId: string): Promise<MemberRow> {
  const [row] = await tx
    .select({ id: members.id, userId: members.userId, role: members.role })
    .from(members)
    .where(and(eq(members.id, memberId), eq(members.organizationId, tenantId)));
  if (!row) throw new NotFoundError(MEMBER_NOT_FOUND);
  return { id: row.id, userId: row.userId, role: row.role as Role };
}

/**
 * The caller's role as of the lock, not as of sign-in: a caller demoted a moment ago by a concurrent
 * request must not still act as an owner.
 */
async function lockedActorRole(tx: Tx, principal: Principal): Promise<Role> {
  const [row] = principal.memberId
    ? await tx
        .select({ role: members.role })
        .from(members)
        .where(and(eq(members.id, principal.memberId), eq(members.organizationId, principal.tenantId)))
    : [];
  const role = row?.role as Role | undefined;
  if (!role || !isAdminRole(role)) throw new ForbiddenError('only owners and admins can do this');
  return role;
}

async function ownerCount(tx: Tx, tenantId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(members)
    .where(and(eq(members.organizationId, tenantId), eq(members.role, 'owner')));
  return row?.n ?? 0;
}

async function dropSiteAccess(tx: Tx, tenantId: string, memberId: string): Promise<void> {
  await tx
    .delete(memberSiteGrants)
    .where(and(eq(memberSiteGrants.member_id, memberId), eq(memberSiteGrants.tenant_id, tenantId)));
  await tx
    .delete(memberAccess)
    .where(and(eq(memberAccess.member_id, memberId), eq(memberAccess.tenant_id, tenantId)));
}

export async function changeMemberRole(
  db: Db,
  principal: Principal,
  memberId: string,
  role: Role,
): Promise<MemberView> {
  await db.transaction(async (tx) => {
    await lockOrganization(tx, principal.tenantId);
    const actorRole = await lockedActorRole(tx, principal);
    const target = await findMember(tx, principal.tenantId, memberId);
    if (target.role === role) return;
    if ((target.role === 'owner' || role === 'owner') && actorRole !== 'owner') {
      throw new ForbiddenError('only an owner can grant or take away the owner role');
    }
    if (target.role === 'owner' && (await ownerCount(tx, principal.tenantId)) <= 1) {
      throw new ConflictError('the last owner cannot be demoted: make another member an owner first');
    }
    await tx
      .update(members)
      .set({ role })
      .where(and(eq(members.id, target.id), eq(members.organizationId, principal.tenantId)));
    if (isAdminRole(role) && !isAdminRole(target.role)) {
      await dropSiteAccess(tx, principal.tenantId, target.id);
    }
    // A new owner or admin is offered the organization's alerts (not added: they choose).
    if (isAdminRole(role)) await offerAlerts(tx, { tenantId: principal.tenantId, userId: target.userId });
  });
  const view = (await listMembers(db, principal.tenantId)).find((m) => m.id === memberId);
  if (!view) throw new NotFoundError(MEMBER_NOT_FOUND);
  return view;
}

export async function setMemberAccess(
  db: Db,
  { tenantId, memberId }: { tenantId: string; memberId: string },
  input: MemberAccessInput,
  now = Date.now(),
): Promise<{ ok: true }> {
  await db.transaction(async (tx) => {
    // The member row lock orders concurrent access edits (and a concurrent removal) of this member.
    const [target] = await tx
      .select({ id: members.id, role: members.role })
      .from(members)
      .where(and(eq(members.id, memberId), eq(members.organizationId, tenantId)))
      .for('update');
    if (!target) throw new NotFoundError(MEMBER_NOT_FOUND);
    if (isAdminRole(target.role as Role)) {
      throw new ConflictError(
        `this member is an ${target.role}: owners and admins see every site and may always crawl`,
      );
    }
    if (input.siteIds !== undefined) {
      const siteIds = await assertOrganizationSites(tx, tenantId, input.siteIds);
      await tx
        .delete(memberSiteGrants)
        .where(and(eq(memberSiteGrants.member_id, memberId), eq(memberSiteGrants.tenant_id, tenantId)));
      if (siteIds.length > 0) {
        await tx.insert(memberSiteGrants).values(
          siteIds.map((site_id) => ({
            member_id: memberId,
            site_id,
            tenant_id: tenantId,
            created_at: now,
          })),
        );
      }
    }
    if (input.canCrawl !== undefined) {
      const can_crawl = input.canCrawl ? 1 : 0;
      await tx
        .insert(memberAccess)
        .values({ member_id: memberId, tenant_id: tenantId, can_crawl, updated_at: now })
        .onConflictDoUpdate({ target: memberAccess.member_id, set: { can_crawl, updated_at: now } });
    }
  });
  return { ok: true };
}

export async function removeMember(
  db: Db,
  principal: Principal,
  memberId: string,
): Promise<{ removed: true }> {
  await db.transaction(async (tx) => {
    await lockOrganization(tx, principal.tenantId);
    const actorRole = await lockedActorRole(tx, principal);
    const target = await findMember(tx, principal.tenantId, memberId);
    if (target.role === 'owner') {
      if (actorRole !== 'owner') throw new ForbiddenError('only an owner can remove an owner');
      if ((await ownerCount(tx, principal.tenantId)) <= 1) {
        throw new ConflictError('the last owner cannot be removed: make another member an owner first');
      }
    }
    // Grants and crawl permission go with the member row (foreign keys cascade); delete them
    // explicitly anyway so the removal does not depend on the cascade being declared.
    await dropSiteAccess(tx, principal.tenantId, target.id);
    await tx
      .delete(members)
      .where(and(eq(members.id, target.id), eq(members.organizationId, principal.tenantId)));
  });
  return { removed: true };
}
