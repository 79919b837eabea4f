import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
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
  notificationReceivers,
  sites,
} from '@/lib/db/schema';
import type { MailAttachment } from '@/lib/email/templates';
import { organizationName } from '@/lib/orgs/name';
import { organizationLogoFile } from '@/lib/orgs/organization';
import {
  type AttemptResult,
  afterAttempt,
  HEALTHY,
  HELD_BY_CIRCUIT_MAX_MS,
  type ReceiverHealth,
} from './breaker';
import { mailConsent } from './consent';
import type { Unsubscribe } from './formats/email';
import {
  isNotificationKind,
  isSubscriberKind,
  KIND_RECEIVERS,
  storedNotification,
  TOPIC_NAMES,
} from './kinds';
import { buildMessage } from './message';
import { resolveReceivers } from './receivers';
import { DELIVERY_LEASE_MS, MAX_DELIVERY_ATTEMPTS, retryDelayMs } from './retry';
import { type SendOutcome, sendToTarget, type Target } from './send';
import { activeSecrets, signingSecrets } from './signing';
import { maskAddress, subscriberConsent } from './subscribers';
import { elideUrlPath, type WebhookKind } from './webhook';

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
 *
 * Fairness (README, "Notifications": fair delivery). One tenant's receivers cannot hold the workers
 * another tenant's alerts need:
 * - the claim takes due deliveries round robin across tenants, and across receivers within a tenant
 *   (each receiver's oldest first, then each tenant's next receiver), under caps held in Postgres
 *   and checked under one advisory lock: a receiver has at most one delivery in flight, a tenant at
 *   most `tenantInFlight` on the fast lane and `slowTenantInFlight` on the slow one;
 * - receivers whose last send timed out or was slow (./breaker.ts `slow`) are served by a slow lane
 *   of workers of their own, so the fast lane's workers only wait on receivers that answer;
 * - a receiver that keeps failing has its circuit opened (./breaker.ts): its deliveries wait without
 *   spending a worker, a half-open probe closes it again;
 * - workers take one delivery at a time and claim the next as soon as they are free, and while any
 *   send is in flight the idle ones keep looking for due work (new events included), so a delivery
 *   queued behind a slow send is claimed within `pollMs`, not after it.
 */

export interface DeliveryOptions {
  now?: () => number;
  /** Fast-lane workers: deliveries sent at once to receivers that answer promptly. */
  workers?: number;
  /** Slow-lane workers: deliveries sent at once to receivers whose last send timed out or was slow. */
  slowWorkers?: number;
  /** A tenant's deliveries in flight at once on the fast lane. */
  tenantInFlight?: number;
  /** A tenant's deliveries in flight at once on the slow lane. */
  slowTenantInFlight?: number;
  /**
   * Wall-clock time during which workers claim (the sends in flight then finish): bounds one call,
   * which a hosted job runs as one step.
   */
  budgetMs?: number;
  /** While a send is in flight, how often an idle worker looks for due work again. */
  pollMs?: number;
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

export const DEFAULT_WORKERS = 8;
export const DEFAULT_SLOW_WORKERS = 2;
export const DEFAULT_TENANT_IN_FLIGHT = 4;
export const DEFAULT_SLOW_TENANT_IN_FLIGHT = 1;
/** A receiver's deliveries in flight at once: one, so a slow receiver holds one worker at most. */
export const RECEIVER_IN_FLIGHT = 1;
export const DEFAULT_BUDGET_MS = 20_000;
const DEFAULT_POLL_MS = 200;
const EVENTS_PER_DISPATCH = 100;
/** Events resolved by an idle worker at a time: the rest are left to the next look. */
const EVENTS_PER_LOOK = 10;
/** Serialises claims (pg_advisory_xact_lock), so the in-flight caps hold across workers and servers. */
const CLAIM_LOCK = 0x5717_0001;

/** One id per (event, receiver), the same on every attempt: Standard Webhooks' `msg_` style. */
export function messageIdFor(eventId: string, receiverKey: string): string {
  return `msg_${createHash('sha256').update(`${eventId}\n${receiverKey}`).digest('base64url').slice(0, 27)}`;
}

/** Resolves pending events into deliveries. Resolves to how many events were dispatched. */
export async function dispatchEvents(
  db: Db,
  options: Pick<DeliveryOptions, 'now'> & { max?: number } = {},
): Promise<number> {
  let dispatched = 0;
  for (let i = 0; i < (options.max ?? EVENTS_PER_DISPATCH); i++) {
    const now = options.now?.() ?? Date.now();
    const done = await db.transaction(async (tx) => dispatchOne(tx, now));
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

type Lane = 'fast' | 'slow';

interface Caps {
  tenantInFlight: number;
  slowTenantInFlight: number;
}

/**
 * Claims up to `limit` due deliveries of one lane: pending ones whose time came, and `sending` ones
 * whose worker died, whose receiver's circuit is not open, whose receiver has nothing in flight and
 * whose tenant is under its cap on the lane. Round robin: every tenant's first receiver before any
 * tenant's second, each receiver's oldest delivery first.
 */
async function claim(db: Db, now: number, lane: Lane, limit: number, caps: Caps): Promise<Claimed[]> {
  const tenantCap = lane === 'slow' ? caps.slowTenantInFlight : caps.tenantInFlight;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK}::bigint)`);
    const rows = await queryRows<{ id: string; was_sending: boolean }>(
      tx,
      sql`with busy as (
            select d.tenant_id, d.receiver_key, coalesce(r.slow, 0) as slow
            from notification_deliveries d
            left join notification_receivers r
              on r.tenant_id = d.tenant_id and r.receiver_key = d.receiver_key
            where d.state = 'sending' and d.lease_until > ${now}
          ),
          due as (
            select distinct on (d.tenant_id, d.receiver_key)
              d.id, d.tenant_id, d.receiver_key, coalesce(d.next_attempt_at, d.lease_until) as due_at
            from notification_deliveries d
            left join notification_receivers r
              on r.tenant_id = d.tenant_id and r.receiver_key = d.receiver_key
            where ((d.state = 'pending' and d.next_attempt_at <= ${now})
                or (d.state = 'sending' and d.lease_until <= ${now}))
              and (r.open_until is null or r.open_until <= ${now})
              and coalesce(r.slow, 0) = ${lane === 'slow' ? 1 : 0}
              and (select count(*) from busy b
                   where b.tenant_id = d.tenant_id and b.receiver_key = d.receiver_key) < ${RECEIVER_IN_FLIGHT}
            order by d.tenant_id, d.receiver_key, coalesce(d.next_attempt_at, d.lease_until), d.id
          ),
          ranked as (
            select due.*, row_number() over (partition by due.tenant_id order by due.due_at, due.id) as turn
            from due
          )
          select ranked.id from ranked
          where ranked.turn + (select count(*) from busy b
                               where b.tenant_id = ranked.tenant_id and b.slow = ${lane === 'slow' ? 1 : 0}) <= ${tenantCap}
          order by ranked.turn, ranked.due_at, ranked.id
          limit ${limit}`,
    );
    if (rows.length === 0) return [];
    const locked = await queryRows<{ id: string; was_sending: boolean }>(
      tx,
      sql`select id, state = 'sending' as was_sending from notification_deliveries
          where id in (${sql.join(
            rows.map((r) => sql`${r.id}::uuid`),
            sql`, `,
          )})
            and ((state = 'pending' and next_attempt_at <= ${now}) or (state = 'sending' and lease_until <= ${now}))
          for update skip locked`,
    );
    if (locked.length === 0) return [];
    const ids = locked.map((r) => r.id);
    const interrupted = locked.filter((r) => r.was_sending).map((r) => r.id);
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

/**
 * Fails the deliveries an open circuit has held for longer than HELD_BY_CIRCUIT_MAX_MS: an alert
 * that old is news no longer, and the receiver has been failing all along.
 */
async function expireHeld(db: Db, now: number): Promise<void> {
  await db.execute(sql`update notification_deliveries d
    set state = 'failed', next_attempt_at = null, updated_at = ${now},
        last_outcome = 'not sent: the receiver kept failing (its circuit stayed open) until the delivery was too old to send'
    from notification_receivers r
    where r.tenant_id = d.tenant_id and r.receiver_key = d.receiver_key
      and r.open_until > ${now} and d.state = 'pending' and d.created_at < ${now - HELD_BY_CIRCUIT_MAX_MS}`);
}

/** What a batch needs to word its messages, read once per event, organization and site. */
class Context {
  private readonly events = new Map<string, Promise<typeof notificationOutbox.$inferSelect | undefined>>();
  private readonly orgs = new Map<string, Promise<string>>();
  private readonly logos = new Map<string, Promise<Awaited<ReturnType<typeof organizationLogoFile>>>>();
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

  /** The organization's logo for its mails (read once per batch and organization). */
  organizationLogo(tenantId: string) {
    return memo(this.logos, tenantId, () => organizationLogoFile(this.db, tenantId));
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

/** A webhook's attempt as its receiver's health sees it (email addresses have none). */
interface ReceiverAttempt {
  channel: WebhookKind;
  /** The URL with its path elided: all anyone is shown of it. */
  label: string;
  result: AttemptResult;
}

/**
 * Writes an attempt's outcome, if the delivery is still this worker's claim, and with it the
 * receiver's health (circuit breaker, lane) when the receiver was sent to.
 */
async function record(
  db: Db,
  delivery: Claimed,
  outcome: Outcome,
  now: number,
  receiver?: ReceiverAttempt,
): Promise<Result> {
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
  await db.transaction(async (tx) => {
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
    if (receiver) await recordHealth(tx, delivery, receiver, outcome, now);
  });
  return result;
}

/** The receiver's circuit and lane after this attempt (./breaker.ts), read and written under a row lock. */
async function recordHealth(
  tx: Db,
  delivery: Claimed,
  receiver: ReceiverAttempt,
  outcome: Outcome,
  now: number,
): Promise<void> {
  const r = notificationReceivers;
  const key = and(eq(r.tenant_id, delivery.tenant_id), eq(r.receiver_key, delivery.receiver_key));
  // The row exists before it is locked, so two workers' first attempts cannot both insert it.
  await tx
    .insert(r)
    .values({
      tenant_id: delivery.tenant_id,
      receiver_key: delivery.receiver_key,
      channel: receiver.channel,
      label: receiver.label,
      updated_at: now,
    })
    .onConflictDoNothing();
  const [row] = await tx.select().from(r).where(key).for('update');
  const before: ReceiverHealth = row
    ? {
        consecutiveFailures: row.consecutive_failures,
        opens: row.opens,
        openedAt: row.opened_at,
        openUntil: row.open_until,
        slow: row.slow === 1,
      }
    : HEALTHY;
  const after = afterAttempt(before, receiver.result, now);
  const failed = 'ok' in outcome && !outcome.ok ? outcome.detail : null;
  await tx
    .update(r)
    .set({
      label: receiver.label,
      consecutive_failures: after.consecutiveFailures,
      opens: after.opens,
      opened_at: after.openedAt,
      open_until: after.openUntil,
      slow: after.slow ? 1 : 0,
      ...(failed === null ? { last_success_at: now } : { last_failure: failed, last_failure_at: now }),
      updated_at: now,
    })
    .where(key);
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
  const notification = storedNotification(event);
  if (!notification)
    return record(db, delivery, { cancelled: `not sent: unknown notification kind "${event.kind}"` }, now);
  const message = buildMessage(notification.kind, notification.payload, {
    eventId: event.id,
    occurredAt: event.created_at,
    appUrl: config().appUrl,
    organizationName,
    site,
  });
  let target: Target;
  let unsubscribe: Unsubscribe | undefined;
  let logRecipient: string | undefined;
  if (delivery.channel === 'email' && isSubscriberKind(notification.kind)) {
    // A status page subscriber: still subscribed and the page still published, asked right before.
    const consent = await subscriberConsent(db, {
      tenantId: delivery.tenant_id,
      pageId: (event.payload as { statusPageId?: unknown }).statusPageId,
      email: delivery.target,
    });
    if ('refused' in consent) return record(db, delivery, { cancelled: consent.refused }, now);
    unsubscribe = { url: consent.unsubscribeUrl, topicName: `updates of ${consent.pageTitle}` };
    logRecipient = maskAddress(delivery.target);
    target = { channel: 'email', address: delivery.target };
  } else if (delivery.channel === 'email' && !isSubscriberKind(notification.kind)) {
    // Asked right before sending: an outside address that has not confirmed, or any address that
    // unsubscribed meanwhile, gets nothing, and the delivery log says why.
    const consent = await mailConsent(
      db,
      { tenantId: delivery.tenant_id, email: delivery.target },
      notification.kind,
      now,
    );
    if ('refused' in consent) return record(db, delivery, { cancelled: consent.refused }, now);
    unsubscribe = { url: consent.unsubscribeUrl, topicName: TOPIC_NAMES[consent.topic] };
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
  const started = performance.now();
  const outcome = await sendToTarget(db, target, message, {
    idempotencyKey: delivery.idempotency_key,
    signingSecrets: secrets,
    attachments: attachments.files,
    ...(unsubscribe ? { unsubscribe } : {}),
    ...(logRecipient ? { logRecipient } : {}),
    ...(target.channel === 'email' ? { logo: await ctx.organizationLogo(delivery.tenant_id) } : {}),
    now,
    ...(options.allowPrivate === undefined ? {} : { allowPrivate: options.allowPrivate }),
  });
  const elapsedMs = performance.now() - started;
  await options.afterSend?.({ id: delivery.id, idempotencyKey: delivery.idempotency_key });
  const receiver: ReceiverAttempt | undefined =
    target.channel === 'email'
      ? undefined
      : {
          channel: target.channel,
          label: elideUrlPath(target.url),
          result: { accepted: outcome.ok, timedOut: !outcome.ok && outcome.timedOut === true, elapsedMs },
        };
  return record(db, delivery, outcome, options.now?.() ?? Date.now(), receiver);
}

export interface DeliveryTally {
  sent: number;
  retrying: number;
  failed: number;
  cancelled: number;
}

/**
 * Claims and sends due deliveries with a pool of workers on two lanes (fast and slow), each worker
 * one delivery at a time, until nothing is due and nothing is in flight, or `budgetMs` has passed
 * (the sends in flight then finish). Idle workers resolve newly queued events as they look for
 * work. `claimed` 0 means nothing was due.
 */
export async function deliverDue(
  db: Db,
  options: DeliveryOptions = {},
): Promise<DeliveryTally & { claimed: number }> {
  const now = () => options.now?.() ?? Date.now();
  const started = performance.now();
  const budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const caps: Caps = {
    tenantInFlight: options.tenantInFlight ?? DEFAULT_TENANT_IN_FLIGHT,
    slowTenantInFlight: options.slowTenantInFlight ?? DEFAULT_SLOW_TENANT_IN_FLIGHT,
  };
  await expireHeld(db, now());
  const tally = { claimed: 0, sent: 0, retrying: 0, failed: 0, cancelled: 0 };
  const ctx = new Context(db, now(), options.attachments);
  let inFlight = 0;
  let crashed = false;
  // While sends are in flight, idle workers look for work at most once per pollMs per lane (and
  // resolve events at most once per pollMs), however many of them are idle.
  const lastMiss: Record<Lane, number> = { fast: Number.NEGATIVE_INFINITY, slow: Number.NEGATIVE_INFINITY };
  let lastDispatch = Number.NEGATIVE_INFINITY;
  const worker = async (lane: Lane) => {
    while (!crashed && performance.now() - started < budgetMs) {
      if (inFlight > 0 && performance.now() - lastMiss[lane] < pollMs) {
        await sleep(pollMs / 2);
        continue;
      }
      const [delivery] = await claim(db, now(), lane, 1, caps);
      if (delivery) {
        tally.claimed++;
        inFlight++;
        try {
          tally[await deliverOne(db, ctx, delivery, options)]++;
        } catch (error) {
          // A worker that throws stands for a process dying: the others stop claiming too.
          crashed = true;
          throw error;
        } finally {
          inFlight--;
        }
        continue;
      }
      // Nothing this lane may take now. Events queued meanwhile become deliveries here, not at the
      // next invocation; and while anything is in flight (a slow receiver, a tenant at its cap),
      // look again shortly rather than leave what comes due to wait for that send.
      lastMiss[lane] = performance.now();
      if (inFlight === 0 || performance.now() - lastDispatch >= pollMs) {
        lastDispatch = performance.now();
        if ((await dispatchEvents(db, { now: options.now, max: EVENTS_PER_LOOK })) > 0) continue;
      }
      if (inFlight === 0) return;
      await sleep(pollMs);
    }
  };
  const lanes: Lane[] = [
    ...Array<Lane>(options.workers ?? DEFAULT_WORKERS).fill('fast'),
    ...Array<Lane>(options.slowWorkers ?? DEFAULT_SLOW_WORKERS).fill('slow'),
  ];
  const settled = await Promise.allSettled(lanes.map(worker));
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure) throw failure.reason;
  return tally;
}

/** Whether anything is due now: the job continues while it is. */
export async function deliveriesDue(db: Db, now: number): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select 1 from notification_deliveries d
        where ((d.state = 'pending' and d.next_attempt_at <= ${now}) or (d.state = 'sending' and d.lease_until <= ${now}))
          -- held by an open circuit: due when it half-opens, not before
          and not exists (select 1 from notification_receivers r
                          where r.tenant_id = d.tenant_id and r.receiver_key = d.receiver_key
                            and r.open_until > ${now})
        union all
        select 1 from notification_outbox where state = 'pending' and next_attempt_at <= ${now}
        limit 1`,
  );
  return rows.length > 0;
}
