import type { IncidentCause } from './types';

/*
 * Uptime's words for the API's codes, shared by everything that words an outage for people: the
 * dashboard (components/uptime/words) and the monthly report's PDF (lib/reports). Pure.
 */

/** A failed probe's or an incident's cause in plain words (spec: Uptime incident `cause`). */
export const CAUSE_WORDS: Record<IncidentCause, string> = {
  dns: 'the name does not resolve (DNS)',
  tls: 'TLS or certificate error',
  timeout: 'no answer within the timeout',
  http_5xx: 'server error (HTTP 5xx)',
  http_4xx: 'client error (HTTP 4xx)',
  expectation: 'the answer is not the one expected',
  redirect: 'redirect loop or too many redirects',
  network: 'connection failed',
  missed_heartbeat: 'no ping within the period and grace (missed heartbeat)',
};

/** An uptime share, never rounded up to 100% while any downtime is left: 99.996 reads 99.99%. */
export function formatPct(pct: number | null): string {
  if (pct === null) return '—';
  if (pct >= 100) return '100%';
  return `${(Math.floor(pct * 100) / 100).toFixed(2)}%`;
}
