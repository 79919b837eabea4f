import { and, eq, isNull } from 'drizzle-orm';
import { isAdminRole, type Role } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { alertOffers, members } from '@/lib/db/schema';
import { ConflictError } from '@/lib/errors';
import { MAX_RECIPIENTS } from './limits';
import { type NotificationSettings, orgSettings, type Recipient, updateOrgSettings } from './settings';

/**
 * The offer a new owner or admin gets to receive alerts (recorded by lib/orgs/alert-offers.ts when
 * they join with that role or are promoted): "Alert me" adds them to the organization's uptime and
 * performance recipients, the lists a new organization's first owner starts in; "Not now" closes it.
 * Either way it is not shown again until a later promotion.
 */

/** The lists "Alert me" adds the member to. */
export const OFFERED_LISTS = ['uptimeRecipients', 'perfAlertRecipients'] as const;

export interface AlertOfferView {
  offeredAt: number;
}

const isUser = (userId: string) => (r: Recipient) => r.kind === 'user' && r.userId === userId;

/**
 * The member's open offer, or null: none recorded, already answered, no longer an owner or admin,
 * or already receiving every offered kind (someone ticked them meanwhile).
 */
export async function alertOfferFor(
  db: Db,
  { tenantId, userId }: { tenantId: string; userId: string },
): Promise<AlertOfferView | null> {
  const [row] = await db
    .select({ offeredAt: alertOffers.offered_at, role: members.role })
    .from(alertOffers)
    .innerJoin(
      members,
      and(eq(members.organizationId, alertOffers.tenant_id), eq(members.userId, alertOffers.user_id)),
    )
    .where(
      and(
        eq(alertOffers.tenant_id, tenantId),
        eq(alertOffers.user_id, userId),
        isNull(alertOffers.answered_at),
      ),
    )
    .limit(1);
  if (!row || !isAdminRole(row.role as Role)) return null;
  const settings = await orgSettings(db, tenantId);
  if (OFFERED_LISTS.every((list) => settings[list].some(isUser(userId)))) return null;
  return { offeredAt: row.offeredAt };
}

/**
 * POST /v1/notifications/alert-offer: `accept` adds the member to the offered lists (where they are
 * not yet), then the offer is closed. Accepting with no offer open still adds them: it is what the
 * button says. A full list is a 409 naming it, and nothing changes.
 */
export async function answerAlertOffer(
  db: Db,
  { tenantId, userId }: { tenantId: string; userId: string },
  accept: boolean,
  now = Date.now(),
): Promise<{ settings: NotificationSettings }> {
  let settings = await orgSettings(db, tenantId);
  if (accept) {
    const me: Recipient = { kind: 'user', userId };
    const change: Partial<Record<(typeof OFFERED_LISTS)[number], Recipient[]>> = {};
    for (const list of OFFERED_LISTS) {
      if (settings[list].some(isUser(userId))) continue;
      if (settings[list].length >= MAX_RECIPIENTS) {
        throw new ConflictError(
          `${list} already holds ${MAX_RECIPIENTS} recipients, the most a list may: remove one in Notifications first`,
        );
      }
      change[list] = [...settings[list], me];
    }
    if (Object.keys(change).length > 0) settings = await updateOrgSettings(db, tenantId, change, now);
  }
  await db
    .update(alertOffers)
    .set({ answered_at: now })
    .where(
      and(
        eq(alertOffers.tenant_id, tenantId),
        eq(alertOffers.user_id, userId),
        isNull(alertOffers.answered_at),
      ),
    );
  return { settings };
}
