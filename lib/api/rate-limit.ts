import { clientAddress } from '@/lib/auth/client-address';
import type { Principal } from '@/lib/auth/principal';
import { config } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import {
  countHits,
  type Hit,
  type LimitState,
  RateLimitedError,
  refuseOverLimit,
} from '@/lib/ratelimit/counter';
import { type PolicyName, policy } from '@/lib/ratelimit/policies';
import { errorResponse } from './errors';
import { callerOf, heedEarlierRefusal, rememberRefusal } from './refusals';

/*
 * The API's side of the rate limits (lib/ratelimit): which limits a request counts against, and the
 * headers that say where they stand, in the syntax of the IETF draft "RateLimit header fields for
 * HTTP" (draft-ietf-httpapi-ratelimit-headers):
 *
 *   RateLimit-Policy: "address";q=1000;w=60, "key";q=500;w=60
 *   RateLimit: "address";r=998;t=42, "key";r=497;t=42
 *
 * `q` is the quota and `w` the window in seconds; `r` what is left of the quota and `t` the seconds
 * until the window ends and the count starts again. Past a quota the answer is 429 with Retry-After.
 */

/** Per-organization limits a route may declare, counted on every call of it besides the caller's own. */
export type OrganizationLimit = Extract<PolicyName, 'test-send' | 'outside-send'>;

/** What one /v1 request counts against: its client address, its key or session, the route's limits. */
export function requestHits(
  headers: Headers,
  principal: Principal | undefined,
  routeLimits: readonly OrganizationLimit[] = [],
): Hit[] {
  const c = config();
  const hits: Hit[] = [];
  const address = clientAddress(headers, c.trustedProxy);
  if (address) hits.push({ policy: policy('address', c), subject: address });
  if (principal?.via === 'key' && principal.keyId) {
    hits.push({ policy: policy('key', c), subject: principal.keyId });
  } else if (principal?.via === 'session') {
    hits.push({ policy: policy('session', c), subject: principal.sessionId ?? `user-${principal.userId}` });
  }
  if (principal) {
    for (const name of routeLimits) hits.push({ policy: policy(name, c), subject: principal.tenantId });
  }
  return hits;
}

/** The RateLimit-Policy and RateLimit fields for the limits a request was counted against. */
export function rateLimitHeaders(states: readonly LimitState[], now = Date.now()): Record<string, string> {
  if (states.length === 0) return {};
  return {
    'ratelimit-policy': states
      .map(({ policy: p }) => `"${p.name}";q=${p.quota};w=${p.windowSeconds}`)
      .join(', '),
    ratelimit: states
      .map(
        (s) => `"${s.policy.name}";r=${s.remaining};t=${Math.max(0, Math.ceil((s.resetsAt - now) / 1000))}`,
      )
      .join(', '),
  };
}

/** The response with the rate-limit fields added (a copy: a handler's Response may be immutable). */
export function withRateLimitHeaders(response: Response, states: readonly LimitState[]): Response {
  const fields = rateLimitHeaders(states);
  if (Object.keys(fields).length === 0) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(fields)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * The limits to report on an answer: those the request was counted against, plus any a service
 * refused it by (an outside send), each policy once.
 */
export function limitsOfAnswer(counted: readonly LimitState[], error: unknown): LimitState[] {
  if (!(error instanceof RateLimitedError)) return [...counted];
  const names = new Set(counted.map((state) => state.policy.name));
  return [...counted, ...error.states.filter((state) => !names.has(state.policy.name))];
}

/**
 * A /v1 answer outside the pipeline (an unknown endpoint, a method the route does not declare, the
 * API document): counted against the client's address only, with the same headers and 429.
 */
export function addressLimited(
  handler: (req: Request) => Promise<Response>,
): (req: Request) => Promise<Response> {
  return async (req) => {
    let states: LimitState[] = [];
    const caller = callerOf(req.headers, false);
    try {
      await heedEarlierRefusal(caller);
      // Without a client address there is nothing to count, and no database to open for it.
      const hits = requestHits(req.headers, undefined);
      if (hits.length > 0) states = await countHits(await getDb(), hits);
      refuseOverLimit(states);
      return withRateLimitHeaders(await handler(req), states);
    } catch (error) {
      rememberRefusal(caller, error);
      return withRateLimitHeaders(
        errorResponse(error, crypto.randomUUID().slice(0, 8)),
        limitsOfAnswer(states, error),
      );
    }
  };
}
