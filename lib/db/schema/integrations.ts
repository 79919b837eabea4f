import { sql } from 'drizzle-orm';
import {
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { epochMs } from './columns';
import { sites } from './sites';

/** Values of `search_connections.status` (null: never connected). */
export const SEARCH_STATUSES = ['pending-property', 'connected', 'error', 'revoked'] as const;
export type SearchStatus = (typeof SEARCH_STATUSES)[number];

export const searchConnections = pgTable(
  'search_connections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenant_id: text('tenant_id').notNull(),
    site_id: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    status: text('status').$type<SearchStatus>(),
    account_email: text('account_email'),
    property: text('property'),
    /** AES-GCM ciphertext; the refresh token never leaves the server in plaintext. */
    refresh_token_enc: text('refresh_token_enc'),
    analytics_synced_at: epochMs('analytics_synced_at'),
    error: text('error'),
    created_at: epochMs('created_at').notNull(),
    updated_at: epochMs('updated_at').notNull(),
    /** When the daily analytics sync is next due; null: not armed (no property, error, revoked). */
    next_sync_at: epochMs('next_sync_at'),
    /** Traffic-drop alert: fires when the last 7 days' clicks are this many percent below the 7 before. */
    drop_threshold_pct: integer('drop_threshold_pct').notNull().default(30),
    /** ... and the 7 days before had at least this many clicks (a small site's noise is no drop). */
    drop_min_clicks: integer('drop_min_clicks').notNull().default(100),
    /** 1 while a drop has been alerted and not recovered: one alert per drop. */
    drop_alerted: integer('drop_alerted').$type<0 | 1>().notNull().default(0),
  },
  (t) => [
    uniqueIndex('search_connections_site_idx').on(t.tenant_id, t.site_id),
    index('search_connections_due_idx').on(t.next_sync_at).where(sql`${t.next_sync_at} is not null`),
  ],
);

/** One final day of a site's Search Console property (dimension `date`, search type web). */
export const searchAnalytics = pgTable(
  'search_analytics',
  {
    tenant_id: text('tenant_id').notNull(),
    site_id: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    /** `YYYY-MM-DD`, Search Console's day (Pacific time). */
    day: text('day').notNull(),
    clicks: integer('clicks').notNull(),
    impressions: integer('impressions').notNull(),
    ctr: doublePrecision('ctr').notNull(),
    position: doublePrecision('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.site_id, t.day] }),
    index('search_analytics_tenant_idx').on(t.tenant_id, t.site_id),
  ],
);

export const fieldData = pgTable(
  'field_data',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenant_id: text('tenant_id').notNull(),
    site_id: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    form_factor: text('form_factor').notNull().default('ALL'),
    period_end: text('period_end').notNull(),
    lcp: doublePrecision('lcp'),
    inp: doublePrecision('inp'),
    cls: doublePrecision('cls'),
    ttfb: doublePrecision('ttfb'),
    collected_at: epochMs('collected_at').notNull(),
  },
  (t) => [uniqueIndex('field_data_window_idx').on(t.tenant_id, t.site_id, t.form_factor, t.period_end)],
);

/** Per site with the Performance app: the daily sync's clock and what the regression alert compares with. */
export const fieldDataSyncs = pgTable(
  'field_data_syncs',
  {
    site_id: uuid('site_id')
      .primaryKey()
      .references(() => sites.id, { onDelete: 'cascade' }),
    tenant_id: text('tenant_id').notNull(),
    /** The origin last queried (the root URL's, after its redirects). */
    origin: text('origin'),
    /** The last non-null verdict of all devices (`pass` or `fail`): a flip from pass to fail alerts. */
    verdict: text('verdict').$type<'pass' | 'fail'>(),
    /** The collection period that verdict was computed on. */
    verdict_period_end: text('verdict_period_end'),
    next_sync_at: epochMs('next_sync_at').notNull(),
    /** Why the last sync failed (null after a good one); never shown with secrets. */
    last_error: text('last_error'),
    updated_at: epochMs('updated_at').notNull(),
  },
  (t) => [index('field_data_syncs_due_idx').on(t.next_sync_at)],
);

/**
 * Requests made to a rate-limited third-party API, counted per time slot and shared by every
 * process (the CrUX API's quota is per Google Cloud project, not per server).
 */
export const apiRateSlots = pgTable(
  'api_rate_slots',
  {
    api: text('api').notNull(),
    slot_start: epochMs('slot_start').notNull(),
    used: integer('used').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.api, t.slot_start] })],
);
