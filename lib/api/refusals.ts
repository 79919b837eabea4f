import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { clientAddress } from '@/lib/auth/client-address';
import { config } from '@/lib/config';
import { BusyError } from '@/lib/errors';
import { type LimitState, RateLimitedError } from '@/lib/ratelimit/counter';
import { policy } from '@/lib/ratelimit/policies';

/*
 * Clients told to come back later (issue 23 item 7). A 429 says when to come back (Retry-After); a
 * client that ignores it and asks again at once cost the server a whole refusal each time: the
 * noisy-neighbour bench's hostile key, spent for the minute, sent about 1,000 requests a second on
 * 30 connections, and each was read, its key looked up and counted in the database before the 429
 * (npm run bench:tenants: the other tenants' crawls took 2.5 times as long).
 *
 * So each server instance remembers, per credential and per client address, until when it told the
 * client to wait, and for a rate limit what refused it. A request that arrives before then is
 * decided from that alone, before its credential is looked up or anything is counted:
 *
 * - its answer waits for the time the client was given, up to `HOLD_MS`, so a client that does not
 *   wait is made to: each of its connections gets one answer per `HOLD_MS` however fast it asks (a
 *   client that waits as told is never held);
 * - then, while the rate limit that refused it still holds (a fixed window's count only grows until
 *   the window ends, on every instance), it gets that 429 again, its RateLimit fields and Retry-After
 *   computed for the moment of the answer, with no database work; after a refusal for too many
 *   requests in progress (lib/api/in-flight.ts) it goes on to the gates as any request would.
 *
 * Holding costs a socket and a timer per request, so it is bounded (`HELD_PER_SUBJECT`, `HELD_IN_ALL`):
 * past the bound the remembered refusal is answered at once, which costs no database work either.
 * What is remembered is each instance's own, like its requests in progress: an instance that never
 * refused the client counts it in the database, finds it over its limit and remembers it from then on.
 * A client that opens connections faster than any of this refuses is for the edge in front of the
 * server (README, "Rate limits").
 */

/** The longest a request of a client told to wait is held before it is answered. */
export const HOLD_MS = 1_000;
/** Requests held at once per credential or address; past it they are answered at once. */
export const HELD_PER_SUBJECT = 32;
/** Requests held at once by the instance. */
const HELD_IN_ALL = 1_024;
/** Subjects remembered at once: the oldest are forgotten first (a refusal forgotten is only counted again). */
const REMEMBERED_MAX = 10_000;

/** Who a request comes from, as far as can be told without the database. */
export type Caller = {
  /** The credential as sent (key, bearer token or session cookie), hashed; null without one. */
  credential: string | null;
  /** The client address as the rate limits read it; null when none can be trusted. */
  address: string | null;
};

/**
 * The caller of a request, as far as the headers say. `withCredential` false for an answer that
 * counts against the address only (a public route, an unknown endpoint): a credential it carries
 * is neither bounded nor refused there.
 */
export function callerOf(headers: Headers, withCredential = true): Caller {
  const sent =
    withCredential &&
    (headers.get('x-api-key')?.trim() ||
      headers.get('authorization')?.trim() ||
      /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=([^;]+)/.exec(headers.get('cookie') ?? '')?.[1]);
  return {
    credential: sent ? createHash('sha256').update(sent).digest('base64url') : null,
    address: clientAddress(headers, config().trustedProxy),
  };
}

interface Told {
  /** When the client was told to come back (epoch ms). */
  until: number;
  /** The rate limits that refused it (each at its quota), or null after a refusal of the gates. */
  states: LimitState[] | null;
  held: number;
}

const told = new Map<string, Told>();
let heldInAll = 0;

/** A refusal of the gates for requests in progress, which the client is told to retry after. */
export class InFlightRefusal extends BusyError {}

const subjectsOf = (caller: Caller): string[] => [
  ...(caller.credential ? [`credential:${caller.credential}`] : []),
  ...(caller.address ? [`address:${caller.address}`] : []),
];

/** The policies a remembered refusal may name: those every /v1 request counts against. */
const CALLER_POLICIES = { address: 'address', key: 'credential', session: 'credential' } as const;

/**
 * Remembers the refusal a request was answered with, when it is one that says when to come back
 * and holds for the caller whatever it asks next: a rate limit of its address, key or session, or
 * the gates for requests in progress. Any other error is not remembered.
 */
export function rememberRefusal(caller: Caller, error: unknown, now = Date.now()): void {
  if (error instanceof RateLimitedError) {
    for (const state of error.states) {
      if (!state.refused || !(state.policy.name in CALLER_POLICIES)) continue;
      const kind = CALLER_POLICIES[state.policy.name as keyof typeof CALLER_POLICIES];
      const subject = kind === 'address' ? caller.address : caller.credential;
      if (subject) tell(`${kind}:${subject}`, state.resetsAt, [{ ...state, remaining: 0 }]);
    }
  } else if (error instanceof InFlightRefusal && caller.credential) {
    tell(`credential:${caller.credential}`, now + error.retryAfterMs, null);
  }
}

function tell(subject: string, until: number, states: LimitState[] | null): void {
  const known = told.get(subject);
  if (known) {
    // A later or stricter refusal replaces an earlier one; a rate limit outlasts a gate's second.
    if (until > known.until) known.until = until;
    if (states) known.states = [...(known.states ?? []).filter((s) => !sameName(s, states)), ...states];
    return;
  }
  if (told.size >= REMEMBERED_MAX) {
    const oldest = told.keys().next().value;
    if (oldest !== undefined) told.delete(oldest);
  }
  told.set(subject, { until, states, held: 0 });
}

const sameName = (state: LimitState, others: LimitState[]) =>
  others.some((o) => o.policy.name === state.policy.name);

/**
 * What a remembered refusal still says at `now`: the rate limits still holding (a limit whose
 * quota or window was changed since is forgotten), or null once the client may come back.
 */
function live(subject: string, now: number): Told | null {
  const known = told.get(subject);
  if (!known) return null;
  if (known.states) {
    known.states = known.states.filter((s) => s.resetsAt > now && unchanged(s));
    if (known.states.length === 0) known.states = null;
  }
  if (known.until > now && (known.states || known.until - now <= HOLD_MS)) return known;
  if (known.held === 0) told.delete(subject);
  return null;
}

const unchanged = (state: LimitState) => {
  const current = policy(state.policy.name);
  return current.quota === state.policy.quota && current.windowSeconds === state.policy.windowSeconds;
};

/**
 * Heeds what the caller was told before: resolves at once when nothing holds (almost every request),
 * else after holding the request until the time it was given (at most `HOLD_MS`); throws the rate
 * limit's 429 again while that limit still holds.
 */
export async function heedEarlierRefusal(caller: Caller): Promise<void> {
  if (told.size === 0) return;
  // The latest time the client was given, by its credential or its address.
  let known: Told | undefined;
  for (const subject of subjectsOf(caller)) {
    const entry = live(subject, Date.now());
    if (entry && (!known || entry.until > known.until)) known = entry;
  }
  if (!known) return;
  const wait = Math.min(known.until - Date.now(), HOLD_MS);
  if (wait > 0 && known.held < HELD_PER_SUBJECT && heldInAll < HELD_IN_ALL) {
    known.held += 1;
    heldInAll += 1;
    try {
      await sleep(wait);
    } finally {
      known.held -= 1;
      heldInAll -= 1;
    }
  }
  // Any rate limit of the credential or the address that still holds refuses it.
  const now = Date.now();
  const states = subjectsOf(caller).flatMap((s) => live(s, now)?.states ?? []);
  if (states.length > 0) throw new RateLimitedError(states, now);
}
