import { and, eq } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { apiKeys, memberAccess, memberSiteGrants, members } from '@/lib/db/schema';
import { ForbiddenError, UnauthenticatedError } from '@/lib/errors';
import { authFor } from './auth';
import { hashKeySecret, looksLikeKey } from './key-secret';

export type Role = 'owner' | 'admin' | 'member';

/** The role rule: owners and admins run the organization; members see and do what they are granted. */
export const isAdminRole = (role: Role | undefined): boolean => role === 'owner' || role === 'admin';

/** Who is calling, for which tenant, and what they may touch. */
export type Principal = {
  tenantId: string;
  via: 'session' | 'key';
  userId?: string;
  memberId?: string;
  role?: Role;
  keyId?: string;
  /** The dashboard session's id (sessions only): what a value bound to one sign-in checks against. */
  sessionId?: string;
  /** 'all' or the explicit allowlist (a member's grants, a scoped key's sites). */
  siteIds: 'all' | string[];
  canCrawl: boolean;
};

const INVALID_KEY = 'invalid api key: it is unknown, revoked or expired';
// last_used_at is a hint, not an audit log: write it at most once a minute per key.
const LAST_USED_RESOLUTION_MS = 60_000;

export async function principalFromKey(db: Db, secret: string, now = Date.now()): Promise<Principal> {
  if (!looksLikeKey(secret)) throw new UnauthenticatedError(INVALID_KEY);
  const [key] = await db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.secret_hash, hashKeySecret(secret)))
    .limit(1);
  if (!key || key.revoked_at !== null || (key.expires_at !== null && key.expires_at <= now)) {
    throw new UnauthenticatedError(INVALID_KEY);
  }
  if (key.last_used_at === null || now - key.last_used_at > LAST_USED_RESOLUTION_MS) {
    await db.update(apiKeys).set({ last_used_at: now }).where(eq(apiKeys.id, key.id));
  }
  return {
    tenantId: key.tenant_id,
    via: 'key',
    keyId: key.id,
    siteIds: key.site_ids ?? 'all',
    canCrawl: true,
  };
}

export async function principalFromSession(db: Db, headers: Headers): Promise<Principal | null> {
  const session = await authFor(db).api.getSession({ headers });
  return session ? principalOfSession(db, session) : null;
}

/** What a principal needs of a session better-auth has already resolved. */
export type ResolvedSession = {
  session: { id?: string; activeOrganizationId?: string | null };
  user: { id: string };
};

/** The principal of a resolved session, for a caller that needs the session itself too (the dashboard). */
export async function principalOfSession(db: Db, session: ResolvedSession): Promise<Principal> {
  const tenantId = session.session.activeOrganizationId;
  if (!tenantId)
    throw new ForbiddenError(
      'no active organization: choose one in the dashboard or with /api/auth/organization/set-active',
    );
  const [member] = await db
    .select({ id: members.id, role: members.role, canCrawl: memberAccess.can_crawl })
    .from(members)
    .leftJoin(memberAccess, eq(memberAccess.member_id, members.id))
    .where(and(eq(members.organizationId, tenantId), eq(members.userId, session.user.id)))
    .limit(1);
  if (!member) throw new ForbiddenError('you are no longer a member of the active organization');
  const role = member.role as Role;
  const privileged = isAdminRole(role);
  let siteIds: Principal['siteIds'] = 'all';
  if (!privileged) {
    const grants = await db
      .select({ siteId: memberSiteGrants.site_id })
      .from(memberSiteGrants)
      .where(and(eq(memberSiteGrants.tenant_id, tenantId), eq(memberSiteGrants.member_id, member.id)));
    siteIds = grants.map((g) => g.siteId);
  }
  return {
    tenantId,
    via: 'session',
    userId: session.user.id,
    ...(session.session.id ? { sessionId: session.session.id } : {}),
    memberId: member.id,
    role,
    siteIds,
    canCrawl: privileged || member.canCrawl === 1,
  };
}

/** Credential, then principal. A present-but-bad credential is a 401 naming which one failed. */
export async function resolvePrincipal(db: Db, headers: Headers): Promise<Principal> {
  const key = headers.get('x-api-key');
  if (key !== null) return principalFromKey(db, key.trim());
  const principal = await principalFromSession(db, headers);
  if (principal) return principal;
  if (headers.get('authorization') || /better-auth\.session_token=/.test(headers.get('cookie') ?? '')) {
    throw new UnauthenticatedError('invalid or expired session: sign in again');
  }
  throw new UnauthenticatedError(
    'missing credentials: send an x-api-key header or a session (Authorization: Bearer)',
  );
}

export const isPrivileged = (p: Principal) => p.via === 'key' || isAdminRole(p.role);

/** SQL-side helper for listing queries: the caller's visible site ids, or null when all are visible. */
export function visibleSiteIds(p: Principal): string[] | null {
  return p.siteIds === 'all' ? null : p.siteIds;
}

export function canSeeSite(p: Principal, siteId: string): boolean {
  return p.siteIds === 'all' || p.siteIds.includes(siteId);
}
