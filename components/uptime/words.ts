import type { MonitorLive, RegionProbe, UptimeMonitor } from '@/components/api/types';
import type { WebhookKind } from '@/lib/notify/webhook';
import type { MonitorStatus, ProbeCause, ProbedFrom, Region } from '@/lib/uptime/types';
import { CAUSE_WORDS } from '@/lib/uptime/words';

// The words the monthly report's PDF shares live in lib; the dashboard reads them from here too.
export { CAUSE_WORDS, formatPct } from '@/lib/uptime/words';

/*
 * The Uptime tab's words for the API's codes (regions, causes, cadences) and the small readings of
 * a monitor the list and the monitor page share. Pure, so unit tests read them without a browser.
 */

export const REGION_NAMES: Record<Region, string> = {
  na: 'North America',
  eu: 'Europe',
  as: 'Asia',
  oc: 'Oceania',
};

export const WEBHOOK_KIND_LABELS: Record<WebhookKind, string> = {
  slack: 'Slack',
  discord: 'Discord',
  teams: 'Microsoft Teams',
  http: 'HTTP (signed JSON POST)',
};

export function cadenceLabel(seconds: number): string {
  if (seconds === 60) return 'Every minute';
  if (seconds < 3600) return `Every ${seconds / 60} minutes`;
  if (seconds === 3600) return 'Every hour';
  return `Every ${seconds / 3600} hours`;
}

/** Whole seconds in words: "90 seconds", "5 minutes", "1 hour 30 minutes", "2 days". */
export function durationWords(seconds: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (seconds === 0) return 'no time';
  if (seconds % 86_400 === 0) return plural(seconds / 86_400, 'day');
  if (seconds % 60 !== 0) return plural(seconds, 'second');
  const hours = Math.floor(seconds / 3600);
  const minutes = (seconds % 3600) / 60;
  return [hours ? plural(hours, 'hour') : '', minutes ? plural(minutes, 'minute') : '']
    .filter(Boolean)
    .join(' ');
}

/** A heartbeat's period and grace in a line: "Expected every 5 minutes, 2 minutes of grace". */
export function heartbeatLabel(m: Pick<UptimeMonitor, 'period_seconds' | 'grace_seconds'>): string {
  const grace = m.grace_seconds ?? 0;
  return `Expected every ${durationWords(m.period_seconds ?? 0)}${grace ? `, ${durationWords(grace)} of grace` : ', no grace'}`;
}

/** The name, or the URL when the monitor has none (spec: null shows the URL); a heartbeat has no URL. */
export const monitorLabel = (m: Pick<UptimeMonitor, 'name' | 'url'>) =>
  m.name ?? m.url ?? 'Heartbeat monitor';

/** Milliseconds as people read them: "84 ms", "1.2 s"; "—" for none. */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** The median total time of the regions' latest successful probes: the monitor's current latency. */
export function currentLatency(regions: MonitorLive['regions']): { ms: number; regions: number } | null {
  const times = regions.flatMap((r) => (r.probe?.ok ? [r.probe.totalMs] : [])).sort((a, b) => a - b);
  if (times.length === 0) return null;
  const mid = Math.floor(times.length / 2);
  const ms = times.length % 2 === 1 ? times[mid]! : (times[mid - 1]! + times[mid]!) / 2;
  return { ms, regions: times.length };
}

export type StatusTone = 'success' | 'warning' | 'danger' | 'neutral';

/**
 * What the monitor is doing now, in words and a tone: paused by its owner, stopped with the app,
 * held past the organization's monitor allowance (overage off), or the consensus status, a
 * degraded one saying why (the failing region named, or slowness).
 * `live` is optional: the list shows the stored status until the live state arrives.
 */
export function statusOf(
  monitor: Pick<UptimeMonitor, 'enabled' | 'status'> & Partial<Pick<UptimeMonitor, 'kind'>>,
  live?: Pick<MonitorLive, 'probing' | 'consensus'>,
  names: Record<Region, string> = REGION_NAMES,
): { label: string; detail: string | null; tone: StatusTone; status: MonitorStatus | 'paused' | 'stopped' } {
  if (monitor.enabled === 0) return { label: 'Paused', detail: null, tone: 'neutral', status: 'paused' };
  if (live?.probing.pausedBy === 'app') {
    return { label: 'Stopped', detail: 'the Uptime app is off', tone: 'neutral', status: 'stopped' };
  }
  if (live?.probing.pausedBy === 'allowance') {
    return { label: 'Held', detail: 'past the monitor allowance', tone: 'neutral', status: 'stopped' };
  }
  switch (monitor.status) {
    case 'up':
      return { label: 'Up', detail: null, tone: 'success', status: 'up' };
    case 'down': {
      const failed = live?.consensus?.failedRegions ?? [];
      return {
        label: 'Down',
        detail: failed.length > 0 ? `failing in ${listRegions(failed, names)}` : null,
        tone: 'danger',
        status: 'down',
      };
    }
    case 'degraded': {
      const consensus = live?.consensus;
      let detail: string | null = null;
      if (consensus?.degradedBy === 'region' && consensus.failedRegions.length > 0) {
        detail = `failing in ${listRegions(consensus.failedRegions, names)}`;
      } else if (consensus?.degradedBy === 'slow') {
        detail = `slower than ${formatMs(consensus.slowThresholdMs)}`;
      }
      return { label: 'Degraded', detail, tone: 'warning', status: 'degraded' };
    }
    default:
      // A heartbeat is not checked: it waits for its job to ping.
      return {
        label: monitor.kind === 'heartbeat' ? 'Waiting for the first ping' : 'Not checked yet',
        detail: null,
        tone: 'neutral',
        status: 'unknown',
      };
  }
}

/** The four probes when they all run from this server: numbered, not named after continents. */
export const PROBE_NAMES: Record<Region, string> = {
  na: 'Probe 1',
  eu: 'Probe 2',
  as: 'Probe 3',
  oc: 'Probe 4',
};

/** How the pages name where the probes ran (lib/uptime probeLocations decides which). */
export interface Places {
  probedFrom: ProbedFrom;
  names: Record<Region, string>;
  /** 'region' or 'probe', for "every region answered", "Latency by probe". */
  unit: string;
  /** Where a monitor is probed from, after "probed": "from North America, ...". */
  where: string;
}

export function placesFor(probedFrom: ProbedFrom): Places {
  return probedFrom === 'regions'
    ? {
        probedFrom,
        names: REGION_NAMES,
        unit: 'region',
        where: 'from North America, Europe, Asia and Oceania',
      }
    : {
        probedFrom,
        names: PROBE_NAMES,
        unit: 'probe',
        where: 'by four probes at once, all from this server (one location)',
      };
}

/** "Europe", "Europe and Asia", "North America, Europe and Asia" (or "Probe 1 and Probe 2"). */
export function listRegions(
  regions: readonly Region[],
  byName: Record<Region, string> = REGION_NAMES,
): string {
  const names = regions.map((r) => byName[r]);
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** Causes a status code already says: "HTTP 503" needs no "server error (HTTP 5xx)" beside it. */
const HTTP_CAUSES: readonly (ProbeCause | null)[] = ['http_5xx', 'http_4xx'];

/** What a failed probe found, in a few words: "HTTP 503", "no answer within the timeout". */
export function failureWords(probe: { cause: ProbeCause | null; statusCode: number | null }): string {
  if (probe.statusCode !== null && HTTP_CAUSES.includes(probe.cause)) return `HTTP ${probe.statusCode}`;
  const cause = probe.cause ? CAUSE_WORDS[probe.cause] : 'failed';
  return probe.statusCode === null ? cause : `${cause} (HTTP ${probe.statusCode})`;
}

/** What one region's latest probe says, in a few words. */
export function probeVerdict(probe: Pick<RegionProbe, 'ok' | 'cause' | 'statusCode'>): string {
  if (probe.ok) return probe.statusCode === null ? 'OK' : `OK (HTTP ${probe.statusCode})`;
  return `Failed: ${failureWords(probe)}`;
}

/** The probe's own error text, when it says more than the verdict (not for a plain HTTP status). */
export const errorBeyondVerdict = (probe: Pick<RegionProbe, 'ok' | 'cause' | 'statusCode' | 'error'>) =>
  probe.ok || (probe.statusCode !== null && HTTP_CAUSES.includes(probe.cause)) ? null : probe.error;

/** A JSON-encoded string array of the monitor record (alert_emails); anything else reads as empty. */
export function parseAlertEmails(json: string | null): string[] {
  const value = parseJson(json);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The monitor record's alert_webhooks; entries that are not `{kind, url}` are left out. */
export function parseAlertWebhooks(json: string | null): Array<{ kind: WebhookKind; url: string }> {
  const value = parseJson(json);
  if (!Array.isArray(value)) return [];
  return value.flatMap((v) =>
    isRecord(v) && typeof v.url === 'string' && typeof v.kind === 'string' && v.kind in WEBHOOK_KIND_LABELS
      ? [{ kind: v.kind as WebhookKind, url: v.url }]
      : [],
  );
}

/** One region's result in an incident's snapshot (the incident's `regions` JSON). */
export interface SnapshotRegion {
  region: Region;
  ok: boolean;
  status: number | null;
  totalMs: number | null;
  cause: ProbeCause | null;
  error: string | null;
}

/** The incident's per-region snapshot, read defensively: what cannot be read is left out. */
export function parseIncidentRegions(json: string | null): SnapshotRegion[] {
  const value = parseJson(json);
  if (!Array.isArray(value)) return [];
  return value.flatMap((v) => {
    if (!isRecord(v) || typeof v.region !== 'string' || !(v.region in REGION_NAMES)) return [];
    return [
      {
        region: v.region as Region,
        ok: v.ok === true,
        status: typeof v.status === 'number' ? v.status : null,
        totalMs: typeof v.totalMs === 'number' ? v.totalMs : null,
        cause: typeof v.cause === 'string' && v.cause in CAUSE_WORDS ? (v.cause as ProbeCause) : null,
        error: typeof v.error === 'string' ? v.error : null,
      },
    ];
  });
}

function parseJson(json: string | null): unknown {
  if (!json) return null;
  try {
    return JSON.parse(json);
  } catch {
    return null;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
