import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './auth';
import { epochMs, flag } from './columns';
import { uptimeIncidents, uptimeMonitors } from './uptime';

/**
 * Public status pages (lib/statuspages). A page publishes the monitors it lists and nothing else of
 * its organization; what it shows of them is read live from the uptime tables (current status,
 * incidents, daily uptime), so nothing is copied here. What the organization says on a page (its
 * incident updates and manual incidents, issue 26 item 2) is in the tables below.
 */
export const statusPages = pgTable(
  'status_pages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenant_id: text('tenant_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Unique across the service: the page lives at /status/{slug}. */
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    description: text('description'),
    /** 0: the page answers 404 to the public, as an unknown slug would. */
    published: flag('published'),
    show_a11y_score: flag('show_a11y_score'),
    show_broken_links: flag('show_broken_links'),
    show_monitor_urls: flag('show_monitor_urls'),
    created_at: epochMs('created_at').notNull(),
    updated_at: epochMs('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('status_pages_slug_idx').on(t.slug),
    index('status_pages_tenant_idx').on(t.tenant_id, t.created_at),
  ],
);

/** The monitors a page lists, in the order it shows them; a deleted monitor leaves every page. */
export const statusPageMonitors = pgTable(
  'status_page_monitors',
  {
    status_page_id: uuid('status_page_id')
      .notNull()
      .references(() => statusPages.id, { onDelete: 'cascade' }),
    monitor_id: uuid('monitor_id')
      .notNull()
      .references(() => uptimeMonitors.id, { onDelete: 'cascade' }),
    tenant_id: text('tenant_id').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.status_page_id, t.monitor_id] }),
    index('status_page_monitors_monitor_idx').on(t.monitor_id),
  ],
);

/** What an update says of an incident (the words Better Stack, openstatus and Statuspage use). */
export const INCIDENT_UPDATE_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
/** What an open manual incident does to the page's headline (`none`: a notice, the headline stays). */
export const INCIDENT_IMPACTS = ['none', 'degraded', 'partial_outage', 'major_outage'] as const;

/**
 * An incident the organization opens on a page for something no monitor sees (a third party's
 * outage, slow mail). Open until an update says `resolved`; its updates are status_page_incident_updates.
 */
export const statusPageIncidents = pgTable(
  'status_page_incidents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenant_id: text('tenant_id').notNull(),
    status_page_id: uuid('status_page_id')
      .notNull()
      .references(() => statusPages.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    impact: text('impact', { enum: INCIDENT_IMPACTS }).notNull(),
    started_at: epochMs('started_at').notNull(),
    /** When an update said `resolved`; null while open. */
    resolved_at: epochMs('resolved_at'),
  },
  (t) => [index('status_page_incidents_page_idx').on(t.status_page_id, t.started_at)],
);

/**
 * An update posted on a page about one incident: a consensus incident of a listed monitor
 * (`uptime_incident_id`) or one of the page's manual incidents (`page_incident_id`), never both.
 * Updates belong to the page they were posted on: another page listing the same monitor says its own.
 */
export const statusPageIncidentUpdates = pgTable(
  'status_page_incident_updates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenant_id: text('tenant_id').notNull(),
    status_page_id: uuid('status_page_id')
      .notNull()
      .references(() => statusPages.id, { onDelete: 'cascade' }),
    uptime_incident_id: uuid('uptime_incident_id').references(() => uptimeIncidents.id, {
      onDelete: 'cascade',
    }),
    page_incident_id: uuid('page_incident_id').references(() => statusPageIncidents.id, {
      onDelete: 'cascade',
    }),
    status: text('status', { enum: INCIDENT_UPDATE_STATUSES }).notNull(),
    message: text('message').notNull(),
    created_at: epochMs('created_at').notNull(),
  },
  (t) => [
    index('status_page_incident_updates_page_idx').on(t.status_page_id, t.created_at),
    check(
      'status_page_incident_updates_one_incident',
      sql`(${t.uptime_incident_id} is null) <> (${t.page_incident_id} is null)`,
    ),
  ],
);

export type StatusPage = typeof statusPages.$inferSelect;
export type StatusPageIncident = typeof statusPageIncidents.$inferSelect;
export type StatusPageIncidentUpdate = typeof statusPageIncidentUpdates.$inferSelect;

/**
 * The people who asked a page for mail about its incidents and maintenance (issue 26 item 4;
 * lib/statuspages/subscribers.ts). A row is made when a visitor submits the page's form and is
 * active only once `confirmed_at` is set, by the confirmation mail's button; until then it holds the
 * SHA-256 of the confirmation token, never the token. The address is stored normalized (trimmed,
 * lower-cased). Unsubscribing deletes the row; so does deleting the page (cascade), and unconfirmed
 * rows are deleted once their link expired (lib/notify/retention.ts).
 */
export const statusPageSubscribers = pgTable(
  'status_page_subscribers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenant_id: text('tenant_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    status_page_id: uuid('status_page_id')
      .notNull()
      .references(() => statusPages.id, { onDelete: 'cascade' }),
    address: text('address').notNull(),
    confirm_token_hash: text('confirm_token_hash'),
    confirm_sent_at: epochMs('confirm_sent_at'),
    confirm_expires_at: epochMs('confirm_expires_at'),
    confirmed_at: epochMs('confirmed_at'),
    created_at: epochMs('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('status_page_subscribers_page_address_idx').on(t.status_page_id, t.address),
    index('status_page_subscribers_token_idx').on(t.confirm_token_hash),
    index('status_page_subscribers_tenant_idx').on(t.tenant_id),
  ],
);
export type StatusPageSubscriber = typeof statusPageSubscribers.$inferSelect;
