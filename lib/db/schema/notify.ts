import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
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
 * Notifications waiting for delivery. Producers insert (deduplicated by `dedupe_key`), a delivery
 * job drains; a crash between the two loses nothing.
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
    state: text('state', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: epochMs('next_attempt_at').notNull(),
    last_error: text('last_error'),
    created_at: epochMs('created_at').notNull(),
    sent_at: epochMs('sent_at'),
  },
  (t) => [
    uniqueIndex('notification_outbox_dedupe_idx').on(t.dedupe_key),
    index('notification_outbox_due_idx').on(t.next_attempt_at).where(sql`${t.state} = 'pending'`),
    index('notification_outbox_tenant_idx').on(t.tenant_id, t.created_at),
  ],
);

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
    created_at: epochMs('created_at').notNull(),
  },
  (t) => [index('mail_messages_to_idx').on(t.to, t.created_at)],
);
