import { config } from '@/lib/config';
import { InFlightRefusal } from './refusals';

/*
 * How many /v1 requests of one organization a server instance works on at once
 * (`API_CONCURRENT_PER_TENANT`). The rate limits (lib/api/rate-limit.ts) count requests, not what
 * they cost: a key's 500 a minute of its heaviest read, sent by 30 clients back to back, held the
 * server's database pool and event loop, and every other tenant's requests waited behind them
 * (npm run bench:tenants: the calm tenants' API p50 went from 0.4 s to 6 s). Bounding what a tenant
 * has in progress bounds its share of the instance's time, whatever each request costs: a few more
 * wait their turn (costing nothing but a promise), past them the answer is 429 at once, before any
 * database work, and the others' requests find the pool and the loop free.
 *
 * Two gates, one bound: by credential before anything is read (a burst on one key or session is
 * refused without a database round trip: these refusals are not counted against the rate limits),
 * and by organization once the credential is resolved (one organization's many keys share it).
 *
 * The counts are of this instance's own requests in progress, like its connection pool: each
 * instance bounds what it works on, so the bound holds however many instances run, and nothing
 * outlives the requests it counts.
 */

interface Gate {
  active: number;
  /** Requests waiting for one in progress to end, oldest first. */
  waiting: (() => void)[];
}
const gates = new Map<string, Gate>();

/**
 * Requests that may wait, per credential or organization, for one in progress to end: a dashboard
 * page loads a few resources at once, and a client that sends a handful together is served in
 * turn. Past them (a burst) the answer is 429 at once.
 */
const WAITING_PER_BOUND = 4;
/** How long a request waits for its turn before it is refused. */
const WAIT_LIMIT_MS = 5_000;
/** How long a client refused for too many requests in progress is told to wait. */
const RETRY_AFTER_MS = 1_000;

/**
 * Enters one request of `key`: resolves with its release once it may run (at once when fewer than
 * the bound are in progress; else after waiting its turn), or rejects with the 429. The check and
 * the count happen synchronously, so requests arriving together are counted in order.
 */
function enter(key: string, refusal: string): Promise<() => void> {
  const limit = config().API_CONCURRENT_PER_TENANT;
  let gate = gates.get(key);
  if (!gate) {
    gate = { active: 0, waiting: [] };
    gates.set(key, gate);
  }
  const own = gate;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    const next = own.waiting.shift();
    // The slot passes straight to the next in line; the gate goes once nothing is in progress.
    if (next) next();
    else if (--own.active === 0) gates.delete(key);
  };
  if (own.active < limit) {
    own.active += 1;
    return Promise.resolve(release);
  }
  const busy = () =>
    new InFlightRefusal(
      `too many requests ${refusal} in progress at once (at most ${limit}); try again in ${RETRY_AFTER_MS / 1000} s`,
      RETRY_AFTER_MS,
    );
  if (own.waiting.length >= limit * WAITING_PER_BOUND) return Promise.reject(busy());
  return new Promise((resolve, reject) => {
    const turn = () => {
      clearTimeout(timer);
      resolve(release);
    };
    const timer = setTimeout(() => {
      own.waiting.splice(own.waiting.indexOf(turn), 1);
      reject(busy());
    }, WAIT_LIMIT_MS);
    own.waiting.push(turn);
  });
}

/**
 * The first gate: by the credential the request carries (its hash, `callerOf` in ./refusals.ts;
 * none: nothing to bound here).
 */
export function enterCredential(credential: string | null): Promise<() => void> {
  return credential ? enter(`credential:${credential}`, 'with this credential') : Promise.resolve(() => {});
}

/** The second gate: by the organization the credential resolved to. */
export function enterTenant(tenantId: string): Promise<() => void> {
  return enter(`tenant:${tenantId}`, 'of this organization');
}
