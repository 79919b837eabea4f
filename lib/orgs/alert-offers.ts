import type { Db } from '@/lib/db/client';
import { alertOffers } from '@/lib/db/schema';

/**
 * Offers a member who just became an owner or admin (an invitation accepted with that role, a
 * promotion) to receive the organization's alerts: the notifications page shows it until they
 * answer (lib/notify/alert-offer.ts). It only offers; nobody is added to a list without their click.
 * A later promotion reopens an answered offer. Here, not in lib/notify, because lib/auth (invitations)
 * and lib/members (promotions) record it, and lib/notify imports lib/auth.
 */
export async function offerAlerts(
  db: Db,
  { tenantId, userId }: { tenantId: string; userId: string },
  now = Date.now(),
): Promise<void> {
  await db
    .insert(alertOffers)
    .values({ tenant_id: tenantId, user_id: userId, offered_at: now, answered_at: null })
    .onConflictDoUpdate({
      target: [alertOffers.tenant_id, alertOffers.user_id],
      set: { offered_at: now, answered_at: null },
    });
}
