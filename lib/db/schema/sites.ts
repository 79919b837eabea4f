import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './auth';
import { epochMs, flag } from './columns';

export const sites = pgTable(
  'sites',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenant_id: text('tenant_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    hostname: text('hostname').notNull(),
    root_url: text('root_url').notNull(),
    cadence_minutes: integer('cadence_minutes').notNull(),
    max_pages: integer('max_pages').notNull(),
    max_concurrency: integer('max_concurrency').notNull(),
    enabled: flag('enabled'),
    last_run_at: epochMs('last_run_at'),
    next_run_at: epochMs('next_run_at'),
    created_at: epochMs('created_at').notNull(),
    scanner_enabled: flag('scanner_enabled'),
    a11y_enabled: flag('a11y_enabled'),
    a11y_cadence_minutes: integer('a11y_cadence_minutes'),
    a11y_next_run_at: epochMs('a11y_next_run_at'),
    performance_enabled: flag('performance_enabled'),
    uptime_enabled: flag('uptime_enabled'),
    seo_enabled: flag('seo_enabled'),
    fielddata_status: text('fielddata_status').$type<'ok' | 'no-data'>(),
    fielddata_checked_at: epochMs('fielddata_checked_at'),
    /** Path globs the crawl and the reports leave out (the API's `excludePaths`). */
    exclude_paths: jsonb('exclude_paths').$type<string[]>().notNull().default([]),
    /** Query parameter names dropped before crawling (the API's `stripParams`). */
    strip_params: jsonb('strip_params').$type<string[]>().notNull().default([]),
  },
  (t) => [
    index('sites_tenant_idx').on(t.tenant_id, t.created_at),
    // The scheduler's scan: enabled sites by due time.
    index('sites_due_idx').on(t.next_run_at).where(sql`${t.enabled} = 1`),
    index('sites_a11y_due_idx').on(t.a11y_next_run_at).where(sql`${t.a11y_enabled} = 1`),
  ],
);

export type Site = typeof sites.$inferSelect;
