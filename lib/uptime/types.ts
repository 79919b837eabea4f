import type { Expectations } from './expectations';

/**
 * The vocabulary every uptime module shares: regions, probe results, causes and statuses. Plain
 * data, JSON-safe, so a result can cross a signed HTTP call between regions or sit in a jsonb
 * column unchanged.
 */

/** The probe regions, in the order they are listed and break ties (spec: Limits). */
export const REGIONS = ['na', 'eu', 'as', 'oc'] as const;
export type Region = (typeof REGIONS)[number];

/**
 * Where a round's probes ran: `regions`, the four hosted region functions (iad1, fra1, hnd1, syd1),
 * so the region names are true; `server`, all four in this one process (embedded), one location,
 * where a continent's name would be a fiction. `probeLocations()` (./probers.ts) decides.
 */
export const PROBED_FROM = ['regions', 'server'] as const;
export type ProbedFrom = (typeof PROBED_FROM)[number];

export function isRegion(value: unknown): value is Region {
  return typeof value === 'string' && (REGIONS as readonly string[]).includes(value);
}

/**
 * Why a probe failed (spec: Uptime incident `cause`). Listed in the order that breaks a tie when
 * regions disagree on the cause: the most specific diagnosis first.
 */
export const CAUSES = [
  'dns',
  'tls',
  'timeout',
  'http_5xx',
  'http_4xx',
  // The server answered, but not as the monitor expects (a status outside its list, a text missing
  // or present): lib/uptime/expectations.ts.
  'expectation',
  'redirect',
  'network',
] as const;
export type ProbeCause = (typeof CAUSES)[number];

/**
 * Why an incident opened: a probe cause, or `missed_heartbeat` (a heartbeat monitor's job did not
 * ping within its period and grace: lib/uptime/heartbeats.ts), which no probe reports.
 */
export const INCIDENT_CAUSES = [...CAUSES, 'missed_heartbeat'] as const;
export type IncidentCause = (typeof INCIDENT_CAUSES)[number];

/** `http`: a URL probed from the regions; `heartbeat`: a job pings the monitor (lib/uptime/heartbeats.ts). */
export const MONITOR_KINDS = ['http', 'heartbeat'] as const;
export type MonitorKind = (typeof MONITOR_KINDS)[number];

export const MONITOR_STATUSES = ['up', 'degraded', 'down', 'unknown'] as const;

/** A monitor the caller cannot see (another site's, another organization's) and one that does not exist answer the same. */
export const MONITOR_NOT_FOUND = 'monitor not found';
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];

/** What a region needs to probe a monitor: nothing tenant-related, so it can travel in a batch. */
export interface ProbeTarget {
  monitorId: string;
  url: string;
  /** 1-30 (spec); the whole probe, every redirect hop included, must finish within it. */
  timeoutSeconds: number;
  /** What the answer must be beyond reachable (./expectations.ts); absent: 2xx or 3xx, body unread. */
  expect?: Expectations;
}

/** Milliseconds per phase of the connection that answered last; null for a phase that did not happen. */
export interface ProbePhases {
  dnsMs: number | null;
  connectMs: number | null;
  tlsMs: number | null;
  firstByteMs: number | null;
}

export interface ProbeResult {
  ok: boolean;
  /** The final HTTP status after redirects; null when no response came back. */
  status: number | null;
  /** From the first request to the final response's headers (or to the failure), every hop included. */
  totalMs: number;
  phases: ProbePhases;
  /** The earliest notAfter (ms epoch) among the certificates of the hops; null without HTTPS. */
  tlsCertExpiresAt: number | null;
  cause: ProbeCause | null;
  /** Plain words for a site owner; null when `ok`. */
  error: string | null;
  /** When the counted attempt started (ms epoch). */
  checkedAt: number;
  /** 2 when the first attempt failed and this is the retry's result. */
  attempts: 1 | 2;
}

/** One region's answer in a round. */
export interface RegionResult extends ProbeResult {
  region: Region;
}
