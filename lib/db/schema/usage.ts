import { index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './auth';
import { epochMs } from './columns';

/**
 * One row per finished run. The hostname is copied and there is no foreign key to the site, so a
 * deleted site still shows in its month; the unique run id makes a retried finalization record once.
 */
export const usageLedger = pgTable(
  'usage_ledger',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenant_id: text('tenant_id').notNull(),
    site_id: uuid('site_id').notNull(),
    hostname: text('hostname').notNull(),
    run_id: uuid('run_id').notNull(),
    run_kind: text('run_kind', { enum: ['crawl', 'a11y'] }).notNull(),
    billing_period: text('billing_period').notNull(),
    pages_crawled: integer('pages_crawled').notNull().default(0),
    pages_rendered: integer('pages_rendered').notNull().default(0),
    links_checked: integer('links_checked').notNull().default(0),
    created_at: epochMs('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('usage_ledger_run_idx').on(t.run_id),
    index('usage_ledger_tenant_period_idx').on(t.tenant_id, t.billing_period, t.site_id),
    index('usage_ledger_site_idx').on(t.tenant_id, t.site_id, t.billing_period),
  ],
);

/** An app paused at its allowance for the rest of a billing period (overage off). */
export const appPauses = pgTable(
  'app_pauses',
  {
    tenant_id: text('tenant_id').notNull(),
    site_id: uuid('site_id').notNull(),
    app: text('app', { enum: ['crawl', 'a11y'] }).notNull(),
    billing_period: text('billing_period').notNull(),
    paused_at: epochMs('paused_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.site_id, t.app, t.billing_period] }),
    index('app_pauses_tenant_idx').on(t.tenant_id),
  ],
);

export const billingSettings = pgTable('billing_settings', {
  tenant_id: text('tenant_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  overage_enabled: integer('overage_enabled').notNull().default(0),
  updated_at: epochMs('updated_at').notNull(),
});
