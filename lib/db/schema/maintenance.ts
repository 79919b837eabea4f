import { index, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { epochMs, flag } from './columns';
import { sites } from './sites';
import { uptimeMonitors } from './uptime';

/**
 * Maintenance windows of a site (lib/uptime/maintenance.ts): from `starts_at` to `ends_at` the
 * covered monitors are still probed, but a failing round opens no incident and alerts nobody, and
 * the time counts neither as up nor as down. `all_monitors` covers every monitor of the site,
 * those added later included; otherwise the monitors listed in maintenance_window_monitors.
 */
export const maintenanceWindows = pgTable(
  'maintenance_windows',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenant_id: text('tenant_id').notNull(),
    site_id: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    starts_at: epochMs('starts_at').notNull(),
    ends_at: epochMs('ends_at').notNull(),
    all_monitors: flag('all_monitors'),
    created_at: epochMs('created_at').notNull(),
    updated_at: epochMs('updated_at').notNull(),
  },
  (t) => [
    index('maintenance_windows_site_idx').on(t.tenant_id, t.site_id, t.starts_at),
    // A round asks whether its monitor's site has a window open now: windows not over yet.
    index('maintenance_windows_ends_idx').on(t.site_id, t.ends_at),
  ],
);

/** The monitors a window lists (when it does not cover them all); a deleted monitor leaves every window. */
export const maintenanceWindowMonitors = pgTable(
  'maintenance_window_monitors',
  {
    window_id: uuid('window_id')
      .notNull()
      .references(() => maintenanceWindows.id, { onDelete: 'cascade' }),
    monitor_id: uuid('monitor_id')
      .notNull()
      .references(() => uptimeMonitors.id, { onDelete: 'cascade' }),
    tenant_id: text('tenant_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.window_id, t.monitor_id] }),
    index('maintenance_window_monitors_monitor_idx').on(t.monitor_id),
  ],
);

export type MaintenanceWindow = typeof maintenanceWindows.$inferSelect;
