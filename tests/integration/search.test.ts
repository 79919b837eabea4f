import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as callbackRoute from '@/app/api/search/callback/route';
import { resetConfig } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import {
  memberSiteGrants,
  notificationOutbox,
  searchAnalytics,
  searchConnections,
  sites,
} from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import { syncSearchAnalytics } from '@/lib/search/analytics';
import type { SearchSyncRequest } from '@/lib/search/events';
import { runSearchSchedulerTick } from '@/lib/search/scheduler';
import { STATE_TTL_MS } from '@/lib/search/state';
import { type Query, v1 } from '../support/api-client';
import { signIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { insertSite } from '../support/fixtures';
import { type FakeGoogle, startFakeGoogle } from '../support/google';
import { addMember, type CallResult, call, insertApiKey, signInOwner } from '../support/http';

/*
 * The OAuth callback (/api/search/callback) is called by hand: it is Google's redirect, not in the
 * /v1 document the typed client (tests/support/api-client) is generated from; the /v1 calls use
 * the client.
 */

const CLIENT_ID = '123-test.apps.googleusercontent.com';
const CLIENT_SECRET = 'GOCSPX-test-secret';
/** The app's public URL under test (APP_URL unset: localhost on PORT). */
const APP_URL = 'http://localhost:3000';
const PROPERTY = 'https://www.search-site.example/';
const DAY = 86_400_000;
const noWait = { retry: { sleep: async () => {} } };

let db: Db;
let teardown: () => Promise<void>;
let google: FakeGoogle;
let owner: { token: string; tenantId: string; userId: string };
let siteId: string;

/** Every log line and every response body of the file, searched for tokens at the end. */
const logged: string[] = [];
const originals: (() => void)[] = [];
const answered: string[] = [];
const remember = <T extends CallResult>(res: T): T => {
  answered.push(JSON.stringify(res.body), JSON.stringify([...res.headers]));
  return res;
};

type Credentials = { token?: string; apiKey?: string };
const as = (c: Credentials = { token: owner.token }) => c;
/** The site's search routes through the typed client, each answer remembered. */
const siteSearch = (id: string, c?: Credentials) => ({ api: v1(as(c)), init: { params: { path: { id } } } });

const getConnection = (id = siteId, c?: Credentials) => {
  const { api, init } = siteSearch(id, c);
  return api.GET('/v1/sites/{id}/search', init).then(remember);
};
const connect = (id = siteId, c?: Credentials) => {
  const { api, init } = siteSearch(id, c);
  return api.POST('/v1/sites/{id}/search/connect', init).then(remember);
};
// Google's redirect back to the app: a page outside /v1 and the API document, so called by hand.
const callback = (query: Record<string, string>, c?: Credentials) =>
  call(callbackRoute.GET, { path: `/api/search/callback?${new URLSearchParams(query)}`, ...as(c) }).then(
    remember,
  );
const properties = (id = siteId, c?: Credentials) => {
  const { api, init } = siteSearch(id, c);
  return api.GET('/v1/sites/{id}/search/properties', init).then(remember);
};
const chooseProperty = (property: string, id = siteId, c?: Credentials) => {
  const { api, init } = siteSearch(id, c);
  return api.POST('/v1/sites/{id}/search/property', { ...init, body: { property } }).then(remember);
};
const disconnect = (id = siteId, c?: Credentials) => {
  const { api, init } = siteSearch(id, c);
  return api.DELETE('/v1/sites/{id}/search', init).then(remember);
};
const analytics = (
  id = siteId,
  query: Query<'/v1/sites/{id}/search/analytics', 'get'> = {},
  c?: Credentials,
) => {
  const { api, init } = siteSearch(id, c);
  return api.GET('/v1/sites/{id}/search/analytics', { params: { ...init.params, query } }).then(remember);
};

const stateOf = (authorizeUrl: string) => new URL(authorizeUrl).searchParams.get('state') ?? '';
const rowOf = async (id = siteId) => {
  const [row] = await db.select().from(searchConnections).where(eq(searchConnections.site_id, id));
  return row;
};

/** Connects `id` as the owner would: connect, Google's consent, the callback. */
async function connectSite(id: string, email = 'owner@gmail.example', token = owner.token) {
  const started = await connect(id, { token });
  expect(started.status).toBe(200);
  const res = await callback(
    { state: stateOf(started.body.authorizeUrl), code: google.grant(email) },
    { token },
  );
  expect(res.status).toBe(303);
  return res;
}

/** `count` days ending `end` (inclusive), `clicks` each. */
const days = (end: string, count: number, clicks: number) =>
  Array.from({ length: count }, (_, i) => ({
    day: new Date(Date.parse(`${end}T00:00:00Z`) - (count - 1 - i) * DAY).toISOString().slice(0, 10),
    clicks,
    impressions: clicks * 20,
    ctr: 0.05,
    position: 7.5,
  }));

beforeAll(async () => {
  // Wrapped by hand, not with vi.spyOn: the sign-in helper spies on console.log and restores it,
  // which would take a spy of ours away with its own.
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    const original = console[method].bind(console);
    originals.push(() => {
      console[method] = original;
    });
    console[method] = (...args: unknown[]) => {
      logged.push(args.map(String).join(' '));
      original(...args);
    };
  }
  google = await startFakeGoogle(CLIENT_ID, CLIENT_SECRET);
  Object.assign(process.env, {
    GOOGLE_CLIENT_ID: CLIENT_ID,
    GOOGLE_CLIENT_SECRET: CLIENT_SECRET,
    GOOGLE_AUTH_URL: google.url('/o/oauth2/v2/auth'),
    GOOGLE_TOKEN_URL: google.url('/token'),
    GOOGLE_REVOKE_URL: google.url('/revoke'),
    SEARCH_CONSOLE_API_URL: google.server.origin,
  });
  ({ db, teardown } = await useTestDatabase());
  owner = await signInOwner(db, 'search-owner@example.com');
  siteId = await insertSite(db, owner.tenantId, 'search-site.example');
  google.sites.set('owner@gmail.example', [
    { siteUrl: PROPERTY, permissionLevel: 'siteOwner' },
    { siteUrl: 'sc-domain:search-site.example', permissionLevel: 'siteFullUser' },
    { siteUrl: 'https://unverified.example/', permissionLevel: 'siteUnverifiedUser' },
  ]);
});

afterAll(async () => {
  await google.server.close();
  await closeDispatchers();
  await teardown();
  for (const name of [
    'GOOGLE_CLIENT_ID',
    'GOOGLE_CLIENT_SECRET',
    'GOOGLE_AUTH_URL',
    'GOOGLE_TOKEN_URL',
    'GOOGLE_REVOKE_URL',
    'SEARCH_CONSOLE_API_URL',
  ])
    delete process.env[name];
  resetConfig();
  for (const restore of originals) restore();
});

describe('connecting (OAuth web-server flow)', () => {
  it('starts unconnected, with the server configured', async () => {
    const res = await getConnection();
    expect(res).toMatchObject({
      status: 200,
      body: {
        configured: true,
        status: null,
        accountEmail: null,
        property: null,
        analyticsSyncedAt: null,
        error: null,
        dropAlert: { thresholdPct: 30, minClicks: 100 },
      },
    });
  });

  it("answers Google's consent URL: offline access, consent prompt, the Search Console scope, a state", async () => {
    const res = await connect();
    expect(res.status).toBe(200);
    const url = new URL(res.body.authorizeUrl);
    expect(`${url.origin}${url.pathname}`).toBe(google.url('/o/oauth2/v2/auth'));
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: CLIENT_ID,
      redirect_uri: `${APP_URL}/api/search/callback`,
      response_type: 'code',
      scope: 'openid email https://www.googleapis.com/auth/webmasters.readonly',
      access_type: 'offline',
      prompt: 'consent',
      state: expect.stringMatching(/^[\w-]+\.[\w-]+$/),
    });
  });

  it('exchanges the code in the callback: account email from the id_token, status pending-property, token sealed', async () => {
    const res = await connectSite(siteId);
    expect(res.headers.get('location')).toBe(`${APP_URL}/sites/${siteId}/search?connected=1`);
    const exchange = google.server.requests.filter((r) => r.path === '/token');
    expect(exchange).toHaveLength(1);
    const row = await rowOf();
    expect(row).toMatchObject({
      status: 'pending-property',
      account_email: 'owner@gmail.example',
      property: null,
    });
    const token = google.issuedRefreshTokens.at(-1)!;
    expect(row?.refresh_token_enc).toMatch(/^v1\./);
    expect(row?.refresh_token_enc).not.toContain(token);
    expect((await getConnection()).body).toMatchObject({
      status: 'pending-property',
      accountEmail: 'owner@gmail.example',
    });
  });

  it('refuses a state issued to another session, an altered one, or none (403, nothing stored)', async () => {
    const other = await insertSite(db, owner.tenantId, 'state-check.example');
    const started = await connect(other);
    const state = stateOf(started.body.authorizeUrl);
    // The same user signed in elsewhere: another session.
    const { token: secondSession } = await signIn(db, 'search-owner@example.com');
    const elsewhere = await callback(
      { state, code: google.grant('x@gmail.example') },
      { token: secondSession },
    );
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.error).toMatch(/not started from your current session/);
    const [body, signature] = state.split('.');
    const altered = `${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), s: siteId })).toString('base64url')}.${signature}`;
    expect((await callback({ state: altered, code: google.grant('x@gmail.example') })).status).toBe(403);
    expect((await callback({ code: google.grant('x@gmail.example') })).status).toBe(403);
    expect(await rowOf(other)).toBeUndefined();
  });

  it('sends the browser back with the reason when the user declines, the state expired, or the scope was unticked', async () => {
    const id = await insertSite(db, owner.tenantId, 'declined.example');
    const state = stateOf((await connect(id)).body.authorizeUrl);
    const declined = await callback({ state, error: 'access_denied' });
    expect(declined.headers.get('location')).toBe(`${APP_URL}/sites/${id}/search?error=access_denied`);
    const scope = await callback({ state, code: google.grant('x@gmail.example', 'openid email') });
    expect(scope.headers.get('location')).toMatch(/error=scope$/);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + STATE_TTL_MS + 60_000);
      const late = await callback({ state, code: google.grant('x@gmail.example') });
      expect(late.headers.get('location')).toMatch(/error=expired$/);
    } finally {
      vi.useRealTimers();
    }
    expect(await rowOf(id)).toBeUndefined();
  });
});

describe('choosing the property', () => {
  it('lists what the account can read, fresh from Google, without unverified entries', async () => {
    const res = await properties();
    expect(res.status).toBe(200);
    expect(res.body.properties).toEqual([
      { siteUrl: PROPERTY, permissionLevel: 'siteOwner' },
      { siteUrl: 'sc-domain:search-site.example', permissionLevel: 'siteFullUser' },
    ]);
  });

  it('refuses a property the account cannot read (422), and a missing one', async () => {
    const unverified = await chooseProperty('https://unverified.example/');
    expect(unverified.status).toBe(422);
    expect(unverified.body.error).toMatch(
      /^property: the connected account \(owner@gmail.example\) cannot read/,
    );
    expect((await chooseProperty('https://someone-else.example/')).status).toBe(422);
    // A body the document refuses, sent as it is: the route's own validation is what this checks.
    const missing = await v1({ token: owner.token }).raw({
      method: 'POST',
      path: `/v1/sites/${siteId}/search/property`,
      body: {},
    });
    expect(missing).toMatchObject({ status: 422, body: { error: 'property: is required' } });
    expect((await rowOf())?.status).toBe('pending-property');
  });

  it('connects a readable property and arms the first sync at once', async () => {
    const before = Date.now();
    const res = await chooseProperty(PROPERTY);
    expect(res).toMatchObject({
      status: 200,
      body: { status: 'connected', property: PROPERTY, error: null },
    });
    const row = await rowOf();
    expect(row?.next_sync_at).toBeGreaterThanOrEqual(before);
    expect(row?.next_sync_at).toBeLessThanOrEqual(Date.now());
  });

  it('404s when the SEO app is off or the site is not connected', async () => {
    const lonely = await insertSite(db, owner.tenantId, 'lonely.example');
    const res = await chooseProperty(PROPERTY, lonely);
    expect(res).toMatchObject({
      status: 404,
      body: { error: 'the site is not connected to a search account' },
    });
    await db.update(sites).set({ seo_enabled: 0 }).where(eq(sites.id, siteId));
    try {
      const off = await chooseProperty(PROPERTY);
      expect(off).toMatchObject({ status: 404, body: { error: 'the SEO app is not enabled for this site' } });
      expect((await connect()).status).toBe(404);
      expect((await analytics()).status).toBe(404);
    } finally {
      await db.update(sites).set({ seo_enabled: 1 }).where(eq(sites.id, siteId));
    }
  });
});

describe('the analytics sync and the traffic-drop alert', () => {
  const today = '2026-11-24';
  const now = Date.parse(`${today}T10:00:00Z`);
  const drops = () =>
    db
      .select()
      .from(notificationOutbox)
      .where(and(eq(notificationOutbox.site_id, siteId), eq(notificationOutbox.kind, 'search-traffic-drop')));

  it('is handed out by the scheduler once the property is chosen, then at the site’s daily minute', async () => {
    const requested: SearchSyncRequest[] = [];
    const events = { syncRequested: async (r: SearchSyncRequest[]) => void requested.push(...r) };
    await runSearchSchedulerTick(db, Date.now(), events);
    expect(requested.map((r) => r.siteId)).toEqual([siteId]);
    requested.length = 0;
    await runSearchSchedulerTick(db, Date.now(), events);
    expect(requested).toEqual([]);
    const next = (await rowOf())?.next_sync_at ?? 0;
    expect(next - Date.now()).toBeGreaterThan(0);
    expect(next - Date.now()).toBeLessThanOrEqual(DAY);
  });

  it('backfills 90 days of final data by date on the first sync', async () => {
    // 200 clicks a day until a week ago: a steady baseline. Final data ends two days back.
    google.analytics.set(PROPERTY, days('2026-11-22', 100, 200));
    const outcome = await syncSearchAnalytics(db, { tenantId: owner.tenantId, siteId }, { ...noWait, now });
    expect(outcome).toMatchObject({ status: 'synced', from: '2026-08-26', to: today, alerted: false });
    expect(google.analyticsQueries.at(-1)).toEqual({
      property: PROPERTY,
      body: {
        startDate: '2026-08-26',
        endDate: today,
        dimensions: ['date'],
        type: 'web',
        dataState: 'final',
        rowLimit: 25000,
      },
    });
    const stored = await db.select().from(searchAnalytics).where(eq(searchAnalytics.site_id, siteId));
    expect(stored).toHaveLength(89);
    expect((await rowOf())?.analytics_synced_at).toBe(now);
  });

  it('answers the daily series and the last 7 days against the 7 before', async () => {
    const res = await analytics(siteId, { days: 14 });
    expect(res.status).toBe(200);
    expect(res.body.series).toHaveLength(14);
    expect(res.body.series.at(-1)).toEqual({
      day: '2026-11-22',
      clicks: 200,
      impressions: 4000,
      ctr: 0.05,
      position: 7.5,
    });
    expect(res.body.comparison).toEqual({
      last7: { from: '2026-11-16', to: '2026-11-22', clicks: 1400, impressions: 28000 },
      previous7: { from: '2026-11-09', to: '2026-11-15', clicks: 1400, impressions: 28000 },
      clicksChangePct: 0,
      impressionsChangePct: 0,
      drop: false,
    });
    expect((await analytics(siteId, { days: 0 })).status).toBe(422);
    expect((await analytics(siteId, { days: 366 })).status).toBe(422);
    // Data like any report: readable with a key.
    const key = await insertApiKey(db, owner.tenantId);
    expect((await analytics(siteId, {}, { apiKey: key })).status).toBe(200);
  });

  it('alerts once when clicks fall 30% or more, not again while they stay down, and again after a recovery', async () => {
    const later = now + 3 * DAY;
    // The last 7 final days at 120 a day: -40%.
    google.analytics.set(PROPERTY, [...days('2026-11-18', 96, 200), ...days('2026-11-25', 7, 120)]);
    const first = await syncSearchAnalytics(
      db,
      { tenantId: owner.tenantId, siteId },
      { ...noWait, now: later },
    );
    expect(first).toMatchObject({ status: 'synced', from: '2026-11-15', alerted: true });
    const [alert] = await drops();
    expect(alert?.payload).toEqual({
      hostname: 'search-site.example',
      property: PROPERTY,
      last7: { from: '2026-11-19', to: '2026-11-25', clicks: 840, impressions: 16800 },
      previous7: { from: '2026-11-12', to: '2026-11-18', clicks: 1400, impressions: 28000 },
      clicksChangePct: -40,
      thresholdPct: 30,
      minClicks: 100,
    });
    const repeated = await syncSearchAnalytics(
      db,
      { tenantId: owner.tenantId, siteId },
      { ...noWait, now: later },
    );
    expect(repeated).toMatchObject({ status: 'synced', alerted: false });
    // A week later the drop is the new normal (the week before was low too): over.
    google.analytics.set(PROPERTY, [...days('2026-11-18', 96, 200), ...days('2026-12-02', 14, 120)]);
    await syncSearchAnalytics(db, { tenantId: owner.tenantId, siteId }, { ...noWait, now: later + 7 * DAY });
    expect((await rowOf())?.drop_alerted).toBe(0);
    // And a new fall from there alerts again.
    google.analytics.set(PROPERTY, [
      ...days('2026-11-18', 96, 200),
      ...days('2026-12-02', 14, 120),
      ...days('2026-12-09', 7, 50),
    ]);
    const again = await syncSearchAnalytics(
      db,
      { tenantId: owner.tenantId, siteId },
      { ...noWait, now: later + 14 * DAY },
    );
    expect(again.status === 'synced' && again.alerted).toBe(true);
    expect(await drops()).toHaveLength(2);
  });

  it('keeps quiet below the minimum baseline, which each site sets', async () => {
    const patched = await v1({ token: owner.token })
      .PATCH('/v1/sites/{id}/search', {
        params: { path: { id: siteId } },
        body: { dropThresholdPct: 50, dropMinClicks: 100000 },
      })
      .then(remember);
    expect(patched).toMatchObject({
      status: 200,
      body: { dropAlert: { thresholdPct: 50, minClicks: 100000 } },
    });
    const bad = await v1({ token: owner.token }).PATCH('/v1/sites/{id}/search', {
      params: { path: { id: siteId } },
      body: { dropThresholdPct: 0 },
    });
    expect(bad).toMatchObject({ status: 422, body: { error: 'dropThresholdPct: must be at least 5' } });
    expect((await analytics()).body.comparison.drop).toBe(false);
  });

  it('stops syncing with a plain error when Google refuses the refresh token (revoked)', async () => {
    google.refreshTokens.clear();
    const outcome = await syncSearchAnalytics(db, { tenantId: owner.tenantId, siteId }, noWait);
    expect(outcome).toEqual({ status: 'error', error: 'grant refused' });
    const row = await rowOf();
    expect(row).toMatchObject({ status: 'error', refresh_token_enc: null, next_sync_at: null });
    expect((await getConnection()).body).toMatchObject({
      status: 'error',
      error: 'Google refused the stored authorization (revoked or expired): connect the search account again',
    });
    const requested: SearchSyncRequest[] = [];
    await runSearchSchedulerTick(db, Date.now() + 2 * DAY, {
      syncRequested: async (r) => void requested.push(...r),
    });
    expect(requested).toEqual([]);
    expect((await properties()).status).toBe(404);
    // Connecting again brings it back.
    await connectSite(siteId);
    expect((await chooseProperty(PROPERTY)).body.status).toBe('connected');
  });

  it('puts a property the account can no longer read in error', async () => {
    google.sites.set('owner@gmail.example', [
      { siteUrl: 'sc-domain:search-site.example', permissionLevel: 'siteOwner' },
    ]);
    const outcome = await syncSearchAnalytics(db, { tenantId: owner.tenantId, siteId }, noWait);
    expect(outcome).toMatchObject({ status: 'error', error: expect.stringMatching(/can no longer read/) });
    expect((await getConnection()).body.status).toBe('error');
    // Choosing a readable property again is enough (the grant is fine).
    expect((await chooseProperty('sc-domain:search-site.example')).body.status).toBe('connected');
  });
});

describe('disconnecting', () => {
  it('revokes the grant at Google and forgets token, account, property and analytics', async () => {
    const token = [...google.refreshTokens.keys()].at(-1)!;
    const res = await disconnect();
    expect(res).toMatchObject({
      status: 200,
      body: { status: 'revoked', accountEmail: null, property: null, analyticsSyncedAt: null },
    });
    expect(google.revoked).toContain(token);
    expect(await rowOf()).toMatchObject({ refresh_token_enc: null, status: 'revoked' });
    expect(await db.select().from(searchAnalytics).where(eq(searchAnalytics.site_id, siteId))).toEqual([]);
    expect((await disconnect()).status).toBe(404);
    expect((await analytics()).status).toBe(404);
  });
});

describe('who may', () => {
  it('keeps the connection routes to owner and admin sessions: keys and members get 403', async () => {
    const key = await insertApiKey(db, owner.tenantId);
    const member = await addMember(db, {
      ownerToken: owner.token,
      tenantId: owner.tenantId,
      email: 'search-member@example.com',
      role: 'member',
    });
    const admin = await addMember(db, {
      ownerToken: owner.token,
      tenantId: owner.tenantId,
      email: 'search-admin@example.com',
      role: 'admin',
    });
    await db.insert(memberSiteGrants).values({
      tenant_id: owner.tenantId,
      member_id: member.memberId,
      site_id: siteId,
      created_at: Date.now(),
    });
    for (const c of [{ apiKey: key }, { token: member.token }]) {
      expect((await getConnection(siteId, c)).status).toBe(403);
      expect((await connect(siteId, c)).status).toBe(403);
      expect((await properties(siteId, c)).status).toBe(403);
      expect((await chooseProperty(PROPERTY, siteId, c)).status).toBe(403);
      expect((await disconnect(siteId, c)).status).toBe(403);
    }
    // The analytics are data like the site's reports: the member granted the site reads them.
    expect((await analytics(siteId, {}, { token: member.token })).status).toBe(404);
    expect((await getConnection(siteId, { token: admin.token })).status).toBe(200);
    expect((await connect(siteId, { token: admin.token })).status).toBe(200);
  });

  it('says configured: false and refuses to connect without a Google client', async () => {
    process.env.GOOGLE_CLIENT_SECRET = '';
    resetConfig();
    try {
      expect((await getConnection()).body.configured).toBe(false);
      const res = await connect();
      expect(res).toMatchObject({ status: 409, body: { error: expect.stringMatching(/GOOGLE_CLIENT_ID/) } });
    } finally {
      process.env.GOOGLE_CLIENT_SECRET = CLIENT_SECRET;
      resetConfig();
    }
  });
});

describe('the refresh token', () => {
  it('appears in no response and no log line', () => {
    expect(google.issuedRefreshTokens.length).toBeGreaterThan(2);
    const everything = [...answered, ...logged].join('\n');
    for (const token of google.issuedRefreshTokens) expect(everything).not.toContain(token);
    expect(everything).not.toContain(CLIENT_SECRET);
  });
});
