import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { epochMs } from './columns';

/** Org defaults (scope 'org') or one site's override (scope = the site id). */
export const notificationSettings = pgTable(
  'notification_settings',
  {
    tenant_id: text('tenant_id').notNull(),
    scope: text('scope').notNull(),
    settings: jsonb('settings').notNull(),
    include_org_defaults: integer('include_org_defaults').notNull().default(1),
    updated_at: epochMs('updated_at').notNull(),
  },
  (t) => [uniqueIndex('notification_settings_scope_idx').on(t.tenant_id, t.scope)],
);

/**
 * Notifications (events) waiting for delivery. Producers insert (deduplicated by `dedupe_key`); the
 * delivery job resolves each pending event's receivers into `notification_deliveries` and marks it
 * `dispatched` in the same transaction, so a crash between the two loses nothing and resolves twice
 * nothing. `failed`: the event could not be resolved at all (an unknown kind), `last_error` says why.
 */
export const notificationOutbox = pgTable(
  'notification_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenant_id: text('tenant_id').notNull(),
    site_id: uuid('site_id'),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull(),
    dedupe_key: text('dedupe_key').notNull(),
    state: text('state', { enum: ['pending', 'dispatched', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: epochMs('next_attempt_at').notNull(),
    last_error: text('last_error'),
    created_at: epochMs('created_at').notNull(),
    /** When its receivers were resolved (state `dispatched`). */
    sent_at: epochMs('sent_at'),
  },
  (t) => [
    uniqueIndex('notification_outbox_dedupe_idx').on(t.dedupe_key),
    index('notification_outbox_due_idx').on(t.next_attempt_at).where(sql`${t.state} = 'pending'`),
    index('notification_outbox_tenant_idx').on(t.tenant_id, t.created_at),
    // The retention's sweep (lib/notify/retention.ts): finished events, oldest first.
    index('notification_outbox_done_idx').on(t.created_at).where(sql`${t.state} <> 'pending'`),
  ],
);

/**
 * One (event, receiver) pair: sent exactly once, retried with backoff, given up after
 * `MAX_DELIVERY_ATTEMPTS` (lib/notify/retry.ts). `idempotency_key` is the same on every attempt (the
 * http webhook's `webhook-id`, Resend's `Idempotency-Key`), so a receiver that deduplicates sees an
 * attempt repeated after a crash between sending and recording as the same message.
 *
 * States: `pending` (due at `next_attempt_at`), `sending` (claimed by a worker until `lease_until`;
 * one whose lease ran out was interrupted and is sent again with the same key), `sent`, `failed`
 * (given up or refused for good), `cancelled` (the member left the organization before it went out).
 */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenant_id: text('tenant_id').notNull(),
    event_id: uuid('event_id')
      .notNull()
      .references(() => notificationOutbox.id, { onDelete: 'cascade' }),
    /** Copied from the event for the delivery log's filters. */
    site_id: uuid('site_id'),
    kind: text('kind').notNull(),
    channel: text('channel', { enum: ['email', 'slack', 'discord', 'teams', 'http'] }).notNull(),
    /**
     * Who, normalized: `email:<lower-cased address>` or `webhook:<kind>:<SHA-256 of the URL>`;
     * unique per event.
     */
    receiver_key: text('receiver_key').notNull(),
    /** The address sent to, or the webhook URL sealed (lib/crypto/webhook-urls.ts). */
    target: text('target').notNull(),
    /** The member this address was resolved from (a `user` recipient), re-checked before each attempt. */
    member_user_id: text('member_user_id'),
    idempotency_key: text('idempotency_key').notNull(),
    state: text('state', { enum: ['pending', 'sending', 'sent', 'failed', 'cancelled'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: epochMs('next_attempt_at'),
    lease_until: epochMs('lease_until'),
    /** The receiver's HTTP status on the last attempt, if it answered. */
    last_status: integer('last_status'),
    /** The last attempt's outcome in plain words. */
    last_outcome: text('last_outcome'),
    created_at: epochMs('created_at').notNull(),
    updated_at: epochMs('updated_at').notNull(),
    sent_at: epochMs('sent_at'),
  },
  (t) => [
    uniqueIndex('notification_deliveries_pair_idx').on(t.event_id, t.receiver_key),
    uniqueIndex('notification_deliveries_key_idx').on(t.idempotency_key),
    index('notification_deliveries_due_idx').on(t.next_attempt_at).where(sql`${t.state} = 'pending'`),
    index('notification_deliveries_lease_idx').on(t.lease_until).where(sql`${t.state} = 'sending'`),
    index('notification_deliveries_log_idx').on(t.tenant_id, t.created_at, t.id),
  ],
);

/** Every attempt of a delivery, recorded before the request goes out and completed after it. */
export const notificationAttempts = pgTable(
  'notification_attempts',
  {
    delivery_id: uuid('delivery_id')
      .notNull()
      .references(() => notificationDeliveries.id, { onDelete: 'cascade' }),
    tenant_id: text('tenant_id').notNull(),
    attempt: integer('attempt').notNull(),
    started_at: epochMs('started_at').notNull(),
    finished_at: epochMs('finished_at'),
    /** null while in flight; `interrupted` when the worker died before recording the answer. */
    outcome: text('outcome', { enum: ['sent', 'failed', 'interrupted', 'cancelled'] }),
    status: integer('status'),
    detail: text('detail'),
  },
  (t) => [primaryKey({ columns: [t.delivery_id, t.attempt] })],
);

/**
 * The organization's webhook signing secret (Standard Webhooks, `whsec_` + base64), sealed at rest
 * (lib/crypto/secrets.ts). After a rotation the previous secret keeps signing alongside the new one
 * until `previous_expires_at`.
 */
export const notificationSigningSecrets = pgTable('notification_signing_secrets', {
  tenant_id: text('tenant_id').primaryKey(),
  secret: text('secret').notNull(),
  previous_secret: text('previous_secret'),
  previous_expires_at: epochMs('previous_expires_at'),
  created_at: epochMs('created_at').notNull(),
});

/** The local mail outbox: every message sent without a mail provider, kept for the developer. */
export const mailMessages = pgTable(
  'mail_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    transport: text('transport', { enum: ['outbox', 'resend'] }).notNull(),
    provider_id: text('provider_id'),
    /** Headers sent with it beyond the provider's own (List-Unsubscribe, List-Unsubscribe-Post). */
    headers: jsonb('headers').$type<Record<string, string>>(),
    created_at: epochMs('created_at').notNull(),
  },
  (t) => [index('mail_messages_to_idx').on(t.to, t.created_at)],
);

/**
 * One webhook receiver's health, shared by all its deliveries (lib/notify/breaker.ts): a circuit
 * breaker and the lane its deliveries are sent on. Keyed like the deliveries (`receiver_key`), so a
 * webhook named in several lists, or in a monitor's own alert targets, is one receiver.
 *
 * `consecutive_failures` counts failed attempts since the last success; at the threshold the circuit
 * opens until `open_until` (backoff doubling with `opens`). Past `open_until` it is half-open: one
 * delivery goes out (a receiver is never sent two at once); its success closes the circuit, its
 * failure opens it again for longer. `slow` puts the receiver's deliveries on the slow lane: its last
 * attempt timed out or took longer than SLOW_SEND_MS.
 */
export const notificationReceivers = pgTable(
  'notification_receivers',
  {
    tenant_id: text('tenant_id').notNull(),
    receiver_key: text('receiver_key').notNull(),
    channel: text('channel', { enum: ['slack', 'discord', 'teams', 'http'] }).notNull(),
    /** The URL as anyone may see it (origin only, lib/notify/webhook.ts elideUrlPath). */
    label: text('label').notNull(),
    consecutive_failures: integer('consecutive_failures').notNull().default(0),
    /** Times the circuit opened since the last success: the backoff's exponent. */
    opens: integer('opens').notNull().default(0),
    opened_at: epochMs('opened_at'),
    open_until: epochMs('open_until'),
    slow: integer('slow').$type<0 | 1>().notNull().default(0),
    last_failure: text('last_failure'),
    last_failure_at: epochMs('last_failure_at'),
    last_success_at: epochMs('last_success_at'),
    updated_at: epochMs('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenant_id, t.receiver_key] })],
);

/**
 * Every address an organization mails notifications to, member or not, by lower-cased address
 * (lib/notify/consent.ts). An address outside the organization receives nothing until it confirmed
 * (`confirmed_at`): saving it in a list or a monitor sends one confirmation mail whose link carries a
 * random token, kept here only as its SHA-256. A member's row exists once they were mailed: its id
 * is what their unsubscribe links name.
 */
export const notificationAddresses = pgTable(
  'notification_addresses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenant_id: text('tenant_id').notNull(),
    /** Trimmed and lower-cased. */
    address: text('address').notNull(),
    /** SHA-256 (hex) of the outstanding confirmation link's token; null once confirmed or before one was sent. */
    confirm_token_hash: text('confirm_token_hash'),
    confirm_sent_at: epochMs('confirm_sent_at'),
    confirm_expires_at: epochMs('confirm_expires_at'),
    /** Why the last confirmation mail did not go out (a limit, the mail provider), if it did not. */
    confirm_error: text('confirm_error'),
    confirmed_at: epochMs('confirmed_at'),
    created_at: epochMs('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('notification_addresses_address_idx').on(t.tenant_id, t.address),
    uniqueIndex('notification_addresses_token_idx').on(t.confirm_token_hash),
  ],
);

/**
 * One (address, topic) an address stopped through its one-click unsubscribe link (RFC 8058): that
 * organization sends it no more mail of the topic until an owner or admin subscribes it again.
 */
export const notificationUnsubscribes = pgTable(
  'notification_unsubscribes',
  {
    address_id: uuid('address_id')
      .notNull()
      .references(() => notificationAddresses.id, { onDelete: 'cascade' }),
    tenant_id: text('tenant_id').notNull(),
    topic: text('topic').notNull(),
    created_at: epochMs('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.address_id, t.topic] })],
);

/**
 * Every confirmation mail sent, for its limits (per address and organization, per organization, per
 * address across organizations over a day); rows older than two days are deleted as new ones come.
 */
export const notificationConfirmationSends = pgTable(
  'notification_confirmation_sends',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenant_id: text('tenant_id').notNull(),
    address: text('address').notNull(),
    /**
     * A status page's subscription confirmation (lib/statuspages/subscribers.ts); null: one asked
     * for by the organization's own lists. Both count against the address's limit across senders.
     */
    status_page_id: uuid('status_page_id'),
    sent_at: epochMs('sent_at').notNull(),
  },
  (t) => [
    index('notification_confirmation_sends_tenant_idx').on(t.tenant_id, t.sent_at),
    index('notification_confirmation_sends_page_idx').on(t.status_page_id, t.sent_at),
    index('notification_confirmation_sends_address_idx').on(t.address, t.sent_at),
  ],
);

/**
 * An owner or admin who became one after the organization was made (an invitation accepted with
 * that role, a promotion) is offered to receive alerts once: the offer stays until they answer it
 * ("Alert me" or dismissed), and a later promotion offers again. Nobody is added without the click.
 */
export const alertOffers = pgTable(
  'alert_offers',
  {
    tenant_id: text('tenant_id').notNull(),
    user_id: text('user_id').notNull(),
    offered_at: epochMs('offered_at').notNull(),
    /** When they accepted or dismissed it; null while it is open. */
    answered_at: epochMs('answered_at'),
  },
  (t) => [primaryKey({ columns: [t.tenant_id, t.user_id] })],
);
