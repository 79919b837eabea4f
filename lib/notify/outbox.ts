import type { Db } from '@/lib/db/client';
import { notificationOutbox } from '@/lib/db/schema';
import type { Notification } from './kinds';

/**
 * A notification to queue: its kind (what happened, e.g. `allowance-reached`; the delivery job picks
 * receivers and wording by it) with that kind's payload, and where it belongs.
 */
export type OutboxNotification = Notification & {
  tenantId: string;
  siteId: string | null;
  /** Same key, same notification: a retried producer queues it once. */
  dedupeKey: string;
  now?: number;
};

/**
 * Queues a notification for the delivery job. Producers call this inside their own flow (often in
 * the same transaction as the state change it announces), so a crash cannot lose the notification
 * or send it twice. Resolves to true when this call queued it, false when the key was queued before.
 */
export async function enqueueNotification(db: Db, n: OutboxNotification): Promise<boolean> {
  const now = n.now ?? Date.now();
  const inserted = await db
    .insert(notificationOutbox)
    .values({
      tenant_id: n.tenantId,
      site_id: n.siteId,
      kind: n.kind,
      payload: n.payload,
      dedupe_key: n.dedupeKey,
      next_attempt_at: now,
      created_at: now,
    })
    .onConflictDoNothing({ target: notificationOutbox.dedupe_key })
    .returning({ id: notificationOutbox.id });
  return inserted.length > 0;
}
