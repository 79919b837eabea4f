import { customType, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './auth';
import { epochMs } from './columns';
import { sites } from './sites';

/** Raw bytes: PGlite reads bytea as a Uint8Array, node-postgres and Neon as a Buffer (one). */
const bytes = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

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
 * Who is printing a report for the organization now, until when (lib/reports/cache.ts): one
 * Chromium print per organization at a time, across every server process. A holder that died
 * leaves a lease that simply runs out.
 */
export const reportRenderLeases = pgTable('report_render_leases', {
  tenant_id: text('tenant_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  holder: text('holder').notNull(),
  until: epochMs('until').notNull(),
});
