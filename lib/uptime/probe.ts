import { setTimeout as sleep } from 'node:timers/promises';
import { type ConnectionTrace, fetchFollowing, NetError, type NetErrorCode } from '@/lib/net';
import { judgeAnswer, NO_EXPECTATIONS } from './expectations';
import { KEYWORD_SCAN_BYTES } from './limits';
import type { ProbeCause, ProbeResult, ProbeTarget } from './types';

/** Redirects a probe follows; the 11th fails the probe with cause `redirect` (issue 14). */
export const PROBE_MAX_REDIRECTS = 10;
/** Pause before the one retry of a failed probe: long enough to outlast a dropped packet or a
 * restarting process, short enough to stay well inside the shortest cadence (60 s). */
export const RETRY_DELAY_MS = 5_000;

export interface ProbeOptions {
  /** Reach loopback and private ranges (tests, development). Defaults to lib/net's setting. */
  allowPrivate?: boolean;
}

/**
 * One probe of a URL, exactly one attempt: a GET through lib/net, redirects followed by hand (each
 * hop checked against private addresses like every outbound request), on connections of its own so
 * DNS, connect and TLS are measured rather than hidden behind a kept-alive socket.
 *
 * GET, not HEAD: what a visitor gets is a GET, and many servers answer HEAD differently (405 or 404
 * from routers that only map GET, 501 from some CDNs and origins). Nothing of the body is read
 * unless the monitor looks for a keyword: the connection is dropped as soon as the headers are in,
 * so a large page costs at most what was already in flight. With a keyword, at most the first 1 MiB
 * is read (lib/net's bounded read) and the connection dropped there; `totalMs` still ends at the
 * headers, so latency means the same for every monitor.
 *
 * Never throws for anything the target does: every failure is a result with a cause.
 */
export async function probeOnce(target: ProbeTarget, options: ProbeOptions = {}): Promise<ProbeResult> {
  const checkedAt = Date.now();
  const started = performance.now();
  const traces: ConnectionTrace[] = [];
  const elapsed = () => Math.round((performance.now() - started) * 100) / 100;
  const expect = target.expect;
  const readsBody = expect?.keyword != null;
  try {
    const response = await fetchFollowing({
      url: target.url,
      timeoutMs: target.timeoutSeconds * 1000,
      maxRedirects: PROBE_MAX_REDIRECTS,
      maxBytes: readsBody ? KEYWORD_SCAN_BYTES : 0,
      allowPrivate: options.allowPrivate,
      traceConnection: (trace) => traces.push(trace),
    });
    const verdict = judgeAnswer(
      response.status,
      expect ?? NO_EXPECTATIONS,
      readsBody ? { text: response.body.toString('utf8'), truncated: response.truncated } : null,
    );
    return {
      ok: verdict.cause === null,
      status: response.status,
      // Up to the final answer's headers, as for every monitor: reading the body is not latency.
      totalMs: readsBody
        ? Math.max(0, response.timings.startedAt + response.timings.headersMs - checkedAt)
        : elapsed(),
      phases: phasesOf(traces.at(-1)),
      tlsCertExpiresAt: earliestExpiry(traces),
      cause: verdict.cause,
      error: verdict.error,
      checkedAt,
      attempts: 1,
    };
  } catch (err) {
    if (!(err instanceof NetError)) throw err;
    return {
      ok: false,
      status: null,
      totalMs: elapsed(),
      phases: phasesOf(traces.at(-1)),
      tlsCertExpiresAt: earliestExpiry(traces),
      cause: causeOfNetError(err.code),
      error: err.detail,
      checkedAt,
      attempts: 1,
    };
  }
}

/**
 * A probe as it counts: a failed attempt is tried once more after `retryDelayMs` in the same
 * region, and only the retry's result counts, so a single dropped connection never reaches the
 * consensus. `retryDelayMs` is a parameter so tests run the real retry without waiting 5 s.
 */
export async function probe(
  target: ProbeTarget,
  options: ProbeOptions & { retryDelayMs?: number } = {},
): Promise<ProbeResult> {
  const first = await probeOnce(target, options);
  if (first.ok) return first;
  await sleep(options.retryDelayMs ?? RETRY_DELAY_MS);
  return { ...(await probeOnce(target, options)), attempts: 2 };
}

export function causeOfNetError(code: NetErrorCode): ProbeCause {
  switch (code) {
    case 'dns':
      return 'dns';
    case 'tls':
      return 'tls';
    case 'timeout':
      return 'timeout';
    case 'redirect-loop':
    case 'too-many-redirects':
      return 'redirect';
    default:
      // Refused, reset, blocked (the name resolved to a private address), an invalid redirect
      // target, a cancelled probe: the target could not be reached, for a reason in `error`.
      return 'network';
  }
}

function phasesOf(trace: ConnectionTrace | undefined): ProbeResult['phases'] {
  return {
    dnsMs: trace?.dnsMs ?? null,
    connectMs: trace?.connectMs ?? null,
    tlsMs: trace?.tlsMs ?? null,
    firstByteMs: trace?.firstByteMs ?? null,
  };
}

/** Any certificate on the way to the page breaks it when it lapses, so the first to lapse counts. */
function earliestExpiry(traces: ConnectionTrace[]): number | null {
  const dates = traces.map((t) => t.certificateExpiresAt).filter((d): d is number => d !== null);
  return dates.length === 0 ? null : Math.min(...dates);
}
