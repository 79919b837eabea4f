import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';

/**
 * How long the delivery history is kept: 90 days of events with their deliveries and every attempt
 * (the delivery log's content), like the uptime buckets. Only events that are finished go: resolved
 * (`dispatched`) or refused (`failed`), none of their deliveries still `pending` or `sending`
 * (retries span about two hours, so nothing that old is, but a stuck row is never lost silently).
 * Deleting an event deletes its deliveries and their attempts (foreign keys cascade). A webhook
 * receiver's health row goes with its last delivery, once it is as old.
 *
 * An event's dedupe key goes with it: a producer that queued the same key again after 90 days would
 * send again. None does: keys name one incident, run, certificate threshold or allowance period.
 */
export const DELIVERY_RETENTION_MS = 90 * 24 * 60 * 60_000;

/** Events deleted per statement: short transactions beside the delivery job's claims. */
const PRUNE_BATCH = 500;
/** Statements per run: a backlog (a first run on an old database) is cleared over a few runs. */
const PRUNE_BATCHES = 40;

export async function pruneDeliveryHistory(
  db: Db,
  now: number,
  options: { retentionMs?: number; batchSize?: number } = {},
): Promise<{ events: number; receivers: number }> {
  const cutoff = now - (options.retentionMs ?? DELIVERY_RETENTION_MS);
  const batch = options.batchSize ?? PRUNE_BATCH;
  let events = 0;
  for (let i = 0; i < PRUNE_BATCHES; i++) {
    const deleted = await queryRows<{ id: string }>(
      db,
      sql`delete from notification_outbox where id in (
            select o.id from notification_outbox o
            where o.state <> 'pending' and o.created_at < ${cutoff}
              and not exists (
                select 1 from notification_deliveries d
                where d.event_id = o.id and d.state in ('pending', 'sending'))
            order by o.created_at
            limit ${batch})
          returning id`,
    );
    events += deleted.length;
    if (deleted.length < batch) break;
  }
  // A webhook's health (circuit, lane: ./breaker.ts) goes once nothing was sent to it for as long
  // and none of its deliveries is left: a receiver removed from the settings leaves no row behind.
  const receivers = await queryRows<{ tenant_id: string }>(
    db,
    sql`delete from notification_receivers r
        where r.updated_at < ${cutoff}
          and not exists (select 1 from notification_deliveries d
                          where d.tenant_id = r.tenant_id and d.receiver_key = r.receiver_key)
        returning r.tenant_id`,
  );
  return { events, receivers: receivers.length };
}
