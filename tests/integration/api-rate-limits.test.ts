import { InngestTestEngine } from '@inngest/test';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitPruneFunction } from '@/jobs/functions/ratelimit';
import { HELD_PER_SUBJECT, HOLD_MS } from '@/lib/api/refusals';
import { hashKeySecret } from '@/lib/auth/key-secret';
import { resetConfig } from '@/lib/config';
import { type Db, openDatabase } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import { apiKeys, invitations, mailMessages, rateLimitCounters, sites } from '@/lib/db/schema';
import { countHits } from '@/lib/ratelimit/counter';
import { policy } from '@/lib/ratelimit/policies';
import { pruneRateLimits } from '@/lib/ratelimit/prune';
import { type RequestBody, v1 } from '../support/api-client';
import { authPost } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { addMember, type CallResult, insertApiKey, signInOwner } from '../support/http';
import { startServer, type TestServer } from '../support/http-server';
import { confirmOutsideAddresses } from '../support/mail-consent';

/*
 * The API's rate limits (issue 23): per client address, per API key, per session, and per
 * organization for test sends and sends to addresses it does not own, held in the database and
 * reported in the IETF RateLimit-Policy / RateLimit fields on every /v1 answer, with 429 and
 * Retry-After past them. Route handlers are called with real Requests against a real database.
 *
 * The counts are per fixed minute. A test that must see N requests inside one window first waits
 * out the last seconds of the current minute, so a window ending between two of its requests
 * cannot reset the count under it.
 */

let db: Db;
let teardown: () => Promise<void>;
let owner: { token: string; userId: string; tenantId: string };
let other: { token: string; userId: string; tenantId: string };
let hook: TestServer;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  owner = await signInOwner(db, 'limits-owner@ratelimit.test');
  other = await signInOwner(db, 'limits-other@ratelimit.test');
  hook = await startServer('127.0.0.1', { 'POST /hook': { body: 'ok' } });
});

afterAll(async () => {
  await hook.close();
  await teardown();
});

const LIMIT_VARIABLES = [
  'RATE_LIMIT_KEY_PER_MINUTE',
  'RATE_LIMIT_SESSION_PER_MINUTE',
  'RATE_LIMIT_ADDRESS_PER_MINUTE',
  'RATE_LIMIT_OUTSIDE_SENDS_PER_HOUR',
] as const;

function setLimits(limits: Partial<Record<(typeof LIMIT_VARIABLES)[number], number>>) {
  for (const [name, value] of Object.entries(limits)) process.env[name] = String(value);
  resetConfig();
}

afterEach(() => {
  for (const name of LIMIT_VARIABLES) delete process.env[name];
  resetConfig();
});

/** Waits out the end of the current minute when fewer than 10 seconds of it are left. */
async function awayFromWindowEdge() {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 10_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/** The RateLimit fields as policy -> parameters: `"key";r=4;t=30` -> { key: { r: 4, t: 30 } }. */
function fields(value: string | null): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const item of (value ?? '').split(',').map((part) => part.trim())) {
    const [name, ...params] = item.split(';');
    if (!name) continue;
    out[JSON.parse(name) as string] = Object.fromEntries(
      params.map((param) => {
        const [key, number] = param.split('=');
        return [key as string, Number(number)];
      }),
    );
  }
  return out;
}

const listSites = (options: { apiKey?: string; token?: string; from?: string }) =>
  v1({ apiKey: options.apiKey, token: options.token }).GET(
    '/v1/sites',
    options.from ? { headers: { 'x-forwarded-for': options.from } } : {},
  );

describe('the RateLimit fields', () => {
  it('name every limit the answer was counted against, with the documented defaults', async () => {
    await awayFromWindowEdge();
    const key = await insertApiKey(db, owner.tenantId);
    const first = await listSites({ apiKey: key, from: '203.0.113.10' });
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"address";q=1000;w=60, "key";q=500;w=60');
    const state = fields(first.headers.get('ratelimit'));
    expect(state.address?.r).toBe(999);
    expect(state.key?.r).toBe(499);
    expect(state.key?.t).toBeGreaterThan(0);
    expect(state.key?.t).toBeLessThanOrEqual(60);

    const second = await listSites({ apiKey: key, from: '203.0.113.10' });
    expect(fields(second.headers.get('ratelimit')).key?.r).toBe(498);

    // A session counts against its own limit.
    const session = await listSites({ token: owner.token });
    expect(session.headers.get('ratelimit-policy')).toBe('"session";q=500;w=60');
  });

  it('are on error answers too: a bad credential, an unknown endpoint, a refused method', async () => {
    const bad = await listSites({ apiKey: 'sw_not_a_key_at_all', from: '203.0.113.11' });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('ratelimit-policy')).toBe('"address";q=1000;w=60');
    expect(fields(bad.headers.get('ratelimit')).address?.r).toBe(999);

    // A path the document does not have: the catch-all route's own answer.
    const unknown = await v1().raw({
      path: '/v1/nothing-here',
      headers: { 'x-forwarded-for': '203.0.113.11' },
    });
    expect(unknown.status).toBe(404);
    expect(fields(unknown.headers.get('ratelimit')).address?.r).toBe(998);

    // A method the document does not have for the path: the typed client cannot send it.
    const notAllowed = await v1().raw({
      method: 'DELETE',
      path: '/v1/sites',
      headers: { 'x-forwarded-for': '203.0.113.11' },
    });
    expect(notAllowed.status).toBe(405);
    expect(fields(notAllowed.headers.get('ratelimit')).address?.r).toBe(997);
  });
});

describe('past a limit', () => {
  it('answers 429 with Retry-After and {error}, and does nothing', async () => {
    setLimits({ RATE_LIMIT_KEY_PER_MINUTE: 3 });
    await awayFromWindowEdge();
    const key = await insertApiKey(db, owner.tenantId);
    const create = () =>
      v1({ apiKey: key }).POST('/v1/sites', {
        body: { rootUrl: `https://limit-${Math.random().toString(36).slice(2)}.example` },
      });
    const before = (await db.select().from(sites).where(eq(sites.tenant_id, owner.tenantId))).length;
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await listSites({ apiKey: key })).status);
    expect(statuses).toEqual([200, 200, 200]);

    const refused = await create();
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(
      /^rate limit reached: at most 3 requests a minute per API key; try again in \d+ s$/,
    );
    const retryAfter = Number(refused.headers.get('retry-after'));
    const state = fields(refused.headers.get('ratelimit')).key!;
    expect(state.r).toBe(0);
    expect(retryAfter).toBe(state.t);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit-policy')).toBe('"key";q=3;w=60');
    // Nothing was created.
    expect((await db.select().from(sites).where(eq(sites.tenant_id, owner.tenantId))).length).toBe(before);
  });

  it('holds per key: another key, and another organization, are untouched', async () => {
    setLimits({ RATE_LIMIT_KEY_PER_MINUTE: 2 });
    await awayFromWindowEdge();
    const spent = await insertApiKey(db, owner.tenantId);
    const sameOrganization = await insertApiKey(db, owner.tenantId);
    const otherOrganization = await insertApiKey(db, other.tenantId);
    for (let i = 0; i < 2; i++) expect((await listSites({ apiKey: spent })).status).toBe(200);
    expect((await listSites({ apiKey: spent })).status).toBe(429);
    expect((await listSites({ apiKey: sameOrganization })).status).toBe(200);
    const elsewhere = await listSites({ apiKey: otherOrganization });
    expect(elsewhere.status).toBe(200);
    expect(fields(elsewhere.headers.get('ratelimit')).key?.r).toBe(1);
  });

  it('holds per session, apart from the same person’s keys', async () => {
    setLimits({ RATE_LIMIT_SESSION_PER_MINUTE: 2 });
    await awayFromWindowEdge();
    const person = await signInOwner(db, 'session-limit@ratelimit.test');
    for (let i = 0; i < 2; i++) expect((await listSites({ token: person.token })).status).toBe(200);
    const refused = await listSites({ token: person.token });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/per session/);
    expect((await listSites({ apiKey: await insertApiKey(db, person.tenantId) })).status).toBe(200);
  });

  it('holds per client address, whatever the credential, and before a bad one is named', async () => {
    setLimits({ RATE_LIMIT_ADDRESS_PER_MINUTE: 3 });
    await awayFromWindowEdge();
    const from = '203.0.113.20';
    expect((await listSites({ apiKey: await insertApiKey(db, owner.tenantId), from })).status).toBe(200);
    expect((await listSites({ apiKey: await insertApiKey(db, other.tenantId), from })).status).toBe(200);
    expect((await listSites({ apiKey: 'sw_wrong', from })).status).toBe(401);
    const refused = await listSites({ apiKey: 'sw_wrong', from });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/per client address/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address is another client.
    expect(
      (await listSites({ apiKey: await insertApiKey(db, owner.tenantId), from: '203.0.113.21' })).status,
    ).toBe(200);
  });
});

/** A counter's hits so far (0 when it has none). */
async function hitsOf(bucket: string): Promise<number> {
  const [row] = await db.select().from(rateLimitCounters).where(eq(rateLimitCounters.bucket, bucket));
  return row?.hits ?? 0;
}

/** The key's counter, as the limits name it (`key:<key id>`). */
async function keyBucket(secret: string): Promise<string> {
  const [key] = await db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.secret_hash, hashKeySecret(secret)));
  return `key:${key?.id}`;
}

/** The request's answer with how long after `since` it arrived. */
const timed = async (request: Promise<CallResult>, since: number) => {
  const answer = await request;
  return { ...answer, after: performance.now() - since };
};

describe('a client that asks again before its Retry-After', () => {
  it('is held until then and refused again from memory: nothing looked up or counted', async () => {
    setLimits({ RATE_LIMIT_KEY_PER_MINUTE: 2 });
    await awayFromWindowEdge();
    const spent = await insertApiKey(db, owner.tenantId);
    const bucket = await keyBucket(spent);
    for (let i = 0; i < 2; i++) expect((await listSites({ apiKey: spent })).status).toBe(200);
    expect((await listSites({ apiKey: spent })).status).toBe(429);
    const counted = await hitsOf(bucket);
    expect(counted).toBe(3);

    // Three more at once: each answer waits HOLD_MS (the window has more than that left), then is
    // the same refusal, its fields and Retry-After as of the answer.
    const asked = performance.now();
    const again = await Promise.all([1, 2, 3].map(() => timed(listSites({ apiKey: spent }), asked)));
    for (const answer of again) {
      expect(answer.status).toBe(429);
      // A lower bound only: a loaded machine answers later, never sooner.
      expect(answer.after).toBeGreaterThanOrEqual(HOLD_MS - 20);
      expect(answer.body.error).toMatch(
        /^rate limit reached: at most 2 requests a minute per API key; try again in \d+ s$/,
      );
      expect(answer.headers.get('ratelimit-policy')).toBe('"key";q=2;w=60');
      const state = fields(answer.headers.get('ratelimit')).key!;
      expect(state.r).toBe(0);
      expect(Number(answer.headers.get('retry-after'))).toBe(state.t);
      expect(state.t).toBeGreaterThan(0);
    }
    // Refused without the database: the count did not move.
    expect(await hitsOf(bucket)).toBe(counted);
    // Remembered per credential: another key of the organization is served.
    expect((await listSites({ apiKey: await insertApiKey(db, owner.tenantId) })).status).toBe(200);
    // A limit changed meanwhile is no longer the one that refused: the key is counted afresh.
    setLimits({ RATE_LIMIT_KEY_PER_MINUTE: 10 });
    expect((await listSites({ apiKey: spent })).status).toBe(200);
    expect(await hitsOf(bucket)).toBe(counted + 1);
  });

  it(`is answered at once past ${HELD_PER_SUBJECT} requests held, still without the database`, async () => {
    setLimits({ RATE_LIMIT_KEY_PER_MINUTE: 1 });
    await awayFromWindowEdge();
    const spent = await insertApiKey(db, owner.tenantId);
    const bucket = await keyBucket(spent);
    expect((await listSites({ apiKey: spent })).status).toBe(200);
    expect((await listSites({ apiKey: spent })).status).toBe(429);
    const extra = 4;
    const order: number[] = [];
    const requests = Array.from({ length: HELD_PER_SUBJECT + extra }, (_, i) =>
      listSites({ apiKey: spent }).then((answer) => {
        order.push(i);
        return answer;
      }),
    );
    const answers = await Promise.all(requests);
    expect(answers.every((a) => a.status === 429)).toBe(true);
    // The last ones sent found the bound full and were answered before any held one.
    expect(order.slice(0, extra).sort((a, b) => a - b)).toEqual(
      Array.from({ length: extra }, (_, i) => HELD_PER_SUBJECT + i),
    );
    expect(await hitsOf(bucket)).toBe(2);
  });

  it('from an address past its limit: held and refused whatever credential it sends', async () => {
    setLimits({ RATE_LIMIT_ADDRESS_PER_MINUTE: 1 });
    await awayFromWindowEdge();
    const from = '203.0.113.40';
    expect((await listSites({ apiKey: await insertApiKey(db, owner.tenantId), from })).status).toBe(200);
    expect((await listSites({ apiKey: await insertApiKey(db, owner.tenantId), from })).status).toBe(429);
    const counted = await hitsOf(`address:${from}`);
    const asked = performance.now();
    const again = await timed(listSites({ apiKey: 'sw_wrong', from }), asked);
    expect(again.status).toBe(429);
    expect(again.after).toBeGreaterThanOrEqual(HOLD_MS - 20);
    expect(again.body.error).toMatch(/per client address/);
    expect(again.headers.get('ratelimit-policy')).toBe('"address";q=1;w=60');
    expect(await hitsOf(`address:${from}`)).toBe(counted);
    // An unknown endpoint from that address: the same.
    const unknown = await v1().raw({ path: '/v1/nothing-here', headers: { 'x-forwarded-for': from } });
    expect(unknown.status).toBe(429);
    expect(await hitsOf(`address:${from}`)).toBe(counted);
    expect(
      (await listSites({ apiKey: await insertApiKey(db, owner.tenantId), from: '203.0.113.41' })).status,
    ).toBe(200);
  });
});

describe('test sends', () => {
  const testSend = (token: string, body: RequestBody<'/v1/notifications/test', 'post'>) =>
    v1({ token }).POST('/v1/notifications/test', { body });
  const mailsTo = async (address: string) =>
    (await db.select().from(mailMessages).where(eq(mailMessages.to, address))).length;

  it('at most 10 a minute per organization (the default), counted only for callers who may send', async () => {
    await awayFromWindowEdge();
    const sender = await signInOwner(db, 'test-sender@ratelimit.test');
    const member = await addMember(db, {
      ownerToken: sender.token,
      tenantId: sender.tenantId,
      email: 'not-admin@ratelimit.test',
      role: 'member',
    });
    // A member may not send tests: their refused calls spend none of the organization's.
    for (let i = 0; i < 3; i++) {
      expect((await testSend(member.token, { email: 'test-sender@ratelimit.test' })).status).toBe(403);
    }
    for (let i = 0; i < 10; i++) {
      const sent = await testSend(sender.token, { email: 'test-sender@ratelimit.test' });
      expect(sent.status).toBe(200);
      expect(sent.headers.get('ratelimit-policy')).toBe('"session";q=500;w=60, "test-send";q=10;w=60');
      expect(fields(sent.headers.get('ratelimit'))['test-send']?.r).toBe(9 - i);
    }
    const mailed = await mailsTo('test-sender@ratelimit.test');
    const refused = await testSend(sender.token, { email: 'test-sender@ratelimit.test' });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/at most 10 test sends a minute per organization/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await mailsTo('test-sender@ratelimit.test')).toBe(mailed);
    // Another organization sends on.
    expect((await testSend(other.token, { email: 'limits-other@ratelimit.test' })).status).toBe(200);
  });

  it('sends to addresses the organization does not own count against the hourly outside-send limit', async () => {
    setLimits({ RATE_LIMIT_OUTSIDE_SENDS_PER_HOUR: 2 });
    await awayFromWindowEdge();
    const sender = await signInOwner(db, 'outside-sender@ratelimit.test');
    // An outside address gets mail only once it confirmed (tests/integration/notify-consent.test.ts).
    await confirmOutsideAddresses(db, sender.tenantId, 'stranger@elsewhere.test');
    const before = hook.requests.length;
    // A member's own address is the organization's: not an outside send.
    expect((await testSend(sender.token, { email: 'outside-sender@ratelimit.test' })).status).toBe(200);
    expect((await testSend(sender.token, { webhook: { kind: 'http', url: hook.url('/hook') } })).status).toBe(
      200,
    );
    expect((await testSend(sender.token, { email: 'stranger@elsewhere.test' })).status).toBe(200);
    const refused = await testSend(sender.token, { webhook: { kind: 'http', url: hook.url('/hook') } });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/at most 2 mails or webhook requests an hour per organization/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(fields(refused.headers.get('ratelimit'))['outside-send']?.r).toBe(0);
    expect(refused.headers.get('ratelimit-policy')).toContain('"outside-send";q=2;w=3600');
    const strangerMails = await mailsTo('stranger@elsewhere.test');
    expect((await testSend(sender.token, { email: 'stranger@elsewhere.test' })).status).toBe(429);
    // Neither refused send went out.
    expect(hook.requests.length - before).toBe(1);
    expect(await mailsTo('stranger@elsewhere.test')).toBe(strangerMails);
    // The organization's own addresses still get their tests.
    expect((await testSend(sender.token, { email: 'outside-sender@ratelimit.test' })).status).toBe(200);
  });
});

describe('invitations', () => {
  const invite = (token: string, tenantId: string, email: string, resend?: boolean) =>
    authPost(
      '/organization/invite-member',
      { email, role: 'member', organizationId: tenantId, ...(resend === undefined ? {} : { resend }) },
      token,
    );
  const invitationsTo = async (tenantId: string, email: string) =>
    db
      .select({ id: invitations.id, status: invitations.status })
      .from(invitations)
      .where(and(eq(invitations.organizationId, tenantId), eq(invitations.email, email)));

  it('each invitation mail counts against the outside-send limit; past it, 429 and no invitation or mail', async () => {
    setLimits({ RATE_LIMIT_OUTSIDE_SENDS_PER_HOUR: 2 });
    const inviter = await signInOwner(db, 'inviter@ratelimit.test');
    expect((await invite(inviter.token, inviter.tenantId, 'first@elsewhere.test')).status).toBe(200);
    // better-auth's `resend` would mail again uncounted: it is a new, counted invitation instead.
    expect((await invite(inviter.token, inviter.tenantId, 'first@elsewhere.test', true)).status).toBe(200);
    const mails = await db.select().from(mailMessages).where(eq(mailMessages.to, 'third@elsewhere.test'));
    const refused = await invite(inviter.token, inviter.tenantId, 'third@elsewhere.test');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /at most 2 mails or webhook requests an hour per organization/,
    );
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await invitationsTo(inviter.tenantId, 'third@elsewhere.test')).toEqual([]);
    expect(await db.select().from(mailMessages).where(eq(mailMessages.to, 'third@elsewhere.test'))).toEqual(
      mails,
    );
    const resent = await invite(inviter.token, inviter.tenantId, 'first@elsewhere.test', true);
    expect(resent.status).toBe(429);
    // Another organization invites on.
    expect((await invite(other.token, other.tenantId, 'third@elsewhere.test')).status).toBe(200);
  });
});

describe('the counters', () => {
  const key = policy('key');

  it('start again when the window ends; a server whose clock runs behind counts into the newer window', async () => {
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    const hit = [{ policy: key, subject: 'window-test' }];
    expect((await countHits(db, hit, minute + 1_000))[0]).toMatchObject({
      hits: 1,
      resetsAt: minute + 60_000,
    });
    expect((await countHits(db, hit, minute + 59_000))[0]).toMatchObject({
      hits: 2,
      remaining: key.quota - 2,
    });
    expect((await countHits(db, hit, minute + 60_000))[0]).toMatchObject({
      hits: 1,
      resetsAt: minute + 120_000,
    });
    // An instance two seconds behind still sees the previous minute: it counts into the new one.
    expect((await countHits(db, hit, minute + 59_000))[0]).toMatchObject({
      hits: 2,
      resetsAt: minute + 120_000,
    });
  });

  it('are pruned once their window has ended, by the five-minute job', async () => {
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    await countHits(db, [{ policy: key, subject: 'ended' }], minute - 120_000);
    await countHits(db, [{ policy: key, subject: 'current' }], minute);
    const buckets = async () =>
      (await db.select({ bucket: rateLimitCounters.bucket }).from(rateLimitCounters)).map((r) => r.bucket);
    expect(await buckets()).toContain('key:ended');
    expect((await pruneRateLimits(db, minute)).deleted).toBeGreaterThanOrEqual(1);
    expect(await buckets()).not.toContain('key:ended');
    expect(await buckets()).toContain('key:current');

    await countHits(db, [{ policy: key, subject: 'ended-again' }], minute - 120_000);
    const engine = new InngestTestEngine({
      function: rateLimitPruneFunction,
      events: [{ name: 'inngest/scheduled.timer', data: {}, ts: minute }],
    });
    const run = await engine.execute();
    expect((run.result as { deleted: number }).deleted).toBeGreaterThanOrEqual(1);
    expect(await buckets()).not.toContain('key:ended-again');
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'are shared by server instances: two database handles, concurrent hits, every one counted once',
    // PGlite is one connection owned by one process: a second instance needs a Postgres server.
    async () => {
      const second = await openDatabase(process.env.DATABASE_URL, '');
      try {
        const hit = [{ policy: key, subject: 'two-instances' }];
        const now = Date.now();
        const counts = await Promise.all(
          Array.from({ length: 40 }, (_, i) => countHits(i % 2 === 0 ? db : second.db, hit, now)),
        );
        expect(counts.map(([state]) => state!.hits).sort((a, b) => a - b)).toEqual(
          Array.from({ length: 40 }, (_, i) => i + 1),
        );
        const [row] = await second.db
          .select()
          .from(rateLimitCounters)
          .where(eq(rateLimitCounters.bucket, 'key:two-instances'));
        expect(row?.hits).toBe(40);
      } finally {
        await second.close();
      }
    },
  );

  it('count a request against each of its limits, a bucket per policy and subject', async () => {
    const states = await countHits(db, [
      { policy: policy('address'), subject: '192.0.2.1' },
      { policy: key, subject: 'several-limits' },
      { policy: policy('test-send'), subject: 'several-limits' },
    ]);
    expect(states.map((s) => [s.policy.name, s.hits])).toEqual([
      ['address', 1],
      ['key', 1],
      ['test-send', 1],
    ]);
    const rows = await queryRows<{ bucket: string }>(
      db,
      sql`select bucket from rate_limit_counters where bucket like '%several-limits' or bucket = 'address:192.0.2.1' order by bucket`,
    );
    expect(rows.map((r) => r.bucket)).toEqual([
      'address:192.0.2.1',
      'key:several-limits',
      'test-send:several-limits',
    ]);
  });
});
