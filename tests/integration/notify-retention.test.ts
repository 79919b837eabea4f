import { InngestTestEngine } from '@inngest/test';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifyPruneFunction } from '@/jobs/functions/notify';
import type { Db } from '@/lib/db/client';
import {
  notificationAttempts,
  notificationDeliveries,
  notificationOutbox,
  notificationReceivers,
} from '@/lib/db/schema';
import { DELIVERY_RETENTION_MS } from '@/lib/notify/retention';
import { useTestDatabase } from '../support/db';

/*
 * The delivery history's retention: the hourly prune job deletes events older than 90 days with their
 * deliveries and attempts, and keeps anything newer, still pending, or with a delivery not finished.
 */

let db: Db;
let teardown: () => Promise<void>;
const DAY = 24 * 60 * 60_000;
const NOW = Date.UTC(2026, 10, 24, 4, 41);
const TENANT = 'retention-tenant';

let made = 0;
/** One event `ageDays` old with one webhook delivery in `deliveryState` and its attempt. */
async function eventWith(
  ageDays: number,
  eventState: 'pending' | 'dispatched' | 'failed',
  deliveryState: 'pending' | 'sending' | 'sent' | 'failed' | 'cancelled' | null,
) {
  const at = NOW - ageDays * DAY;
  const n = ++made;
  const [event] = await db
    .insert(notificationOutbox)
    .values({
      tenant_id: TENANT,
      site_id: null,
      kind: 'allowance-reached',
      payload: {},
      dedupe_key: `retention:${n}`,
      state: eventState,
      next_attempt_at: at,
      created_at: at,
    })
    .returning({ id: notificationOutbox.id });
  if (deliveryState) {
    const [delivery] = await db
      .insert(notificationDeliveries)
      .values({
        tenant_id: TENANT,
        event_id: event!.id,
        kind: 'allowance-reached',
        channel: 'email',
        receiver_key: `email:r${n}@retention.test`,
        target: `r${n}@retention.test`,
        idempotency_key: `msg_retention_${n}`,
        state: deliveryState,
        attempts: 1,
        created_at: at,
        updated_at: at,
      })
      .returning({ id: notificationDeliveries.id });
    await db
      .insert(notificationAttempts)
      .values({ delivery_id: delivery!.id, tenant_id: TENANT, attempt: 1, started_at: at });
  }
  return event!.id;
}

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
});

afterAll(async () => {
  await teardown();
});

describe('notification delivery retention', () => {
  it('the hourly job deletes finished events older than 90 days with their deliveries and attempts', async () => {
    expect(DELIVERY_RETENTION_MS).toBe(90 * DAY);
    const old = [
      await eventWith(91, 'dispatched', 'sent'),
      await eventWith(120, 'dispatched', 'failed'),
      await eventWith(95, 'dispatched', 'cancelled'),
      await eventWith(200, 'failed', null),
      await eventWith(100, 'dispatched', null),
    ];
    const kept = [
      await eventWith(89, 'dispatched', 'sent'),
      await eventWith(1, 'dispatched', 'failed'),
      // Old but not finished: nothing that may still be sent is lost.
      await eventWith(150, 'pending', null),
      await eventWith(150, 'dispatched', 'pending'),
      await eventWith(150, 'dispatched', 'sending'),
    ];

    // Webhook health rows: one not sent to for 91 days with no delivery left goes; one as old whose
    // delivery is kept, and a recent one, stay.
    const receiver = (key: string, ageDays: number) => ({
      tenant_id: TENANT,
      receiver_key: key,
      channel: 'http' as const,
      label: 'https://hooks.retention.test/…',
      updated_at: NOW - ageDays * DAY,
    });
    const [keptDelivery] = await db
      .select({ key: notificationDeliveries.receiver_key })
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.event_id, kept[0]!));
    await db
      .insert(notificationReceivers)
      .values([
        receiver('webhook:http:gone', 91),
        receiver(keptDelivery!.key, 91),
        receiver('webhook:http:new', 1),
      ]);

    const run = await new InngestTestEngine({
      function: notifyPruneFunction,
      events: [{ name: 'inngest/scheduled.timer', data: { cron: '41 * * * *' }, ts: NOW }],
    }).execute();
    expect(run.result).toEqual({ events: old.length, receivers: 1, subscribers: 0 });
    const receivers = await db
      .select({ key: notificationReceivers.receiver_key })
      .from(notificationReceivers)
      .where(eq(notificationReceivers.tenant_id, TENANT));
    expect(receivers.map((r) => r.key).sort()).toEqual([keptDelivery!.key, 'webhook:http:new'].sort());

    const events = await db
      .select({ id: notificationOutbox.id })
      .from(notificationOutbox)
      .where(eq(notificationOutbox.tenant_id, TENANT));
    expect(events.map((e) => e.id).sort()).toEqual([...kept].sort());
    expect(
      await db.select().from(notificationDeliveries).where(inArray(notificationDeliveries.event_id, old)),
    ).toEqual([]);
    const attempts = await db
      .select({ id: notificationAttempts.delivery_id })
      .from(notificationAttempts)
      .where(eq(notificationAttempts.tenant_id, TENANT));
    // One attempt per kept event that has a delivery: all four; none of the pruned ones.
    expect(attempts).toHaveLength(4);

    // Run again: nothing more is old enough.
    const again = await new InngestTestEngine({
      function: notifyPruneFunction,
      events: [{ name: 'inngest/scheduled.timer', data: { cron: '41 * * * *' }, ts: NOW }],
    }).execute();
    expect(again.result).toEqual({ events: 0, receivers: 0, subscribers: 0 });
  });
});
