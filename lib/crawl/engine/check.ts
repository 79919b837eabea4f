import type { IncomingHttpHeaders } from 'node:http';
import {
  DEFAULT_MAX_REDIRECTS,
  type FollowedResponse,
  fetchFollowing,
  header,
  NetError,
  type NetErrorCode,
  type RedirectHop,
} from '@/lib/net';
import { parseUrl } from '@/lib/net/url';

/**
 * - `ok`: the target answered 2xx (or a final 3xx other than 304, whose body a browser shows);
 * - `broken`: a definitive failure status: 404, 410, other 4xx, 5xx (after one retry), a 304 (the
 *   crawler never asks conditionally, so a 304 gives a visitor nothing to show), or a reference
 *   that is not a URL at all (`href="http://"`), which no request is made for;
 * - `error`: no usable response: DNS, refused or reset connection, TLS, timeout, redirect loop or
 *   too many hops;
 * - `unverifiable`: the target answered but will not tell a robot: 401, 403 (bot walls such as
 *   Cloudflare challenges), 407, 999 (LinkedIn) and 429 after the retry. Never reported as broken.
 */
export type LinkVerdict = 'ok' | 'broken' | 'error' | 'unverifiable';

export interface LinkCheckOutcome {
  verdict: LinkVerdict;
  /** Status of the final response; null when there was none. */
  statusCode: number | null;
  /** Every response in order (final included) when at least one redirect happened, else null. */
  redirectChain: RedirectHop[] | null;
  /** Why, in plain words; null for plain successes. */
  detail: string | null;
  /** Where the check ended: the last URL requested. */
  finalUrl: string;
  /** Media type of the final response, lowercase without parameters; null when absent or no response. */
  contentType: string | null;
  /**
   * Milliseconds from the (last) request until the final response was read as far as the crawler
   * reads it (headers for a check, the body for a page), redirect hops included; null: no response.
   */
  responseMs: number | null;
}

export const CHECK_TIMEOUT_MS = 10_000;
export const RETRY_AFTER_CAP_MS = 30_000;
/** Wait before the single retry when the server gave no Retry-After. */
export const DEFAULT_RETRY_DELAY_MS = 1_000;

/** Network failures worth one more try; DNS, refusal, TLS and redirect problems are not transient. */
const TRANSIENT: ReadonlySet<NetErrorCode> = new Set(['reset', 'timeout', 'network']);
const UNVERIFIABLE: Record<number, string> = {
  401: 'requires authentication (401)',
  403: 'access denied to automated requests (403)',
  407: 'proxy authentication required (407)',
  429: 'rate limited (429)',
  999: 'refused automated requests (999)',
};

function isBotChallenge(headers: IncomingHttpHeaders | undefined): boolean {
  return headers !== undefined && header(headers, 'cf-mitigated')?.toLowerCase() === 'challenge';
}

/** The verdict for a final HTTP status; the crawler applies the same rules to internal pages. */
export function classifyStatus(
  status: number,
  headers?: IncomingHttpHeaders,
): { verdict: Exclude<LinkVerdict, 'error'>; detail: string | null } {
  // Neither the crawler nor the checker sends a conditional request, so a 304 answers a plain GET
  // with no body: a browser would show nothing (linkinator and browsers alike treat it as failed).
  if (status === 304)
    return { verdict: 'broken', detail: 'not modified (304) in answer to an unconditional request' };
  if (status >= 200 && status < 400) return { verdict: 'ok', detail: null };
  if (isBotChallenge(headers))
    return { verdict: 'unverifiable', detail: `blocked by a bot challenge (${status})` };
  const unverifiable = UNVERIFIABLE[status];
  if (unverifiable) return { verdict: 'unverifiable', detail: unverifiable };
  if (status === 404) return { verdict: 'broken', detail: 'not found (404)' };
  if (status === 410) return { verdict: 'broken', detail: 'gone (410)' };
  if (status >= 400 && status < 500) return { verdict: 'broken', detail: `client error (${status})` };
  if (status >= 500 && status < 600) return { verdict: 'broken', detail: `server error (${status})` };
  return { verdict: 'broken', detail: `unexpected status ${status}` };
}

/**
 * Outcome for a response obtained with `fetchFollowing` (internal page fetches use this too), which
 * took `responseMs` (null when not measured).
 */
export function classifyResponse(
  response: FollowedResponse,
  responseMs: number | null = null,
): LinkCheckOutcome {
  const { verdict, detail } = classifyStatus(response.status, response.headers);
  return {
    verdict,
    statusCode: response.status,
    redirectChain: response.chain.length > 1 ? response.chain : null,
    detail,
    finalUrl: response.url,
    contentType: mediaType(header(response.headers, 'content-type')),
    responseMs,
  };
}

/** `Text/HTML; charset=utf-8` -> `text/html`: the part a filter compares. */
function mediaType(value: string | undefined): string | null {
  const type = value?.split(';')[0]?.trim().toLowerCase();
  return type ? type.slice(0, 255) : null;
}

/** Whole milliseconds since `start` (a `performance.now()` reading). */
export const msSince = (start: number) => Math.round(performance.now() - start);

/**
 * Outcome for a link that is not an http(s) URL at all (`http://`, `//////` on an http page): the
 * extractor keeps such an href as written so that it is reported, never silently dropped, and no
 * request is made for it. Null for a usable URL.
 */
export function invalidUrlOutcome(url: string): LinkCheckOutcome | null {
  const parsed = parseUrl(url);
  if (parsed !== null && (parsed.protocol === 'http:' || parsed.protocol === 'https:')) return null;
  return {
    verdict: 'broken',
    statusCode: null,
    redirectChain: null,
    detail: `invalid URL: ${JSON.stringify(url)}`,
    finalUrl: url,
    contentType: null,
    responseMs: null,
  };
}

/** Outcome for a request that got no usable response. */
export function classifyFailure(err: NetError, requestedUrl: string): LinkCheckOutcome {
  return {
    verdict: 'error',
    statusCode: null,
    redirectChain: err.chain && err.chain.length > 0 ? err.chain : null,
    detail: err.detail,
    finalUrl: err.url ?? requestedUrl,
    contentType: null,
    responseMs: null,
  };
}

export interface CheckOptions {
  timeoutMs?: number;
  maxRedirects?: number;
  /** Longest Retry-After honoured before the retry; longer requests wait this long. */
  retryAfterCapMs?: number;
  /** Wait before a retry when the server did not say (429/503 without Retry-After, transient errors). */
  retryDelayMs?: number;
  allowPrivate?: boolean;
  signal?: AbortSignal;
}

type Attempt =
  | { response: FollowedResponse; ms: number; error?: undefined }
  | { response?: undefined; error: NetError };

/**
 * Checks an external link as cheaply as the target allows (a link that is not a URL is reported
 * invalid without a request): HEAD first, GET (body discarded) when
 * HEAD is not answered with a 2xx. One retry at most: after 429/503 (waiting for Retry-After,
 * capped) or after a transient network failure. Throws only when `signal` cancels the check.
 */
export async function checkLink(url: string, options: CheckOptions = {}): Promise<LinkCheckOutcome> {
  const invalid = invalidUrlOutcome(url);
  if (invalid) return invalid;
  const retryAfterCapMs = options.retryAfterCapMs ?? RETRY_AFTER_CAP_MS;
  const retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  const attempt = async (method: 'HEAD' | 'GET'): Promise<Attempt> => {
    const start = performance.now();
    try {
      const response = await fetchFollowing({
        url,
        method,
        maxBytes: 0,
        timeoutMs: options.timeoutMs ?? CHECK_TIMEOUT_MS,
        maxRedirects: options.maxRedirects ?? DEFAULT_MAX_REDIRECTS,
        allowPrivate: options.allowPrivate,
        signal: options.signal,
      });
      return { response, ms: msSince(start) };
    } catch (err) {
      if (!(err instanceof NetError)) throw err;
      if (err.code === 'aborted') throw err;
      return { error: err };
    }
  };
  const waitBeforeRetry = (response: FollowedResponse | undefined) =>
    sleep(
      response ? retryAfterMs(response.headers, retryDelayMs, retryAfterCapMs) : retryDelayMs,
      options.signal,
    );

  const head = await attempt('HEAD');
  if (head.response && isSuccess(head.response.status)) return classifyResponse(head.response, head.ms);
  if (head.error && !TRANSIENT.has(head.error.code)) return classifyFailure(head.error, url);

  // A transient HEAD failure or a throttled HEAD makes the GET the one retry.
  let retried = head.error !== undefined;
  if (head.response && isThrottled(head.response.status)) {
    await waitBeforeRetry(head.response);
    retried = true;
  }
  let get = await attempt('GET');
  if (!retried) {
    if (get.response && isThrottled(get.response.status)) {
      await waitBeforeRetry(get.response);
      get = await attempt('GET');
    } else if (get.error && TRANSIENT.has(get.error.code)) {
      await waitBeforeRetry(undefined);
      get = await attempt('GET');
    }
  }
  return get.response ? classifyResponse(get.response, get.ms) : classifyFailure(get.error, url);
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

function isThrottled(status: number): boolean {
  return status === 429 || status === 503;
}

/** Retry-After as seconds or an HTTP date, clamped to [0, cap]; `fallback` when absent or unreadable. */
export function retryAfterMs(
  headers: IncomingHttpHeaders,
  fallback: number,
  cap: number,
  now = Date.now(),
): number {
  const value = header(headers, 'retry-after')?.trim();
  if (!value) return Math.min(fallback, cap);
  let ms: number;
  if (/^\d+$/.test(value)) {
    ms = Number(value) * 1000;
  } else {
    const date = Date.parse(value);
    if (Number.isNaN(date)) return Math.min(fallback, cap);
    ms = date - now;
  }
  return Math.min(Math.max(ms, 0), cap);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new NetError('aborted', 'request was cancelled'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}
