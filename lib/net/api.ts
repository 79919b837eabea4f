import type { IncomingHttpHeaders } from 'node:http';
import { NetError } from './errors';
import { type HttpRequestOptions, type HttpResponse, header, httpRequest } from './request';

/**
 * An API call that is worth repeating: 429 (quota) and 5xx answers, and failures before any answer
 * (reset, timeout), retried a few times, waiting what the server asked (`Retry-After`) or an
 * exponential backoff. Any other answer is returned as is for the caller to judge.
 */
export interface RetryPolicy {
  /** Requests made at most, the first included. Default 4. */
  attempts?: number;
  /** First backoff without Retry-After; doubles each time. Default 1 s. */
  baseDelayMs?: number;
  /** No wait is longer than this, whatever Retry-After says. Default 60 s. */
  maxDelayMs?: number;
  /** Called before every attempt (e.g. to take a slot of a shared quota). */
  beforeAttempt?: () => Promise<void>;
  /** Injectable for tests. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

export const isRetryableStatus = (status: number) => status === 429 || status >= 500;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Milliseconds a `Retry-After` header asks for (delay-seconds or an HTTP-date), or null. */
export function retryAfterMs(headers: IncomingHttpHeaders, now = Date.now()): number | null {
  const value = header(headers, 'retry-after')?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

export async function requestWithRetries(
  options: HttpRequestOptions,
  policy: RetryPolicy = {},
): Promise<HttpResponse> {
  const attempts = policy.attempts ?? 4;
  const sleep = policy.sleep ?? defaultSleep;
  const maxDelay = policy.maxDelayMs ?? 60_000;
  const base = policy.baseDelayMs ?? 1000;
  for (let attempt = 1; ; attempt++) {
    await policy.beforeAttempt?.();
    let wait: number;
    try {
      const response = await httpRequest(options);
      if (!isRetryableStatus(response.status) || attempt >= attempts) return response;
      wait = retryAfterMs(response.headers, policy.now?.() ?? Date.now()) ?? base * 2 ** (attempt - 1);
    } catch (error) {
      // A refused address or a bad URL will not get better; a dropped connection may.
      const permanent =
        error instanceof NetError && ['blocked', 'invalid-url', 'body-too-large'].includes(error.code);
      if (permanent || attempt >= attempts) throw error;
      wait = base * 2 ** (attempt - 1);
    }
    await sleep(Math.min(wait, maxDelay));
  }
}

/** A JSON API's body, or null when it is not JSON (an HTML error page from a proxy, say). */
export function jsonBody(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
}
