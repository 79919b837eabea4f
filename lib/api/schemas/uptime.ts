import { z } from 'zod';
import { notFound } from '@/lib/api/errors';
import { eventAlertsSchema } from '@/lib/notify/alerted';
import { DOMAIN_EXPIRY_STATES } from '@/lib/uptime/domain';
import { statusRange } from '@/lib/uptime/expectations';
import {
  CADENCES_SECONDS,
  DEFAULT_CADENCE_SECONDS,
  DEFAULT_GRACE_SECONDS,
  DEFAULT_METRICS_HOURS,
  DEFAULT_TIMEOUT_SECONDS,
  MAX_ALERT_EMAILS,
  MAX_ALERT_WEBHOOKS,
  MAX_EXPECTED_STATUSES,
  MAX_GRACE_SECONDS,
  MAX_KEYWORD_LENGTH,
  MAX_METRICS_HOURS,
  MAX_MONITOR_NAME_LENGTH,
  MAX_PERIOD_SECONDS,
  MAX_TIMEOUT_SECONDS,
  MIN_GRACE_SECONDS,
  MIN_METRICS_HOURS,
  MIN_PERIOD_SECONDS,
  MIN_TIMEOUT_SECONDS,
  PINGS_PER_MINUTE,
} from '@/lib/uptime/limits';
import type { MonitorSnapshot } from '@/lib/uptime/live';
import type { MonitorMetrics } from '@/lib/uptime/metrics';
import type { MonitorEdit, MonitorSettings } from '@/lib/uptime/monitors';
import type { IncidentResource, MonitorResource } from '@/lib/uptime/resource';
import {
  CAUSES,
  INCIDENT_CAUSES,
  MONITOR_KINDS,
  MONITOR_NOT_FOUND,
  MONITOR_STATUSES,
  REGIONS,
} from '@/lib/uptime/types';
import { type Holds, pathId, type Same, strictBoolean, wholeNumber } from './common';
import { emailList, webhookList } from './notifications';
import { siteIdParams } from './sites';
import { targetUrl } from './target-url';

/*
 * The uptime monitor endpoints (spec: Uptime monitors; Limits), requests and responses. Defaults
 * are applied here rather than by the service (unlike sites, whose defaults depend on stored
 * state): a monitor's defaults are constants, and a complete `CreateMonitorInput` leaves the
 * service nothing to forget.
 */

/** Path `{id}` and `{monitorId}`: a malformed monitor id is the same 404 as an unknown one. */
export const monitorIdParams = siteIdParams.extend({
  monitorId: pathId(() => notFound(MONITOR_NOT_FOUND)).describe("the monitor's id"),
});

const cadenceSeconds = () =>
  wholeNumber().refine((n) => (CADENCES_SECONDS as readonly number[]).includes(n), {
    error: `must be one of ${CADENCES_SECONDS.join(', ')}`,
  });

const timeoutSeconds = () =>
  wholeNumber()
    .min(MIN_TIMEOUT_SECONDS, `must be at least ${MIN_TIMEOUT_SECONDS}`)
    .max(MAX_TIMEOUT_SECONDS, `must be at most ${MAX_TIMEOUT_SECONDS}`);

/** null (or a blank string) shows the URL instead. */
const name = () =>
  z
    .string({ error: 'must be a string or null' })
    .trim()
    .max(MAX_MONITOR_NAME_LENGTH, `must be at most ${MAX_MONITOR_NAME_LENGTH} characters`)
    .nullable()
    .transform((value) => (value === '' ? null : value));

const alertEmails = () => emailList(MAX_ALERT_EMAILS);
const alertWebhooks = () => webhookList(MAX_ALERT_WEBHOOKS);

const described = {
  url: "the http(s) URL probed; its host may differ from the site's, and must be one the service can reach",
  name: `at most ${MAX_MONITOR_NAME_LENGTH} characters; null (or blank) shows the URL`,
  cadenceSeconds: `seconds between rounds: ${CADENCES_SECONDS.join(', ')}`,
  timeoutSeconds: `${MIN_TIMEOUT_SECONDS} to ${MAX_TIMEOUT_SECONDS} seconds for the whole probe, redirects included; a slower probe fails (timeout)`,
  enabled:
    'false pauses the monitor (probing stops; monitor and history stay); true resumes it with a round at once',
  alertEmails: `extra addresses alerted on top of the notification settings (at most ${MAX_ALERT_EMAILS})`,
  alertWebhooks: `extra webhooks alerted on top of the notification settings (at most ${MAX_ALERT_WEBHOOKS})`,
};

/** One expected status entry: a code or an inclusive range, `"200-299"`. */
const expectedStatuses = () =>
  z
    .array(
      z
        .string({ error: 'must be a status code or a range like "200-299"' })
        .trim()
        .refine((entry) => statusRange(entry) !== null, {
          error: 'must be a status code (100-599) or a range like "200-299" (from <= to)',
        })
        .describe('a status code, or an inclusive range "from-to"'),
      { error: 'must be a list of status codes or ranges' },
    )
    .max(MAX_EXPECTED_STATUSES, `must list at most ${MAX_EXPECTED_STATUSES} codes or ranges`);

/** null (or a blank string) reads no body. */
const keyword = () =>
  z
    .string({ error: 'must be a string or null' })
    .max(MAX_KEYWORD_LENGTH, `must be at most ${MAX_KEYWORD_LENGTH} characters`)
    .nullable()
    .transform((value) => (value === null || value.trim() === '' ? null : value));

const periodSeconds = () =>
  wholeNumber()
    .min(MIN_PERIOD_SECONDS, `must be at least ${MIN_PERIOD_SECONDS} (a minute)`)
    .max(MAX_PERIOD_SECONDS, `must be at most ${MAX_PERIOD_SECONDS} (30 days)`);

const graceSeconds = () =>
  wholeNumber()
    .min(MIN_GRACE_SECONDS, `must be at least ${MIN_GRACE_SECONDS}`)
    .max(MAX_GRACE_SECONDS, `must be at most ${MAX_GRACE_SECONDS} (7 days)`);

const expectationDescriptions = {
  expectedStatuses:
    'http monitors: the final status codes that count as up, codes or inclusive ranges ("200-299", "401"); empty: 2xx and 3xx. Another status fails with cause expectation',
  keyword: `http monitors: a text (at most ${MAX_KEYWORD_LENGTH} characters, case-sensitive) that must appear in the first 1 MiB of the body, or must not with keywordAbsent; null reads no body. A miss fails with cause expectation`,
  keywordAbsent: 'http monitors: true when the keyword must not appear (an error banner); default false',
  periodSeconds: `heartbeat monitors: the most seconds between two pings of the job, ${MIN_PERIOD_SECONDS} to ${MAX_PERIOD_SECONDS}`,
  graceSeconds: `heartbeat monitors: seconds after a missed period before the incident opens, ${MIN_GRACE_SECONDS} to ${MAX_GRACE_SECONDS}`,
};

const kindFields = {
  expectedStatuses: expectedStatuses()
    .optional()
    .describe(`${expectationDescriptions.expectedStatuses}; default []`),
  keyword: keyword().optional().describe(`${expectationDescriptions.keyword}; default null`),
  keywordAbsent: strictBoolean().optional().describe(expectationDescriptions.keywordAbsent),
  periodSeconds: periodSeconds().optional().describe(expectationDescriptions.periodSeconds),
  graceSeconds: graceSeconds()
    .optional()
    .describe(`${expectationDescriptions.graceSeconds}; default ${DEFAULT_GRACE_SECONDS}`),
};

const HTTP_ONLY = ['expectedStatuses', 'keyword', 'keywordAbsent'] as const;
const HEARTBEAT_ONLY = ['periodSeconds', 'graceSeconds'] as const;

/** POST /v1/sites/{id}/uptime/monitors. */
export const createMonitorBody = z
  .strictObject({
    kind: z
      .enum(MONITOR_KINDS)
      .default('http')
      .describe(
        "http (default): the url is probed from every region on the cadence. heartbeat: no url; a job pings the monitor's ping URL at least every periodSeconds, and an incident opens when a ping is missed for the period plus graceSeconds",
      ),
    url: targetUrl
      .optional()
      .describe(`required for http monitors: ${described.url}; a heartbeat monitor has none`),
    name: name().default(null).describe(described.name),
    cadenceSeconds: cadenceSeconds()
      .default(DEFAULT_CADENCE_SECONDS)
      .describe(`${described.cadenceSeconds}; default ${DEFAULT_CADENCE_SECONDS} (http monitors)`),
    timeoutSeconds: timeoutSeconds()
      .default(DEFAULT_TIMEOUT_SECONDS)
      .describe(`${described.timeoutSeconds}; default ${DEFAULT_TIMEOUT_SECONDS} (http monitors)`),
    enabled: strictBoolean().default(true).describe(`${described.enabled}; default true`),
    alertEmails: alertEmails().default([]).describe(described.alertEmails),
    alertWebhooks: alertWebhooks().default([]).describe(described.alertWebhooks),
    ...kindFields,
  })
  .superRefine((body, ctx) => {
    const heartbeat = body.kind === 'heartbeat';
    if (!heartbeat && body.url === undefined)
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'is required' });
    if (heartbeat && body.url !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['url'],
        message: 'a heartbeat monitor has no URL: its job pings it',
      });
    }
    if (heartbeat && body.periodSeconds === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['periodSeconds'],
        message: 'is required for a heartbeat monitor',
      });
    }
    for (const field of heartbeat ? HTTP_ONLY : HEARTBEAT_ONLY) {
      if (body[field] !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: `applies to ${heartbeat ? 'http' : 'heartbeat'} monitors only`,
        });
      }
    }
  })
  .transform(
    (body): MonitorSettings => ({
      kind: body.kind,
      url: body.url ?? null,
      name: body.name,
      cadenceSeconds: body.cadenceSeconds,
      timeoutSeconds: body.timeoutSeconds,
      enabled: body.enabled,
      alertEmails: body.alertEmails,
      alertWebhooks: body.alertWebhooks,
      expectedStatuses: body.expectedStatuses ?? [],
      keyword: body.keyword ?? null,
      keywordAbsent: body.keywordAbsent ?? false,
      periodSeconds: body.kind === 'heartbeat' ? (body.periodSeconds ?? null) : null,
      graceSeconds: body.kind === 'heartbeat' ? (body.graceSeconds ?? DEFAULT_GRACE_SECONDS) : null,
    }),
  );
export type CreateMonitorInput = z.output<typeof createMonitorBody>;

/**
 * PATCH /v1/sites/{id}/uptime/monitors/{monitorId}: omitted fields keep their value. The kind is
 * fixed at creation; a field of the other kind is a 422 naming it (the service knows the kind).
 */
export const updateMonitorBody = z.strictObject({
  url: targetUrl.optional().describe(`${described.url}; a new URL gets a round at once (http monitors)`),
  name: name().optional().describe(described.name),
  cadenceSeconds: cadenceSeconds().optional().describe(described.cadenceSeconds),
  timeoutSeconds: timeoutSeconds().optional().describe(described.timeoutSeconds),
  enabled: strictBoolean().optional().describe(described.enabled),
  alertEmails: alertEmails().optional().describe(`${described.alertEmails}; replaces the list`),
  alertWebhooks: alertWebhooks().optional().describe(`${described.alertWebhooks}; replaces the list`),
  ...kindFields,
  graceSeconds: graceSeconds().optional().describe(expectationDescriptions.graceSeconds),
});
export type UpdateMonitorInput = z.output<typeof updateMonitorBody>;

/** GET .../metrics?hours=: query strings are text, so the digits are read here. */
export const monitorMetricsQuery = z.object({
  hours: z
    .string()
    .regex(/^\d+$/, 'must be a whole number of hours')
    .transform(Number)
    .pipe(
      wholeNumber()
        .min(MIN_METRICS_HOURS, `must be at least ${MIN_METRICS_HOURS}`)
        .max(MAX_METRICS_HOURS, `must be at most ${MAX_METRICS_HOURS} (90 days)`),
    )
    .meta({ type: 'integer', minimum: MIN_METRICS_HOURS, maximum: MAX_METRICS_HOURS })
    .default(DEFAULT_METRICS_HOURS)
    .describe(
      `the range: this many hours back from now, ${MIN_METRICS_HOURS} to ${MAX_METRICS_HOURS} (90 days); default ${DEFAULT_METRICS_HOURS}`,
    ),
});
export type MonitorMetricsQuery = z.output<typeof monitorMetricsQuery>;

// ---------------------------------------------------------------------------------------------
// Responses. Persisted records (Monitor, Incident) are snake_case with 0/1 flags as the spec
// shows them; the live state and hourly buckets are camelCase.

const flag = (description: string) => z.union([z.literal(0), z.literal(1)]).describe(description);
const ms = (description: string) => z.int().describe(`${description} (epoch milliseconds)`);
const msOrNull = (description: string) => z.int().nullable().describe(`${description} (epoch milliseconds)`);
const count = (description: string) => z.int().min(0).describe(description);
const region = (description: string) => z.enum(REGIONS).describe(`${description}: na, eu, as or oc`);
const regions = (description: string) => z.array(z.enum(REGIONS).describe('a region')).describe(description);
const cause = (description: string) =>
  z
    .enum(CAUSES)
    .nullable()
    .describe(`${description}: ${CAUSES.join(', ')}; null when none`);
const incidentCause = (description: string) =>
  z
    .enum(INCIDENT_CAUSES)
    .nullable()
    .describe(`${description}: ${INCIDENT_CAUSES.join(', ')}; null when none`);

/** Spec: Uptime monitor. */
export const monitorSchema = z
  .object({
    id: z.uuid().describe("the monitor's id"),
    site_id: z.uuid().describe('the site it belongs to'),
    tenant_id: z.string().describe('the owning organization'),
    kind: z
      .enum(MONITOR_KINDS)
      .describe('http: a URL probed from every region on the cadence; heartbeat: a job pings its ping_url'),
    url: z.string().nullable().describe('the http(s) URL probed; null for a heartbeat monitor'),
    name: z.string().nullable().describe('its name; null shows the URL'),
    cadence_seconds: z.int().describe(`seconds between rounds: ${CADENCES_SECONDS.join(', ')}`),
    timeout_seconds: z
      .int()
      .min(MIN_TIMEOUT_SECONDS)
      .max(MAX_TIMEOUT_SECONDS)
      .describe('a probe slower than this many seconds fails'),
    enabled: flag('1 probed; 0 paused by its owner (monitor and history kept)'),
    alert_emails: z.string().nullable().describe('JSON-encoded array of extra alert addresses'),
    alert_webhooks: z
      .string()
      .nullable()
      .describe(
        'JSON-encoded array of extra alert webhooks ({kind, url}); url in full for owner and admin sessions, its origin only (path shown as …) for API keys and members, since a chat webhook URL is its credential',
      ),
    expected_statuses: z
      .array(z.string())
      .describe('http monitors: the final status codes or ranges that count as up; empty: 2xx and 3xx'),
    keyword: z
      .string()
      .nullable()
      .describe(
        'http monitors: a text looked for in the first 1 MiB of the body; null: the body is not read',
      ),
    keyword_absent: flag('1: the keyword must not appear; 0: it must'),
    period_seconds: z
      .int()
      .nullable()
      .describe('heartbeat monitors: the most seconds between two pings; null for http monitors'),
    grace_seconds: z
      .int()
      .nullable()
      .describe('heartbeat monitors: seconds after a missed period before the incident opens; null for http'),
    ping_url: z
      .string()
      .nullable()
      .describe(
        `heartbeat monitors: GET or POST it (no credential, no body) to report the job alive; at most ${PINGS_PER_MINUTE} pings a minute. In full only in the answer that created it or rotated it (the token is stored hashed); masked (…) everywhere else. null for http monitors`,
      ),
    last_ping_at: msOrNull('heartbeat monitors: the latest ping; null before the first'),
    status: z
      .enum(MONITOR_STATUSES)
      .describe(
        "the latest round's consensus: down (2+ regions failed), degraded (one region failed, or 2+ slow), up; unknown before the first round. A heartbeat monitor: up after a ping, down once a ping was missed for its period and grace, unknown before its first ping",
      ),
    status_since: msOrNull('when the current status began; null while unknown'),
    last_checked_at: msOrNull('the latest round; null before the first'),
    domain: z
      .string()
      .nullable()
      .describe(
        "http monitors: the registrable domain (eTLD+1, by the Public Suffix List) of the URL's host, whose registration expiry is read through RDAP and warned 30, 14 and 7 days ahead; null for a heartbeat monitor or a host with none (an IP address)",
      ),
    domain_expiry_state: z
      .enum(DOMAIN_EXPIRY_STATES)
      .nullable()
      .describe(
        "what the registry's RDAP server said of the domain: found (domain_expires_at), no_expiry (its record gives none), not_found (no such registration), no_rdap (IANA's bootstrap lists no RDAP server for its suffix, as for many country codes: not an error), failed (the latest read failed; domain_expires_at keeps the last date read), pending (not read yet), none (no registrable domain); null for a heartbeat monitor",
      ),
    domain_expires_at: msOrNull(
      "the domain registration's expiry, as the registry's RDAP server gives it (read at most daily); null when unknown",
    ),
    domain_expiry_checked_at: msOrNull(
      'the latest read of the domain (its result in domain_expiry_state); null before the first',
    ),
    domain_expiry_note: z
      .string()
      .nullable()
      .describe(
        'domain_expiry_state in words (why there is no date, what failed, when it is tried again); null when found',
      ),
    created_at: ms('when the monitor was created'),
    updated_at: ms('when its settings last changed'),
  })
  .strict()
  .meta({
    id: 'UptimeMonitor',
    description: 'A URL probed from four regions on a cadence (spec: Uptime monitor)',
  });

/** Spec: Uptime incident (event). */
export const incidentSchema = z
  .object({
    id: z.uuid().describe("the incident's id"),
    tenant_id: z.string().describe('the owning organization'),
    monitor_id: z.uuid().describe('the monitor that went down'),
    down_at: ms('the round that confirmed the outage'),
    recovered_at: msOrNull(
      'when it ended: the first of the 2 healthy rounds in a row that closed it, or the moment probing stopped (closed_by says which); null while open',
    ),
    cause: incidentCause(
      "the failing regions' majority cause; missed_heartbeat for a heartbeat monitor whose job did not ping in time",
    ),
    regions: z
      .string()
      .nullable()
      .describe("JSON array: every region's probe result in the confirming round"),
    created_at: ms('when it was recorded'),
    closed_by: z
      .enum(['recovery', 'monitor', 'app', 'allowance'])
      .nullable()
      .describe(
        "what closed it: recovery (2 healthy rounds, recovery notification sent), or what stopped the probing while it was open, with no notification since nothing recovered: monitor (paused), app (the site's Uptime app turned off), allowance (held past the monitor allowance); null while open",
      ),
  })
  .strict()
  .meta({
    id: 'UptimeIncident',
    description:
      'A downtime confirmed by 2 or more regions, closed after 2 healthy rounds or when the monitor stops being probed (spec: Uptime incident)',
  });

/** Spec: Hourly bucket (one closed hour of one region). */
export const hourlyBucketSchema = z
  .object({
    bucketStart: ms('start of the UTC hour'),
    region: region('the region that probed'),
    total: count('probes in the hour'),
    failed: count('failed probes in the hour'),
    p50Ms: z.number().nullable().describe("nearest-rank median of the hour's successful probes; null: none"),
    p95Ms: z
      .number()
      .nullable()
      .describe("nearest-rank 95th percentile of the hour's successful probes; null: none"),
  })
  .strict()
  .meta({ id: 'HourlyBucket', description: 'One closed UTC hour of one region (spec: Hourly bucket)' });

const phaseMs = (phase: string) =>
  z.number().nullable().describe(`milliseconds of ${phase}; null when it did not happen`);

/** One region's latest probe (live endpoint). */
export const regionProbeSchema = z
  .object({
    region: region('the region'),
    roundAt: ms('the round it belongs to (its scheduled time)'),
    checkedAt: ms('when the counted attempt started'),
    ok: z.boolean().describe('the probe succeeded (2xx or a final 3xx within the timeout)'),
    statusCode: z.int().nullable().describe('final HTTP status; null when no response came back'),
    totalMs: z
      .number()
      .describe('milliseconds from the request to the final response headers, hops included'),
    phases: z
      .object({
        dnsMs: phaseMs('the DNS lookup'),
        connectMs: phaseMs('the TCP connect'),
        tlsMs: phaseMs('the TLS handshake'),
        firstByteMs: phaseMs('waiting for the first byte'),
      })
      .strict()
      .describe("the final hop's connection, phase by phase"),
    tlsCertExpiresAt: msOrNull('the earliest certificate expiry on the way; null without HTTPS'),
    cause: cause('why it failed'),
    error: z.string().nullable().describe('what went wrong, in plain words; null when ok'),
    attempts: z.int().min(1).max(2).describe('2 when the first attempt failed and was retried'),
  })
  .strict()
  .meta({ id: 'RegionProbe', description: "One region's latest probe of a monitor" });

/** The consensus of the latest round. */
export const roundConsensusSchema = z
  .object({
    at: ms('when the round was fired'),
    status: z.enum(['up', 'degraded', 'down']).describe("the round's verdict"),
    failedRegions: regions('the regions whose probe failed'),
    slowRegions: regions('the regions that succeeded slower than slowThresholdMs'),
    cause: cause("the failing regions' majority cause"),
    degradedBy: z
      .enum(['region', 'slow'])
      .nullable()
      .describe(
        'degraded because one region failed (named in failedRegions) or the target is slow; null otherwise',
      ),
    slowThresholdMs: z
      .number()
      .describe("a successful probe slower than this counts as slow: 2 s, or half the monitor's timeout"),
  })
  .strict()
  .meta({ id: 'RoundConsensus', description: "The latest round's consensus across the regions" });

export const monitorResponse = z.object({ monitor: monitorSchema.describe('the monitor') });
export const monitorListResponse = z.object({
  monitors: z.array(monitorSchema).describe("the site's monitors, oldest first"),
});
export const monitorDeletedResponse = z.object({
  deleted: z.literal(true).describe('the monitor, its incidents and its history are gone'),
});

/** GET .../monitors/{monitorId}/live. */
export const monitorLiveResponse = z.object({
  monitor: monitorSchema.describe('the monitor'),
  probing: z
    .object({
      active: z.boolean().describe('rounds are being scheduled'),
      pausedBy: z
        .enum(['monitor', 'app', 'allowance'])
        .nullable()
        .describe(
          "monitor: enabled is 0; app: the site's Uptime app is off; allowance: the organization has more monitors than its allowance (ALLOWANCE_MONITORS per site, pooled) with overage off, and this is one of the newest, held until overage is on or the pool allows it again; null while active",
        ),
      alsoPausedBy: z
        .array(z.enum(['monitor', 'app', 'allowance']))
        .describe(
          'whatever else holds it besides pausedBy, in the same order (monitor, app, allowance): a paused monitor whose site has the app off, or that is past the allowance, stays stopped when resumed; empty with one reason or none',
        ),
      nextRoundAt: msOrNull('when the next round is due; null while paused'),
    })
    .strict()
    .describe('whether the monitor is probed now'),
  regions: z
    .array(
      z
        .object({
          region: region('the region'),
          probe: regionProbeSchema.nullable().describe('its latest probe; null before its first'),
        })
        .strict(),
    )
    .describe('every region, in na, eu, as, oc order'),
  consensus: roundConsensusSchema
    .nullable()
    .describe("the latest round's consensus; null before the first round"),
  openIncident: incidentSchema.nullable().describe('the incident in progress, if any'),
  at: ms(
    'the instant the whole answer was read at: the windows end there, and an ongoing incident counts as down up to it',
  ),
  uptime: z
    .array(
      z
        .object({
          hours: z
            .union([z.literal(24), z.literal(168), z.literal(720), z.literal(2160)])
            .describe('the window: the hours before `at`'),
          fromMs: ms('start of the window: `at` minus `hours`'),
          uptimePct: z
            .number()
            .nullable()
            .describe(
              'as the metrics endpoint computes it, unrounded, over the same rows as every other window: the share of the time the monitor was watched in the window not covered by an incident (the ongoing one up to `at`); null when it was not watched in any of it',
            ),
          incidents: z.number().int().describe('incidents overlapping the window, the ongoing one included'),
        })
        .strict(),
    )
    .describe('uptime over 24 h, 7 d, 30 d and 90 d, in that order, read with the rest of the answer'),
  incidents: z
    .array(incidentSchema)
    .describe('the incidents overlapping the last 90 days, oldest first; the open one is `openIncident`'),
  alerting: z
    .object({
      outageReceivers: z
        .number()
        .int()
        .describe(
          "how many addresses and webhooks an outage alert would go to now: the site's uptime receivers (its override, the organization's defaults) and the monitor's own; 0 means nobody would be alerted",
        ),
      openIncident: eventAlertsSchema
        .nullable()
        .describe(
          "the open incident's outage alert as it was actually delivered; null with no open incident",
        ),
    })
    .strict()
    .describe('who an outage of this monitor reaches'),
});

/** The live state alone, as the monitors list reads it for each monitor (the dashboard's type). */
export const monitorLiveState = monitorLiveResponse.omit({ at: true, uptime: true, incidents: true });

/** GET .../monitors/{monitorId}/metrics?hours=. */
export const monitorMetricsResponse = z.object({
  monitor: monitorSchema.describe('the monitor'),
  fromMs: ms('start of the range: now minus `hours`'),
  hours: z
    .array(hourlyBucketSchema)
    .describe('the closed hours overlapping the range, oldest first, then by region'),
  events: z.array(incidentSchema).describe('the incidents overlapping the range, oldest first'),
  uptimePct: z
    .number()
    .nullable()
    .describe(
      'incident-based: the share of the time the monitor was watched in the range (after it was created, outside pauses: paused, app off, held at the allowance) not covered by an incident, in percent; null when it was not watched in any of the range',
    ),
});

/** What the uptime services take and answer is exactly these schemas' output: typecheck fails on drift. */
export type UptimeServiceMatchesSchemas = [
  Holds<Same<MonitorSettings, CreateMonitorInput>>,
  Holds<Same<MonitorEdit, UpdateMonitorInput>>,
  Holds<Same<MonitorResource, z.output<typeof monitorSchema>>>,
  Holds<Same<IncidentResource, z.output<typeof incidentSchema>>>,
  Holds<Same<MonitorSnapshot, z.output<typeof monitorLiveResponse>>>,
  Holds<Same<MonitorMetrics, z.output<typeof monitorMetricsResponse>>>,
];
