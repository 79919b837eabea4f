import { createHash } from 'node:crypto';
import { and, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { config } from '@/lib/config';
import { openWebhookUrl, sealWebhookUrl } from '@/lib/crypto/webhook-urls';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import {
  members,
  notificationAttempts,
  notificationDeliveries,
  notificationOutbox,
  sites,
} from '@/lib/db/schema';
import type { MailAttachment } from '@/lib/email/templates';
import { organizationName } from '@/lib/orgs/name';
import { isNotificationKind, KIND_RECEIVERS, type NotificationKind } from './kinds';
import { buildMessage } from './message';
import { resolveReceivers } from './receivers';
import { DELIVERY_LEASE_MS, MAX_DELIVERY_ATTEMPTS, retryDelayMs } from './retry';
import { type SendOutcome, sendToTarget, type Target } from './send';
import { activeSecrets, signingSecrets } from './signing';
import type { WebhookKind } from './webhook';

/**
 * The delivery job's two halves, each safe to run from any number of workers at once:
 *
 * 1. `dispatchEvents`: each pending outbox event is locked (`FOR UPDATE SKIP LOCKED`), its receivers
 *    resolved from the settings as they are now, one `notification_deliveries` row written per
 *    (event, receiver) and the event marked `dispatched`, in one transaction.
 * 2. `deliverDue`: due deliveries are claimed (`sending`, attempt counted and recorded, a lease)
 *    before anything is sent, then sent, then their outcome recorded. A worker that dies between
 *    the send and the record leaves the delivery `sending`; when its lease runs out it is claimed
 *    again, the attempt it lost recorded as `interrupted`, and sent again under the same idempotency
 *    key (`webhook-id`, Resend's `Idempotency-Key`), which a receiver that deduplicates recognizes.
 *    Chat webhooks (Slack, Discord, Teams) have no such key: in that one window they may show a
 *    message twice rather than miss an alert.
 *
 * A delivery is never sent again once recorded `sent`.
 */

export interface DeliveryOptions {
  now?: () => number;
  /** Deliveries claimed per batch. */
  batchSize?: number;
  /** Deliveries sent at once within a batch. */
  concurrency?: number;
  /** Override `ALLOW_PRIVATE_NETWORK` for the sends (tests of the refusal). */
  allowPrivate?: boolean;
  /**
   * Test seam for a crash between sending and recording: called after the receiver answered and
   * before the outcome is written; a throw leaves the delivery as a dying worker would.
   */
  afterSend?: (delivery: { id: string; idempotencyKey: string }) => void | Promise<void>;
  /**
   * What an event's mails carry (the monthly report's PDF), made by whoever composes the job:
   * notifications deliver attachments without knowing the reports that make them. None by default.
   */
  attachments?: AttachmentMaker;
}

/** The files one event's mails carry; empty for an event that carries none. */
export type AttachmentMaker = (
  db: Db,
  event: typeof notificationOutbox.$inferSelect,
) => Promise<MailAttachment[]>;

const DEFAULT_BATCH = 50;
const DEFAULT_CONCURRENCY = 4;
const EVENTS_PER_DISPATCH = 100;

/** One id per (event, receiver), the same on every attempt: Standard Webhooks' `msg_` style. */
export function messageIdFor(eventId: string, receiverKey: string): string {
  return `msg_${createHash('sha256').update(`${eventId}\n${receiverKey}`).digest('base64url').slice(0, 27)}`;
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Resolves pending events into deliveries. Resolves to how many events were dispatched. */
export async function dispatchEvents(db: Db, options: Pick<DeliveryOptions, 'now'> = {}): Promise<number> {
  let dispatched = 0;
  for (let i = 0; i < EVENTS_PER_DISPATCH; i++) {
    const now = options.now?.() ?? Date.now();
    const done = await db.transaction(async (txn) => dispatchOne(txn as unknown as Db, now));
    if (!done) break;
    dispatched++;
  }
  return dispatched;
}

async function dispatchOne(tx: Db, now: number): Promise<boolean> {
  const [event] = await tx
    .select()
    .from(notificationOutbox)
    .where(and(eq(notificationOutbox.state, 'pending'), lte(notificationOutbox.next_attempt_at, now)))
    .orderBy(notificationOutbox.next_attempt_at, notificationOutbox.created_at)
    .limit(1)
    .for('update', { skipLocked: true });
  if (!event) return false;
  const finish = (state: 'dispatched' | 'failed', lastError: string | null) =>
    tx
      .update(notificationOutbox)
      .set({ state, attempts: event.attempts + 1, sent_at: now, last_error: lastError })
      .where(eq(notificationOutbox.id, event.id));
  if (!isNotificationKind(event.kind)) {
    await finish('failed', `unknown notification kind "${event.kind}"`);
    return true;
  }
  if (event.site_id) {
    const [site] = await tx
      .select({ id: sites.id })
      .from(sites)
      .where(and(eq(sites.tenant_id, event.tenant_id), eq(sites.id, event.site_id)))
      .limit(1);
    if (!site) {
      await finish('dispatched', 'the site was deleted before the notification went out');
      return true;
    }
  }
  const receivers = await resolveReceivers(
    tx,
    { tenantId: event.tenant_id, siteId: event.site_id, payload: event.payload as Record<string, unknown> },
    KIND_RECEIVERS[event.kind],
  );
  if (receivers.length > 0) {
    await tx
      .insert(notificationDeliveries)
      .values(
        receivers.map((r) => ({
          tenant_id: event.tenant_id,
          event_id: event.id,
          site_id: event.site_id,
          kind: event.kind,
          channel: r.channel,
          receiver_key: r.key,
          // A webhook's URL is its credential: sealed here as in the settings it came from.
          target: r.channel === 'email' ? r.address : sealWebhookUrl(r.url, event.tenant_id),
          member_user_id: r.memberUserId,
          idempotency_key: messageIdFor(event.id, r.key),
          next_attempt_at: now,
          created_at: now,
          updated_at: now,
        })),
      )
      .onConflictDoNothing();
  }
  await finish('dispatched', receivers.length === 0 ? 'no receivers are configured for it' : null);
  return true;
}

type Claimed = typeof notificationDeliveries.$inferSelect;

/** Claims up to `limit` due deliveries: pending ones whose time came, and `sending` ones whose worker died. */
async function claim(db: Db, now: number, limit: number): Promise<Claimed[]> {
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    const rows = await queryRows<{ id: string; was_sending: boolean }>(
      tx,
      sql`select id, state = 'sending' as was_sending from notification_deliveries
          where (state = 'pending' and next_attempt_at <= ${now})
             or (state = 'sending' and lease_until <= ${now})
          order by coalesce(next_attempt_at, lease_until), id
          limit ${limit}
          for update skip locked`,
    );
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const interrupted = rows.filter((r) => r.was_sending).map((r) => r.id);
    if (interrupted.length > 0) {
      await tx
        .update(notificationAttempts)
        .set({
          outcome: 'interrupted',
          finished_at: now,
          detail: 'the worker stopped before recording the answer; sent again with the same idempotency key',
        })
        .where(
          and(inArray(notificationAttempts.delivery_id, interrupted), isNull(notificationAttempts.outcome)),
        );
    }
    const claimed = await tx
      .update(notificationDeliveries)
      .set({
        state: 'sending',
        attempts: sql`${notificationDeliveries.attempts} + 1`,
        lease_until: now + DELIVERY_LEASE_MS,
        updated_at: now,
      })
      .where(inArray(notificationDeliveries.id, ids))
      .returning();
    await tx.insert(notificationAttempts).values(
      claimed.map((d) => ({
        delivery_id: d.id,
        tenant_id: d.tenant_id,
        attempt: d.attempts,
        started_at: now,
      })),
    );
    return claimed;
  });
}

/** What a batch needs to word its messages, read once per event, organization and site. */
class Context {
  private readonly events = new Map<string, Promise<typeof notificationOutbox.$inferSelect | undefined>>();
  private readonly orgs = new Map<string, Promise<string>>();
  private readonly sites = new Map<string, Promise<{ id: string; hostname: string } | null>>();
  private readonly secrets = new Map<string, Promise<string[]>>();
  private readonly files = new Map<string, Promise<Attachments>>();

  constructor(
    private readonly db: Db,
    private readonly now: number,
    private readonly makeAttachments: AttachmentMaker | undefined,
  ) {}

  event(id: string) {
    return memo(this.events, id, async () => {
      const [row] = await this.db
        .select()
        .from(notificationOutbox)
        .where(eq(notificationOutbox.id, id))
        .limit(1);
      return row;
    });
  }

  organizationName(tenantId: string) {
    return memo(this.orgs, tenantId, () => organizationName(this.db, tenantId));
  }

  site(tenantId: string, siteId: string | null) {
    if (!siteId) return Promise.resolve(null);
    return memo(this.sites, siteId, async () => {
      const [row] = await this.db
        .select({ id: sites.id, hostname: sites.hostname })
        .from(sites)
        .where(and(eq(sites.tenant_id, tenantId), eq(sites.id, siteId)))
        .limit(1);
      return row ?? null;
    });
  }

  /**
   * What an event's mails carry, made once per batch for all its receivers (the monthly report's PDF
   * is rendered in Chromium then). A maker that fails is a failed attempt, retried like a mail
   * provider that did not answer.
   */
  attachments(event: typeof notificationOutbox.$inferSelect) {
    const make = this.makeAttachments;
    if (!make) return Promise.resolve<Attachments>({ files: [] });
    return memo(this.files, event.id, async (): Promise<Attachments> => {
      try {
        return { files: await make(this.db, event) };
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        return { failed: { ok: false, status: null, detail, retryable: true, retryAfterMs: null } };
      }
    });
  }

  signing(tenantId: string) {
    return memo(this.secrets, tenantId, async () =>
      activeSecrets(await signingSecrets(this.db, tenantId, this.now), this.now),
    );
  }
}

function memo<T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let value = cache.get(key);
  if (!value) {
    value = load();
    cache.set(key, value);
  }
  return value;
}

async function stillMember(db: Db, tenantId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.organizationId, tenantId), eq(members.userId, userId)))
    .limit(1);
  return row !== undefined;
}

type Outcome = SendOutcome | { cancelled: string };

type Attachments = { files: MailAttachment[] } | { failed: SendOutcome };

/** Writes an attempt's outcome, if the delivery is still this worker's claim. */
async function record(db: Db, delivery: Claimed, outcome: Outcome, now: number): Promise<Result> {
  const attempt = delivery.attempts;
  let result: Result;
  let values: Partial<typeof notificationDeliveries.$inferInsert>;
  let attemptValues: Partial<typeof notificationAttempts.$inferInsert>;
  if ('cancelled' in outcome) {
    result = 'cancelled';
    values = { state: 'cancelled', next_attempt_at: null, last_outcome: outcome.cancelled };
    attemptValues = { outcome: 'cancelled', detail: outcome.cancelled };
  } else if (outcome.ok) {
    result = 'sent';
    values = {
      state: 'sent',
      next_attempt_at: null,
      sent_at: now,
      last_status: outcome.status,
      last_outcome: outcome.detail,
    };
    attemptValues = { outcome: 'sent', status: outcome.status, detail: outcome.detail };
  } else {
    const giveUp = !outcome.retryable || attempt >= MAX_DELIVERY_ATTEMPTS;
    result = giveUp ? 'failed' : 'retrying';
    values = {
      state: giveUp ? 'failed' : 'pending',
      next_attempt_at: giveUp ? null : now + retryDelayMs(attempt, outcome.retryAfterMs),
      last_status: outcome.status,
      last_outcome: giveUp
        ? `${outcome.detail}; ${outcome.retryable ? `gave up after ${attempt} attempts` : 'not retried: the same request would fail again'}`
        : outcome.detail,
    };
    attemptValues = { outcome: 'failed', status: outcome.status, detail: outcome.detail };
  }
  await db.transaction(async (txn) => {
    const tx = txn as unknown as Tx;
    const updated = await tx
      .update(notificationDeliveries)
      .set({ ...values, lease_until: null, updated_at: now })
      .where(
        and(
          eq(notificationDeliveries.id, delivery.id),
          eq(notificationDeliveries.state, 'sending'),
          eq(notificationDeliveries.attempts, attempt),
        ),
      )
      .returning({ id: notificationDeliveries.id });
    // Claimed again meanwhile (this worker outlived its lease): the newer attempt decides.
    if (updated.length === 0) return;
    await tx
      .update(notificationAttempts)
      .set({ ...attemptValues, finished_at: now })
      .where(
        and(eq(notificationAttempts.delivery_id, delivery.id), eq(notificationAttempts.attempt, attempt)),
      );
  });
  return result;
}

type Result = 'sent' | 'retrying' | 'failed' | 'cancelled';

async function deliverOne(
  db: Db,
  ctx: Context,
  delivery: Claimed,
  options: DeliveryOptions,
): Promise<Result> {
  const now = options.now?.() ?? Date.now();
  if (delivery.member_user_id && !(await stillMember(db, delivery.tenant_id, delivery.member_user_id))) {
    return record(db, delivery, { cancelled: 'not sent: no longer a member of the organization' }, now);
  }
  const event = await ctx.event(delivery.event_id);
  if (!event) return record(db, delivery, { cancelled: 'not sent: the event no longer exists' }, now);
  const [organizationName, site, secrets] = await Promise.all([
    ctx.organizationName(delivery.tenant_id),
    ctx.site(delivery.tenant_id, delivery.site_id),
    delivery.channel === 'http' ? ctx.signing(delivery.tenant_id) : Promise.resolve([]),
  ]);
  const message = buildMessage(event.kind as NotificationKind, event.payload as Record<string, unknown>, {
    eventId: event.id,
    occurredAt: event.created_at,
    appUrl: config().appUrl,
    organizationName,
    site,
  });
  let target: Target;
  if (delivery.channel === 'email') {
    target = { channel: 'email', address: delivery.target };
  } else {
    const url = openWebhookUrl(delivery.target, delivery.tenant_id);
    if (url === null) {
      const unreadable = 'not sent: the stored webhook URL could not be opened (was ENCRYPTION_KEY changed?)';
      return record(
        db,
        delivery,
        { ok: false, status: null, detail: unreadable, retryable: false, retryAfterMs: null },
        now,
      );
    }
    target = { channel: delivery.channel as WebhookKind, url };
  }
  const attachments = delivery.channel === 'email' ? await ctx.attachments(event) : { files: [] };
  if ('failed' in attachments) return record(db, delivery, attachments.failed, now);
  const outcome = await sendToTarget(db, target, message, {
    idempotencyKey: delivery.idempotency_key,
    signingSecrets: secrets,
    attachments: attachments.files,
    now,
    ...(options.allowPrivate === undefined ? {} : { allowPrivate: options.allowPrivate }),
  });
  await options.afterSend?.({ id: delivery.id, idempotencyKey: delivery.idempotency_key });
  return record(db, delivery, outcome, options.now?.() ?? Date.now());
}

export interface DeliveryTally {
  sent: number;
  retrying: number;
  failed: number;
  cancelled: number;
}

/** Claims and sends one batch of due deliveries. `claimed` 0 means nothing was due. */
export async function deliverDue(
  db: Db,
  options: DeliveryOptions = {},
): Promise<DeliveryTally & { claimed: number }> {
  const now = options.now?.() ?? Date.now();
  const claimed = await claim(db, now, options.batchSize ?? DEFAULT_BATCH);
  const tally: DeliveryTally = { sent: 0, retrying: 0, failed: 0, cancelled: 0 };
  const ctx = new Context(db, now, options.attachments);
  const queue = [...claimed];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      tally[await deliverOne(db, ctx, next, options)]++;
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, claimed.length) }, worker),
  );
  return { claimed: claimed.length, ...tally };
}

/** Whether anything is due now: the job continues while it is. */
export async function deliveriesDue(db: Db, now: number): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select 1 from notification_deliveries
        where (state = 'pending' and next_attempt_at <= ${now}) or (state = 'sending' and lease_until <= ${now})
        union all
        select 1 from notification_outbox where state = 'pending' and next_attempt_at <= ${now}
        limit 1`,
  );
  return rows.length > 0;
}
