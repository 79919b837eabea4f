import { notifyQueued, usageAllowanceReached } from '@/jobs/events';
import { activeRunner, createFunction, onBoot } from '@/jobs/runtime';
import { getDb } from '@/lib/db/client';
import { type DeliveryOptions, deliverDue, deliveriesDue, dispatchEvents } from '@/lib/notify/deliver';
import { pruneDeliveryHistory } from '@/lib/notify/retention';
import { pruneUnconfirmedSubscribers } from '@/lib/notify/subscribers';
import { reportAttachments } from '@/lib/reports/schedule';
import { queueMaintenanceStarts } from '@/lib/uptime/maintenance-windows';

/**
 * Delivery sessions per invocation before the job re-enters through `notify/queued`: each session
 * claims for DEFAULT_BUDGET_MS (20 s) and then lets its sends finish (a webhook's 10 s, a mail's
 * 15 s deadline), so one step lasts under a minute and an invocation stays within a hosted
 * function's limit.
 */
const SESSIONS_PER_INVOCATION = 5;

/**
 * Notification delivery (lib/notify/deliver.ts): resolves queued events into (event, receiver)
 * deliveries, then sends what is due, retries included. Triggered when something is queued
 * (`notify/queued`, and `usage/allowance-reached` which the crawl and the render pass already send)
 * and every minute, which picks up retries as they come due, events queued by code that sent no
 * event, and deliveries a dead worker left behind.
 *
 * Concurrency `notify-deliver-sessions` (limit 2, no key): claims are serialised in Postgres and
 * capped per tenant and receiver there (lib/notify/deliver.ts), so a second invocation never sends
 * what the first holds; it exists so that while one invocation's session ends waiting on its slow
 * sends, the next one is already claiming. Fairness between tenants is the claim's, not Inngest's:
 * a per-tenant concurrency key cannot apply to a job whose one invocation serves every tenant.
 */
export const NOTIFY_INVOCATIONS = 2;

export function createNotifyFunction(given: DeliveryOptions = {}) {
  // The monthly report's mails carry its PDF: reports make it, notifications only deliver it.
  const options: DeliveryOptions = { attachments: reportAttachments, ...given };
  return createFunction(
    {
      id: 'notify-deliver',
      name: 'Deliver notifications',
      concurrency: [{ limit: NOTIFY_INVOCATIONS }],
      retries: 3,
      triggers: [notifyQueued, usageAllowanceReached, { cron: '* * * * *' }],
    },
    async ({ step }) => {
      // Maintenance that began is news for status page subscribers, queued before this run dispatches.
      await step.run('maintenance-starts', async () =>
        queueMaintenanceStarts(await getDb(), options.now?.() ?? Date.now()),
      );
      const dispatched = await step.run('dispatch', async () => dispatchEvents(await getDb(), options));
      const totals = { dispatched, sent: 0, retrying: 0, failed: 0, cancelled: 0 };
      for (let i = 0; i < SESSIONS_PER_INVOCATION; i++) {
        const batch = await step.run('deliver', async () => deliverDue(await getDb(), options));
        totals.sent += batch.sent;
        totals.retrying += batch.retrying;
        totals.failed += batch.failed;
        totals.cancelled += batch.cancelled;
        if (batch.claimed === 0) return totals;
      }
      const more = await step.run('backlog', async () =>
        deliveriesDue(await getDb(), options.now?.() ?? Date.now()),
      );
      if (more) await step.sendEvent('continue', { name: 'notify/queued', data: { reason: 'backlog' } });
      return totals;
    },
  );
}

export const notifyDeliverFunction = createNotifyFunction();

/**
 * Every hour: events older than the retention (90 days, lib/notify/retention.ts) go, with their
 * deliveries and attempts. Hourly rather than daily so a server that is not up at a given hour
 * still prunes; a run with nothing old is one indexed query.
 */
export const notifyPruneFunction = createFunction(
  {
    id: 'notify-prune',
    name: 'Prune old notification deliveries',
    retries: 2,
    triggers: [{ cron: '41 * * * *' }],
  },
  async ({ event, step }) => {
    const now = typeof event.ts === 'number' ? event.ts : Date.now();
    const pruned = await step.run('prune', async () => pruneDeliveryHistory(await getDb(), now));
    // Status page subscriptions never confirmed, once their link expired (personal data kept for nothing).
    const subscribers = await step.run('prune-subscribers', async () =>
      pruneUnconfirmedSubscribers(await getDb(), now),
    );
    return { ...pruned, subscribers };
  },
);

/**
 * In-process, a look at the outbox every few seconds: producers that queue without sending
 * `notify/queued` (the uptime round loop writes its incidents' notifications in the round's own
 * transaction) are delivered within seconds rather than at the next minute. One indexed query per
 * look; an event only when something is due. Hosted mode has the minute cron and the producers'
 * events instead.
 */
export const OUTBOX_POLL_MS = 5_000;

onBoot(({ sendEvent }) => {
  const runner = activeRunner();
  const look = async () => {
    if (activeRunner() !== runner) return;
    try {
      const now = Date.now();
      if (await deliveriesDue(await getDb(), now)) {
        // One event per window at most: the runner drops a repeated id.
        await sendEvent({
          name: 'notify/queued',
          id: `notify-poll:${Math.floor(now / OUTBOX_POLL_MS)}`,
          data: { reason: 'poll' },
        });
      }
    } catch (error) {
      console.error('notifications: outbox check failed:', error);
    }
    if (activeRunner() === runner) setTimeout(look, OUTBOX_POLL_MS).unref();
  };
  setTimeout(look, OUTBOX_POLL_MS).unref();
});
