import { sql } from 'drizzle-orm';
import {
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { epochMs, flag } from './columns';
import { sites } from './sites';

/*
 * The jsonb columns below hold lib/uptime's own shapes (a region's probe result, a round's
 * consensus); lib/uptime/store.ts reads and writes them typed. They are declared as plain JSON
 * here because the database layer sits below the domain and imports nothing from it.
 */
type JsonObject = object;

/** A monitor's alert webhook as stored: its kind and its URL sealed (lib/crypto/webhook-urls.ts). */
export type StoredAlertWebhook = { kind: string; sealedUrl: string };

export const uptimeMonitors = pgTable(
  'uptime_monitors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    site_id: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    tenant_id: text('tenant_id').notNull(),
    /**
     * `http`: the URL probed from the regions on the cadence. `heartbeat`: no URL; a job pings the
     * monitor's secret ping URL (lib/uptime/heartbeats.ts) at least every `period_seconds`, and a
     * ping missing for the period plus `grace_seconds` opens an incident (`missed_heartbeat`).
     */
    kind: text('kind', { enum: ['http', 'heartbeat'] })
      .notNull()
      .default('http'),
    /** The URL probed; null for a heartbeat monitor, which has none. */
    url: text('url'),
    name: text('name'),
    cadence_seconds: integer('cadence_seconds').notNull().default(60),
    timeout_seconds: integer('timeout_seconds').notNull().default(10),
    enabled: flag('enabled'),
    /** The monitor's own alert addresses, beside the notification settings' lists. */
    alert_emails: jsonb('alert_emails').$type<string[]>(),
    /** The monitor's own alert webhooks, URLs sealed (lib/notify/stored-webhooks.ts). */
    alert_webhooks: jsonb('alert_webhooks').$type<StoredAlertWebhook[]>(),
    status: text('status', { enum: ['up', 'degraded', 'down', 'unknown'] })
      .notNull()
      .default('unknown'),
    status_since: epochMs('status_since'),
    last_checked_at: epochMs('last_checked_at'),
    /**
     * Expectations of an http monitor (lib/uptime/expectations.ts): the final status codes that
     * count as up (`["200-299", "401"]`; empty: 2xx and 3xx), and a text that must appear in the
     * first 1 MiB of the body (or must not, with `keyword_absent`).
     */
    expected_statuses: jsonb('expected_statuses').$type<string[]>().notNull().default([]),
    keyword: text('keyword'),
    keyword_absent: flag('keyword_absent').default(0),
    /** A heartbeat monitor's period and grace (null for http monitors). */
    period_seconds: integer('period_seconds'),
    grace_seconds: integer('grace_seconds'),
    /**
     * A heartbeat monitor's ping token: its SHA-256 (hex) only, as for API keys; the token is shown
     * once, at creation and at each rotation. `ping_token_hint` is its first characters, for the
     * masked ping URL.
     */
    ping_token_hash: text('ping_token_hash'),
    ping_token_hint: text('ping_token_hint'),
    last_ping_at: epochMs('last_ping_at'),
    /**
     * Internal, the per-token ping limit, kept on the row the ping writes anyway: the minute
     * (epoch ms of its start) the count is for, and the pings counted in it.
     */
    ping_window: epochMs('ping_window'),
    ping_count: integer('ping_count').notNull().default(0),
    /**
     * Internal: when the next probe round is due; for a heartbeat monitor, the deadline of its next
     * ping (the last ping, or the moment watching began, plus the period and the grace).
     */
    next_probe_at: epochMs('next_probe_at'),
    /**
     * Internal, the round lease (lib/uptime/rounds.ts): a worker that claims the due round sets
     * `round_at` to its scheduled time, `lease_id` to its own token and `lease_until` past the
     * round's worst case; only the holder of `lease_id` may complete it, and an expired lease is
     * claimed again (the interrupted round is probed afresh).
     */
    round_at: epochMs('round_at'),
    lease_id: uuid('lease_id'),
    lease_until: epochMs('lease_until'),
    /** Internal: certificate expiry warnings already queued (one per threshold and certificate). */
    cert_warnings: jsonb('cert_warnings')
      .$type<{ expiresAt: number; days: number }[]>()
      .notNull()
      .default([]),
    /**
     * The registrable domain (eTLD+1) of the URL's host, whose registration expiry is watched
     * (lib/uptime/domain-expiry.ts), and the URL it was derived from: while `domain_of_url` differs
     * from `url` (a new monitor, an edited URL) the scheduler's next minute derives it again. null
     * for a heartbeat monitor or a host with no registrable domain (an IP address).
     */
    domain: text('domain'),
    domain_of_url: text('domain_of_url'),
    /**
     * The domain's registration as its row in `domain_registrations` last said, copied here for the
     * monitor's readers; `none`: the host has no registrable domain.
     */
    domain_state: text('domain_state', {
      enum: ['pending', 'found', 'no_expiry', 'not_found', 'no_rdap', 'failed', 'none'],
    }),
    domain_expires_at: epochMs('domain_expires_at'),
    domain_checked_at: epochMs('domain_checked_at'),
    domain_note: text('domain_note'),
    /** Internal: domain expiry warnings already queued (one per threshold and expiry date). */
    domain_warnings: jsonb('domain_warnings')
      .$type<{ expiresAt: number; days: number }[]>()
      .notNull()
      .default([]),
    /** Internal: each region's latest probe, by region (the live view). */
    latest_probes: jsonb('latest_probes').$type<Record<string, JsonObject>>().notNull().default({}),
    /** Internal: the latest round's consensus (the live view); null before the first round. */
    last_consensus: jsonb('last_consensus').$type<JsonObject>(),
    created_at: epochMs('created_at').notNull(),
    updated_at: epochMs('updated_at').notNull(),
  },
  (t) => [
    index('uptime_monitors_site_idx').on(t.tenant_id, t.site_id),
    index('uptime_monitors_due_idx').on(t.next_probe_at).where(sql`${t.enabled} = 1`),
    // A ping finds its monitor by the token's hash alone.
    uniqueIndex('uptime_monitors_ping_token_idx').on(t.ping_token_hash),
    // A domain's read is copied onto every monitor of it.
    index('uptime_monitors_domain_idx').on(t.domain),
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
    cause: text('cause', {
      enum: [
        'dns',
        'tls',
        'timeout',
        'http_5xx',
        'http_4xx',
        'expectation',
        'redirect',
        'network',
        'missed_heartbeat',
      ],
    }),
    /** Each region's probe result of the round that opened it (lib/uptime's `RegionResult`). */
    regions: jsonb('regions').$type<JsonObject[]>(),
    created_at: epochMs('created_at').notNull(),
    /** Internal, while open: healthy rounds in a row since the last down round, and when they began. */
    healthy_rounds: integer('healthy_rounds').notNull().default(0),
    healthy_since: epochMs('healthy_since'),
    /**
     * What closed it: `recovery` (2 healthy rounds; `recovered_at` the first of them), or what
     * stopped the probing while it was open (`monitor` paused, `app` off, `allowance` held;
     * `recovered_at` the moment it stopped: an incident cannot go on while nothing is checked).
     * Null while open.
     */
    closed_by: text('closed_by', { enum: ['recovery', 'monitor', 'app', 'allowance'] }),
  },
  (t) => [
    index('uptime_incidents_monitor_idx').on(t.tenant_id, t.monitor_id, t.down_at),
    // One open incident per monitor.
    uniqueIndex('uptime_incidents_open_idx').on(t.monitor_id).where(sql`${t.recovered_at} is null`),
  ],
);

/**
 * When a monitor was not probed (lib/uptime/pauses.ts): paused by its own `enabled`, stopped with
 * its site's Uptime app, or held at the allowance. Uptime is measured over the time it was
 * watched, so these spans count neither as up nor as down. Open (`ended_at` null) while it lasts.
 */
export const uptimePauses = pgTable(
  'uptime_pauses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenant_id: text('tenant_id').notNull(),
    monitor_id: uuid('monitor_id')
      .notNull()
      .references(() => uptimeMonitors.id, { onDelete: 'cascade' }),
    reason: text('reason', { enum: ['monitor', 'app', 'allowance'] }).notNull(),
    started_at: epochMs('started_at').notNull(),
    ended_at: epochMs('ended_at'),
  },
  (t) => [
    index('uptime_pauses_monitor_idx').on(t.tenant_id, t.monitor_id, t.started_at),
    // One open pause per monitor.
    uniqueIndex('uptime_pauses_open_idx').on(t.monitor_id).where(sql`${t.ended_at} is null`),
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
    /** The round's scheduled time (lateness = checked_at - round_at for a first attempt). */
    round_at: epochMs('round_at').notNull(),
    /** When the counted attempt started. */
    checked_at: epochMs('checked_at').notNull(),
    ok: integer('ok').notNull(),
    status_code: integer('status_code'),
    /** The probe's total time (the hourly percentiles are over the successful ones). */
    latency_ms: doublePrecision('latency_ms'),
    dns_ms: doublePrecision('dns_ms'),
    connect_ms: doublePrecision('connect_ms'),
    tls_ms: doublePrecision('tls_ms'),
    first_byte_ms: doublePrecision('first_byte_ms'),
    cert_expires_at: epochMs('cert_expires_at'),
    attempts: integer('attempts').notNull().default(1),
    cause: text('cause'),
    detail: text('detail'),
  },
  (t) => [
    index('probe_results_monitor_idx').on(t.monitor_id, t.region, t.checked_at),
    // The hourly rollup takes every result of the closed hours, oldest first.
    index('probe_results_checked_idx').on(t.checked_at),
  ],
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
  (t) => [
    uniqueIndex('probe_hourly_buckets_key_idx').on(t.monitor_id, t.region, t.bucket_start),
    // Buckets older than 90 days are pruned.
    index('probe_hourly_buckets_start_idx').on(t.bucket_start),
  ],
);

export type UptimeMonitor = typeof uptimeMonitors.$inferSelect;
export type UptimeIncident = typeof uptimeIncidents.$inferSelect;
export type UptimePause = typeof uptimePauses.$inferSelect;
