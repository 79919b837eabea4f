import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { organizations, rateLimitCounters } from '@/lib/db/schema';
import { v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { type CallResult, insertApiKey } from '../support/http';

/*
 * Requests in progress per credential and per organization (lib/api/in-flight.ts, issue 23 item 7):
 * one tenant's burst must not queue the others' requests behind it. Route handlers are called with
 * real Requests against a real database.
 *
 * To hold requests in progress for as long as the test needs, the test locks the rate-limit counter
 * of the address they come from (`x-forwarded-for`): a request admitted by the gates blocks in its
 * count (the step after them) until the lock goes. The gates' answers are then decided: so many in
 * progress, so many waiting their turn, the rest refused at once.
 */

const BLOCKED_ADDRESS = '203.0.113.77';
const LIMIT = 2;

let db: Db;
let teardown: () => Promise<void>;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  for (const id of ['burst-a', 'calm-b']) await db.insert(organizations).values({ id, name: id, slug: id });
});

afterAll(async () => {
  await teardown();
});

afterEach(() => {
  delete process.env.API_CONCURRENT_PER_TENANT;
  resetConfig();
});

/** Holds the address's counter row locked until the returned function is called. */
async function lockAddressCounter(address: string): Promise<() => Promise<void>> {
  await db
    .insert(rateLimitCounters)
    .values({ bucket: `address:${address}`, resets_at: Date.now() + 3_600_000, hits: 0 })
    .onConflictDoNothing();
  let unlock = () => {};
  let locked = () => {};
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const done = db.transaction(async (tx) => {
    await tx.execute(
      sql`select 1 from rate_limit_counters where bucket = ${`address:${address}`} for update`,
    );
    locked();
    await new Promise<void>((resolve) => {
      unlock = resolve;
    });
  });
  await isLocked;
  return async () => {
    unlock();
    await done;
  };
}

const listSites = (apiKey: string, from: string) =>
  v1({ apiKey }).GET('/v1/sites', { headers: { 'x-forwarded-for': from } });

/** The answers that arrive within `ms` (the rest still in progress then). */
async function answeredWithin(requests: Promise<CallResult>[], ms: number): Promise<number[]> {
  const answered: number[] = [];
  for (const request of requests) void request.then((r) => answered.push(r.status));
  await new Promise((resolve) => setTimeout(resolve, ms));
  return [...answered];
}

// The requests are held by a row lock another connection takes. PGlite is one connection: the
// lock's transaction holds it, so every request waits on the connection itself, not on the gates
// under test. The gates are plain in-process counters and run the same on either database.
describe.skipIf(!process.env.TEST_DATABASE_URL)('requests in progress', () => {
  it("refuses a key's burst past its bound at once, serves the waiting ones in turn, and another tenant meanwhile", async () => {
    process.env.API_CONCURRENT_PER_TENANT = String(LIMIT);
    resetConfig();
    const burstKey = await insertApiKey(db, 'burst-a');
    const calmKey = await insertApiKey(db, 'calm-b');
    const unlock = await lockAddressCounter(BLOCKED_ADDRESS);
    let burst: Promise<CallResult>[] = [];
    try {
      // 14 at once on one key: 2 in progress (held by the lock), 8 waiting their turn, 4 refused.
      burst = Array.from({ length: 14 }, () => listSites(burstKey, BLOCKED_ADDRESS));
      const early = await answeredWithin(burst, 1_500);
      expect(early).toEqual([429, 429, 429, 429]);
      // Counted in the order they came: the last four were refused.
      const refused = await Promise.all(burst.slice(10));
      expect(refused.map((r) => r.status)).toEqual([429, 429, 429, 429]);
      expect(refused[0]?.headers.get('retry-after')).toBe('1');
      expect(refused[0]?.body.error).toBe(
        `too many requests with this credential in progress at once (at most ${LIMIT}); try again in 1 s`,
      );

      // The other tenant is answered while the burst's requests are held.
      const calm = await Promise.race([
        listSites(calmKey, '203.0.113.78'),
        new Promise<null>((r) => setTimeout(() => r(null), 10_000)),
      ]);
      expect(calm?.status).toBe(200);
    } finally {
      await unlock();
    }
    // Those that waited their turn are served once the first ones end.
    const statuses = (await Promise.all(burst)).map((r) => r.status);
    expect(statuses).toEqual([...Array(10).fill(200), 429, 429, 429, 429]);
  }, 60_000);

  it('holds a request that comes back before its Retry-After until then, and only then tries the gates', async () => {
    process.env.API_CONCURRENT_PER_TENANT = String(LIMIT);
    resetConfig();
    const burstKey = await insertApiKey(db, 'burst-a');
    const unlock = await lockAddressCounter(BLOCKED_ADDRESS);
    let held: Promise<CallResult>[] = [];
    try {
      // The gates full: 2 in progress, 8 waiting (they wait up to 5 s for their turn).
      held = Array.from({ length: LIMIT + LIMIT * 4 }, () => listSites(burstKey, BLOCKED_ADDRESS));
      const refused = await listSites(burstKey, BLOCKED_ADDRESS);
      const refusedAt = performance.now();
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('1');
      // Asked again at once: held until the second it was given has passed, then refused by the
      // gates, still full (a lower bound only: a loaded machine answers later, never sooner).
      const again = await listSites(burstKey, BLOCKED_ADDRESS);
      expect(again.status).toBe(429);
      expect(performance.now() - refusedAt).toBeGreaterThanOrEqual(1_000 - 20);
      expect(again.body.error).toMatch(/with this credential in progress at once/);
    } finally {
      await unlock();
    }
    expect((await Promise.all(held)).map((r) => r.status)).toEqual(Array(LIMIT + LIMIT * 4).fill(200));
  }, 60_000);

  it("bounds an organization's requests across its keys", async () => {
    process.env.API_CONCURRENT_PER_TENANT = String(LIMIT);
    resetConfig();
    const keys = await Promise.all(Array.from({ length: 6 }, () => insertApiKey(db, 'burst-a')));
    const unlock = await lockAddressCounter(BLOCKED_ADDRESS);
    let all: Promise<CallResult>[] = [];
    try {
      // Two per key pass each key's gate (12); the organization's: 2 in progress, 8 waiting, 2 refused.
      all = keys.flatMap((key) => [listSites(key, BLOCKED_ADDRESS), listSites(key, BLOCKED_ADDRESS)]);
      const early = await answeredWithin(all, 3_000);
      expect(early).toEqual([429, 429]);
    } finally {
      await unlock();
    }
    const statuses = (await Promise.all(all)).map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(10).fill(200), 429, 429]);
    const refused = (await Promise.all(all)).find((r) => r.status === 429);
    expect(refused?.body.error).toBe(
      `too many requests of this organization in progress at once (at most ${LIMIT}); try again in 1 s`,
    );
  }, 60_000);
});
