import { index, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './auth';
import { bytes, epochMs } from './columns';
import { sites } from './sites';

/**
 * The last monthly report PDF printed per (tenant, site, month), with the fingerprint of the HTML it
 * was printed from (lib/reports/cache.ts): a request whose report renders to the same HTML is
 * answered these bytes instead of launching Chromium again; any other is printed and replaces the
 * row. Keyed on the tenant too, and read only with it.
 */
export const reportPdfs = pgTable(
  'report_pdfs',
  {
    tenant_id: text('tenant_id').notNull(),
    site_id: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    period: text('period').notNull(),
    fingerprint: text('fingerprint').notNull(),
    pdf: bytes('pdf').notNull(),
    rendered_at: epochMs('rendered_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenant_id, t.site_id, t.period] })],
);

/**
 * The server-wide print queue (lib/reports/queue.ts): one row per request that needs Chromium,
 * `waiting` for its turn or `printing`, until `until`. At most REPORT_PRINTS_MAX rows print at once
 * and one per organization; REPORT_PRINT_QUEUE_MAX rows wait. A row whose process died is not
 * renewed and is ignored and removed once `until` has passed: a waiting request renews its row
 * while it polls, a print's row lasts for the longest a print may take.
 */
export const reportPrints = pgTable(
  'report_prints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenant_id: text('tenant_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    state: text('state').$type<'waiting' | 'printing'>().notNull(),
    queued_at: epochMs('queued_at').notNull(),
    until: epochMs('until').notNull(),
  },
  (t) => [index('report_prints_tenant_idx').on(t.tenant_id)],
);
