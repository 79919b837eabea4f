import { and, count, desc, eq } from 'drizzle-orm';
import { ORG_LIMIT_KIND, organizationLimitFor } from '@/lib/auth/org-limit';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { limitRequests, members } from '@/lib/db/schema';
import { isUniqueViolation } from '@/lib/db/unique';
import { ConflictError, InvalidError } from '@/lib/errors';

/*
 * Limit-increase requests. The only live kind, `user_orgs`, is about the signed-in account's own
 * organization cap, so any session role may ask; its subject is the user, and the partial unique index
 * limit_requests_one_pending_idx (user_id, kind) where pending is what refuses a second pending
 * request, including two racing ones.
 */

const PENDING_INDEX = 'limit_requests_one_pending_idx';

type LimitRequestRow = typeof limitRequests.$inferSelect;

/** A request to raise a limit, as validated by the caller (POST /v1/me/limit-requests). */
export interface LimitRequestInput {
  kind: typeof ORG_LIMIT_KIND;
  requestedLimit: number;
  reason: string;
}

export type LimitRequestView = ReturnType<typeof toView>;

/** What `organizationQuota` answers. */
export interface OrgQuota {
  limit: number;
  used: number;
  canCreate: boolean;
  latestRequest: LimitRequestView | null;
}

const toView = (row: LimitRequestRow) => ({
  id: row.id,
  kind: row.kind,
  status: row.status,
  currentLimit: row.current_limit,
  requestedLimit: row.requested_limit,
  reason: row.reason,
  createdAt: row.created_at,
  decidedAt: row.decided_at,
});

function requireUser(principal: Principal): string {
  // The pipeline's session-only gate guarantees a user; the check keeps the type honest.
  if (!principal.userId) throw new Error('limit requests need a signed-in user');
  return principal.userId;
}

export async function createLimitRequest(
  db: Db,
  principal: Principal,
  input: LimitRequestInput,
  now = Date.now(),
): Promise<{ request: LimitRequestView }> {
  const userId = requireUser(principal);
  const currentLimit = await organizationLimitFor(db, userId);
  if (input.requestedLimit <= currentLimit) {
    throw new InvalidError('requestedLimit', `must be above your current limit of ${currentLimit}`);
  }
  try {
    const [row] = await db
      .insert(limitRequests)
      .values({
        tenant_id: principal.tenantId,
        user_id: userId,
        kind: input.kind,
        current_limit: currentLimit,
        requested_limit: input.requestedLimit,
        reason: input.reason,
        status: 'pending',
        created_at: now,
      })
      .returning();
    if (!row) throw new Error('limit request insert returned no row');
    return { request: toView(row) };
  } catch (error) {
    if (isUniqueViolation(error, PENDING_INDEX)) {
      throw new ConflictError('a request to raise this limit is already pending: wait for it to be decided');
    }
    throw error;
  }
}

/** The account's organization cap, how much of it is used, and its newest request to raise it. */
export async function organizationQuota(db: Db, principal: Principal): Promise<OrgQuota> {
  const userId = requireUser(principal);
  const [limit, [used], [latest]] = await Promise.all([
    organizationLimitFor(db, userId),
    db.select({ n: count() }).from(members).where(eq(members.userId, userId)),
    db
      .select()
      .from(limitRequests)
      .where(and(eq(limitRequests.user_id, userId), eq(limitRequests.kind, ORG_LIMIT_KIND)))
      .orderBy(desc(limitRequests.created_at), desc(limitRequests.id))
      .limit(1),
  ]);
  const usedCount = used?.n ?? 0;
  return {
    limit,
    used: usedCount,
    canCreate: usedCount < limit,
    latestRequest: latest ? toView(latest) : null,
  };
}
