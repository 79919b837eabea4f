import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/client';
import { rateLimitCounters } from '@/lib/db/schema';
import { LocalCounter } from '@/lib/ratelimit/local';
import type { Policy } from '@/lib/ratelimit/policies';
import { FINGERPRINT_FRESH_MS, StatusPageCache } from '@/lib/statuspages/cache';
import { v1 } from '../support/api-client';
import { countingDb } from '../support/counting-db';
import { useTestDatabase } from '../support/db';
import { insertMonitor, insertSite } from '../support/fixtures';
import { signInOwner } from '../support/http';

/*
 * Why the common public page request touches no database (issue 26 item 8), counted in statements
 * on the real database: the fingerprint is read once per FINGERPRINT_FRESH_MS however many visitors
 * ask, a rendition is made once per fingerprint, and the visitors' rate limit is counted in process
 * and handed over to the shared counters once per interval, so that two instances (two counters
 * here, as two processes would hold) still see each other's counts.
 */

let db: Db;
let driver: string;
let teardown: () => Promise<void>;

beforeAll(async () => {
  ({ db, driver, teardown } = await useTestDatabase());
  const owner = await signInOwner(db, 'owner@status-cache.test');
  const site = await insertSite(db, owner.tenantId, 'cache.example');
  const monitor = await insertMonitor(db, owner.tenantId, site, { name: 'API' });
  const made = await v1({ token: owner.token }).POST('/v1/status-pages', {
    body: { slug: 'cache-page', title: 'Cache', monitorIds: [monitor] },
  });
  expect(made.status).toBe(201);
});
afterAll(() => teardown());

describe('the page memo', () => {
  it('reads the fingerprint once for a burst and again once it is a second old', async () => {
    const counting = await countingDb(db, driver);
    const cache = new StatusPageCache();
    const now = Date.now();
    const burst = await Promise.all(
      Array.from({ length: 50 }, () => cache.fingerprint(counting.db, 'cache-page', now)),
    );
    expect(counting.queries()).toBe(1);
    expect(new Set(burst.map((f) => f?.tag)).size).toBe(1);
    expect(burst[0]).toBeDefined();
    await cache.fingerprint(counting.db, 'cache-page', now + FINGERPRINT_FRESH_MS - 1);
    expect(counting.queries()).toBe(1);
    await cache.fingerprint(counting.db, 'cache-page', now + FINGERPRINT_FRESH_MS);
    expect(counting.queries()).toBe(2);
    // An unknown slug is remembered as such for as long.
    expect(await cache.fingerprint(counting.db, 'no-such-page', now)).toBeUndefined();
    expect(await cache.fingerprint(counting.db, 'no-such-page', now + 10)).toBeUndefined();
    expect(counting.queries()).toBe(3);
  });

  it('renders once per fingerprint and rendition, and again for a new one', async () => {
    const cache = new StatusPageCache<string>();
    let renders = 0;
    const render = async () => `body ${++renders}`;
    const burst = await Promise.all(
      Array.from({ length: 20 }, () => cache.body({ slug: 'p', tag: 't1', kind: 'html' }, render)),
    );
    expect(new Set(burst)).toEqual(new Set(['body 1']));
    expect(await cache.body({ slug: 'p', tag: 't1', kind: 'json' }, render)).toBe('body 2');
    expect(await cache.body({ slug: 'p', tag: 't2', kind: 'html' }, render)).toBe('body 3');
    // A page that went away is not remembered: the next request asks again.
    expect(await cache.body({ slug: 'gone', tag: 't', kind: 'html' }, async () => undefined)).toBeUndefined();
    expect(await cache.body({ slug: 'gone', tag: 't', kind: 'html' }, render)).toBe('body 4');
  });
});

describe('the visitors count', () => {
  const policy: Policy = { name: 'status-page', quota: 5, windowSeconds: 60, unit: 'requests' };
  // Mid-window, so the test never straddles the minute's edge.
  const minute = Math.floor(Date.now() / 60_000) * 60_000 + 30_000;

  it('is exact within a process, and hands over once per interval in one statement', async () => {
    const counting = await countingDb(db, driver);
    const counter = new LocalCounter({ flushEveryMs: 1_000, maxSubjects: 100 });
    const dbOf = async () => counting.db;
    // The first hit hands over (nothing was known yet); the next ones within the second do not.
    const states = [];
    for (let i = 0; i < 6; i++) states.push(await counter.hit(dbOf, policy, '192.0.2.1', minute + i));
    expect(counting.queries()).toBe(1);
    expect(states.map((s) => s.refused)).toEqual([false, false, false, false, false, true]);
    expect(states.map((s) => s.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    for (let i = 0; i < 30; i++) await counter.hit(dbOf, policy, `192.0.2.${10 + i}`, minute + 10);
    expect(counting.queries()).toBe(1);
    // A second later one statement hands over every visitor's count.
    await counter.hit(dbOf, policy, '192.0.2.99', minute + 1_000);
    expect(counting.queries()).toBe(2);
    const rows = await db.select().from(rateLimitCounters);
    const shared = new Map(rows.map((r) => [r.bucket, r.hits]));
    expect(shared.get('status-page:192.0.2.1')).toBe(6);
    expect(shared.get('status-page:192.0.2.10')).toBe(1);
    expect(shared.get('status-page:192.0.2.99')).toBe(1);
  });

  it("sees another instance's counts at its next hand-over", async () => {
    const a = new LocalCounter({ flushEveryMs: 1_000, maxSubjects: 100 });
    const b = new LocalCounter({ flushEveryMs: 1_000, maxSubjects: 100 });
    const dbOf = async () => db;
    for (let i = 0; i < 3; i++) await a.hit(dbOf, policy, '198.51.100.5', minute + i);
    await a.flush(dbOf, minute + 5);
    // b's first hit hands over and learns a's three.
    expect((await b.hit(dbOf, policy, '198.51.100.5', minute + 10)).hits).toBe(4);
    expect((await b.hit(dbOf, policy, '198.51.100.5', minute + 11)).refused).toBe(false);
    expect((await b.hit(dbOf, policy, '198.51.100.5', minute + 12)).refused).toBe(true);
  });

  it('holds a bounded number of visitors: past it, the counts are handed over and the oldest dropped', async () => {
    const counting = await countingDb(db, driver);
    const counter = new LocalCounter({ flushEveryMs: 60_000, maxSubjects: 10 });
    const dbOf = async () => counting.db;
    for (let i = 0; i < 10; i++) await counter.hit(dbOf, policy, `203.0.113.${i}`, minute + i);
    expect(counting.queries()).toBe(1);
    await counter.hit(dbOf, policy, '203.0.113.200', minute + 20);
    expect(counting.queries()).toBe(2);
    const rows = await db.select().from(rateLimitCounters);
    expect(rows.filter((r) => r.bucket.startsWith('status-page:203.0.113.')).length).toBe(10);
  });
});
