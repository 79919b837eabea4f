import { doublePrecision, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { epochMs } from './columns';
import { sites } from './sites';

export const searchConnections = pgTable(
  'search_connections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenant_id: text('tenant_id').notNull(),
    site_id: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    status: text('status'),
    account_email: text('account_email'),
    property: text('property'),
    /** AES-GCM ciphertext; the refresh token never leaves the server in plaintext. */
    refresh_token_enc: text('refresh_token_enc'),
    analytics_synced_at: epochMs('analytics_synced_at'),
    error: text('error'),
    created_at: epochMs('created_at').notNull(),
    updated_at: epochMs('updated_at').notNull(),
  },
  (t) => [uniqueIndex('search_connections_site_idx').on(t.tenant_id, t.site_id)],
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
