import { sql } from 'drizzle-orm';
import { doublePrecision, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { epochMs, flag } from './columns';
import { sites } from './sites';

export const uptimeMonitors = pgTable(
  'uptime_monitors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    site_id: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    tenant_id: text('tenant_id').notNull(),
    url: text('url').notNull(),
    name: text('name'),
    cadence_seconds: integer('cadence_seconds').notNull().default(60),
    timeout_seconds: integer('timeout_seconds').notNull().default(10),
    enabled: flag('enabled'),
    alert_emails: text('alert_emails'),
    alert_webhooks: text('alert_webhooks'),
    status: text('status', { enum: ['up', 'degraded', 'down', 'unknown'] })
      .notNull()
      .default('unknown'),
    status_since: epochMs('status_since'),
    last_checked_at: epochMs('last_checked_at'),
    /** Internal: when the next probe round is due. */
    next_probe_at: epochMs('next_probe_at'),
    created_at: epochMs('created_at').notNull(),
    updated_at: epochMs('updated_at').notNull(),
  },
  (t) => [
    index('uptime_monitors_site_idx').on(t.tenant_id, t.site_id),
    index('uptime_monitors_due_idx').on(t.next_probe_at).where(sql`${t.enabled} = 1`),
  ],
);

export const uptimeIncidents = pgTable(
  'uptime_incidents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenant_id: text('tenant_id').notNull(),
    monitor_id: uuid('monitor_id')
      .notNull()
      .references(() => uptimeMonitors.id, { onDelete: 'cascade' }),
    down_at: epochMs('down_at').notNull(),
    recovered_at: epochMs('recovered_at'),
    cause: text('cause', { enum: ['dns', 'tls', 'timeout', 'http_5xx', 'http_4xx', 'redirect', 'network'] }),
    regions: text('regions'),
    created_at: epochMs('created_at').notNull(),
  },
  (t) => [
    index('uptime_incidents_monitor_idx').on(t.tenant_id, t.monitor_id, t.down_at),
    // One open incident per monitor.
    uniqueIndex('uptime_incidents_open_idx').on(t.monitor_id).where(sql`${t.recovered_at} is null`),
  ],
);

export const probeResults = pgTable(
  'probe_results',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenant_id: text('tenant_id').notNull(),
    monitor_id: uuid('monitor_id')
      .notNull()
      .references(() => uptimeMonitors.id, { onDelete: 'cascade' }),
    region: text('region', { enum: ['na', 'eu', 'as', 'oc'] }).notNull(),
    checked_at: epochMs('checked_at').notNull(),
    ok: integer('ok').notNull(),
    status_code: integer('status_code'),
    latency_ms: doublePrecision('latency_ms'),
    cause: text('cause'),
    detail: text('detail'),
  },
  (t) => [index('probe_results_monitor_idx').on(t.monitor_id, t.region, t.checked_at)],
);

export const probeHourlyBuckets = pgTable(
  'probe_hourly_buckets',
  {
    tenant_id: text('tenant_id').notNull(),
    monitor_id: uuid('monitor_id')
      .notNull()
      .references(() => uptimeMonitors.id, { onDelete: 'cascade' }),
    region: text('region', { enum: ['na', 'eu', 'as', 'oc'] }).notNull(),
    bucket_start: epochMs('bucket_start').notNull(),
    total: integer('total').notNull(),
    failed: integer('failed').notNull(),
    p50_ms: doublePrecision('p50_ms'),
    p95_ms: doublePrecision('p95_ms'),
  },
  (t) => [uniqueIndex('probe_hourly_buckets_key_idx').on(t.monitor_id, t.region, t.bucket_start)],
);
