import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { type RequestBody, v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { addMember, signInOwner } from '../support/http';

/*
 * The notification settings API (spec: Notification recipient, Notification settings, the
 * Notifications endpoints): reads with every field, partial writes, site overrides, validation with
 * the field named, the signing secret and its rotation. Delivery is tested in notify-delivery.test.ts.
 */

let db: Db;
let teardown: () => Promise<void>;
let owner: { token: string; userId: string; tenantId: string };
let member: { token: string; userId: string; memberId: string };
let siteId: string;
let otherSiteId: string;

const EMPTY = {
  uptimeRecipients: [],
  uptimeWebhooks: [],
  crawlReportRecipients: [],
  searchAlertRecipients: [],
  searchAlertWebhooks: [],
  perfAlertRecipients: [],
  perfAlertWebhooks: [],
  reportRecipients: [],
  includeOrgDefaults: true,
};

const getOrg = () => v1({ token: owner.token }).GET('/v1/notifications');
const patchOrg = (body: RequestBody<'/v1/notifications', 'patch'>, token = owner.token) =>
  v1({ token }).PATCH('/v1/notifications', { body });
/** Bodies the document refuses, sent as they are: the route's own validation is what the test checks. */
const patchOrgUnchecked = (body: unknown) =>
  v1({ token: owner.token }).raw({ method: 'PATCH', path: '/v1/notifications', body });
/** A site's override, read, changed and removed through the typed client as the owner. */
const siteOverride = (id: string) => {
  const init = { params: { path: { id } } };
  const api = v1({ token: owner.token });
  return {
    get: () => api.GET('/v1/sites/{id}/notifications', init),
    patch: (body: RequestBody<'/v1/sites/{id}/notifications', 'patch'>) =>
      api.PATCH('/v1/sites/{id}/notifications', { ...init, body }),
    remove: () => api.DELETE('/v1/sites/{id}/notifications', init),
  };
};
const registerSite = async (rootUrl: string) => {
  const res = await v1({ token: owner.token }).POST('/v1/sites', { body: { rootUrl } });
  expect(res.status).toBe(201);
  return res.body.site.id as string;
};

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  owner = await signInOwner(db, 'owner@settings.test');
  member = await addMember(db, {
    ownerToken: owner.token,
    tenantId: owner.tenantId,
    email: 'member@settings.test',
    role: 'member',
  });
  siteId = await registerSite('https://settings-one.example/');
  otherSiteId = await registerSite('https://settings-two.example/');
});
afterAll(() => teardown());

describe('org defaults', () => {
  it('a new organization starts with its owner receiving uptime and performance alerts', async () => {
    const res = await getOrg();
    expect(res.status).toBe(200);
    const theOwner = [{ kind: 'user', userId: owner.userId }];
    expect(res.body.settings).toEqual({
      ...EMPTY,
      uptimeRecipients: theOwner,
      perfAlertRecipients: theOwner,
    });
    expect(res.body.overriddenSiteIds).toEqual([]);
    expect(res.body.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(res.body.previousSigningSecretExpiresAt).toBeNull();
    // The same secret on every read until it is rotated.
    expect((await getOrg()).body.signingSecret).toBe(res.body.signingSecret);
  });

  it('a partial write replaces the given lists and keeps the others', async () => {
    const first = await patchOrg({
      uptimeRecipients: [
        { kind: 'user', userId: member.userId },
        { kind: 'email', email: ' Ops@Example.com ' },
      ],
      uptimeWebhooks: [{ kind: 'slack', url: 'https://hooks.slack.com/services/T0/B0/abc' }],
    });
    expect(first.status).toBe(200);
    expect(first.body.settings).toEqual({
      ...EMPTY,
      perfAlertRecipients: [{ kind: 'user', userId: owner.userId }],
      uptimeRecipients: [
        { kind: 'user', userId: member.userId },
        { kind: 'email', email: 'Ops@Example.com' },
      ],
      uptimeWebhooks: [{ kind: 'slack', url: 'https://hooks.slack.com/services/T0/B0/abc' }],
    });
    const second = await patchOrg({
      crawlReportRecipients: [{ kind: 'email', email: 'reports@example.com' }],
    });
    expect(second.body.settings.uptimeRecipients).toHaveLength(2);
    expect(second.body.settings.uptimeWebhooks).toHaveLength(1);
    expect(second.body.settings.crawlReportRecipients).toEqual([
      { kind: 'email', email: 'reports@example.com' },
    ]);
    expect((await getOrg()).body.settings).toEqual(second.body.settings);
    // includeOrgDefaults means nothing on the org scope: accepted, still true.
    const ignored = await patchOrg({ includeOrgDefaults: false });
    expect(ignored.status).toBe(200);
    expect(ignored.body.settings.includeOrgDefaults).toBe(true);
  });

  it('duplicates in a list are dropped (members by id, addresses case-insensitively)', async () => {
    const res = await patchOrg({
      reportRecipients: [
        { kind: 'email', email: 'a@example.com' },
        { kind: 'email', email: 'A@EXAMPLE.com' },
        { kind: 'user', userId: owner.userId },
        { kind: 'user', userId: owner.userId },
      ],
    });
    expect(res.body.settings.reportRecipients).toEqual([
      { kind: 'email', email: 'a@example.com' },
      { kind: 'user', userId: owner.userId },
    ]);
  });
});

describe('validation: 422 naming the field, nothing saved', () => {
  const email = (i: number) => ({ kind: 'email', email: `r${i}@example.com` });
  const hook = (i: number) => ({ kind: 'http', url: `https://hooks.example/${i}` });
  it.each([
    [
      { uptimeRecipients: Array.from({ length: 11 }, (_, i) => email(i)) },
      'uptimeRecipients: must have at most 10 recipients',
    ],
    [
      { perfAlertWebhooks: Array.from({ length: 6 }, (_, i) => hook(i)) },
      'perfAlertWebhooks: must have at most 5 webhooks',
    ],
    [
      { reportRecipients: [{ kind: 'email', email: 'not an address' }] },
      'reportRecipients.0.email: must be an email address',
    ],
    [
      { reportRecipients: [{ kind: 'team', name: 'x' }] },
      'reportRecipients.0.kind: must be {"kind": "user", "userId": ...} or {"kind": "email", "email": ...}',
    ],
    [
      { reportRecipients: [{ kind: 'user', userId: 'not-a-member' }] },
      'reportRecipients.0.userId: is not a member of this organization',
    ],
    [
      { uptimeWebhooks: [{ kind: 'pagerduty', url: 'https://events.example/' }] },
      'uptimeWebhooks.0.kind: must be one of slack, discord, teams, http',
    ],
    [
      { uptimeWebhooks: [{ kind: 'http', url: 'ftp://files.example/hook' }] },
      'uptimeWebhooks.0.url: must use http or https',
    ],
    [{ uptimeWebhooks: [{ kind: 'http', url: 'not a url' }] }, 'uptimeWebhooks.0.url:'],
    [
      { uptimeWebhooks: [{ kind: 'teams', url: 'https://contoso.webhook.office.com/webhookb2/abc' }] },
      'uptimeWebhooks.0.url: is an Office 365 connector URL, which Microsoft retired',
    ],
    [{ uptimeRecipients: 'ops@example.com' }, 'uptimeRecipients: must be an array of recipients'],
    [{ includeOrgDefaults: 'yes' }, 'includeOrgDefaults: must be true or false'],
    [{ somethingElse: [] }, 'somethingElse: is not a field of this request (unknown field)'],
  ])('%j', async (body, message) => {
    const before = (await getOrg()).body.settings;
    const res = await patchOrgUnchecked(body);
    expect(res.status).toBe(422);
    expect(res.body.error).toContain(message);
    expect((await getOrg()).body.settings).toEqual(before);
  });

  it('a user recipient must be a member of this organization, and a removed member no longer is', async () => {
    const leaver = await addMember(db, {
      ownerToken: owner.token,
      tenantId: owner.tenantId,
      email: 'leaver@settings.test',
      role: 'member',
    });
    expect(
      (await patchOrg({ searchAlertRecipients: [{ kind: 'user', userId: leaver.userId }] })).status,
    ).toBe(200);
    const removed = await v1({ token: owner.token }).DELETE('/v1/members/{memberId}', {
      params: { path: { memberId: leaver.memberId } },
    });
    expect(removed.status).toBe(200);
    const again = await patchOrg({ perfAlertRecipients: [{ kind: 'user', userId: leaver.userId }] });
    expect(again.status).toBe(422);
    expect(again.body.error).toBe('perfAlertRecipients.0.userId: is not a member of this organization');
  });

  it('private webhook addresses are refused when saved (outside development)', async () => {
    process.env.ALLOW_PRIVATE_NETWORK = 'false';
    resetConfig();
    try {
      const res = await patchOrg({ uptimeWebhooks: [{ kind: 'http', url: 'http://10.0.0.5/hook' }] });
      expect(res.status).toBe(422);
      expect(res.body.error).toMatch(
        /^uptimeWebhooks\.0\.url: must not point at a private address \(10\.0\.0\.5\)/,
      );
    } finally {
      process.env.ALLOW_PRIVATE_NETWORK = 'true';
      resetConfig();
    }
  });
});

describe('site overrides', () => {
  it('a site without an override reads empty receivers with includeOrgDefaults true', async () => {
    const res = await siteOverride(siteId).get();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ settings: EMPTY, overridden: false });
  });

  it('PATCH creates the override from the empty start; omitted fields keep their value; the org lists it', async () => {
    const created = await siteOverride(siteId).patch({
      uptimeRecipients: [{ kind: 'email', email: 'site-ops@example.com' }],
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      overridden: true,
      settings: { ...EMPTY, uptimeRecipients: [{ kind: 'email', email: 'site-ops@example.com' }] },
    });
    const narrowed = await siteOverride(siteId).patch({ includeOrgDefaults: false });
    expect(narrowed.body.settings).toEqual({
      ...EMPTY,
      uptimeRecipients: [{ kind: 'email', email: 'site-ops@example.com' }],
      includeOrgDefaults: false,
    });
    expect((await siteOverride(siteId).get()).body).toEqual(narrowed.body);
    expect((await getOrg()).body.overriddenSiteIds).toEqual([siteId]);
    // The org defaults are untouched by an override.
    expect((await getOrg()).body.settings.uptimeRecipients).toHaveLength(2);
  });

  it('DELETE reverts the site to the org defaults', async () => {
    const res = await siteOverride(siteId).remove();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true });
    expect((await siteOverride(siteId).get()).body).toEqual({
      settings: EMPTY,
      overridden: false,
    });
    expect((await getOrg()).body.overriddenSiteIds).toEqual([]);
    expect((await siteOverride(siteId).remove()).body).toEqual({
      deleted: false,
    });
  });

  it('validates like the org defaults, and an unknown site is 404', async () => {
    const bad = await siteOverride(otherSiteId).patch({
      reportRecipients: [{ kind: 'user', userId: 'stranger' }],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toBe('reportRecipients.0.userId: is not a member of this organization');
    expect((await siteOverride(otherSiteId).get()).body.overridden).toBe(false);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await siteOverride(unknown).get()).status).toBe(404);
    expect((await siteOverride('not-a-uuid').get()).status).toBe(404);
  });
});

describe('signing secret', () => {
  it('rotating answers a new secret; the previous one signs alongside for 24 hours', async () => {
    const before = (await getOrg()).body.signingSecret;
    const started = Date.now();
    const res = await v1({ token: owner.token }).POST('/v1/notifications/signing-secret');
    expect(res.status).toBe(200);
    expect(res.body.signingSecret).toMatch(/^whsec_/);
    expect(res.body.signingSecret).not.toBe(before);
    expect(res.body.previousSigningSecretExpiresAt).toBeGreaterThanOrEqual(started + 24 * 3600_000);
    expect(res.body.previousSigningSecretExpiresAt).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);
    const read = await getOrg();
    expect(read.body.signingSecret).toBe(res.body.signingSecret);
    expect(read.body.previousSigningSecretExpiresAt).toBe(res.body.previousSigningSecretExpiresAt);
  });

  it('is stored sealed: the database holds neither secret in clear', async () => {
    const { signingSecret } = (await getOrg()).body;
    const rows = await db.query.notificationSigningSecrets.findMany();
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(signingSecret.slice('whsec_'.length));
    expect(stored).not.toContain('whsec_');
  });
});

describe('test send and deliveries: body rules', () => {
  it.each([
    [{}, 'body: must have exactly one of email and webhook'],
    [
      { email: 'a@example.com', webhook: { kind: 'http', url: 'https://x.example/' } },
      'body: must have exactly one of email and webhook',
    ],
    [{ email: 'nope' }, 'email: must be an email address'],
    [
      { webhook: { kind: 'sms', url: 'https://x.example/' } },
      'webhook.kind: must be one of slack, discord, teams, http',
    ],
  ])('test %j is 422', async (body, message) => {
    // Bodies the document refuses, sent as they are: the route's own validation is under test.
    const res = await v1({ token: owner.token }).raw({
      method: 'POST',
      path: '/v1/notifications/test',
      body,
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe(message);
  });

  it.each([
    ['?kind=nonsense', 'kind:'],
    ['?limit=0', 'limit: must be at least 1'],
    ['?limit=101', 'limit: must be at most 100'],
    ['?siteId=abc', 'siteId: must be a site id'],
    ['?cursor=bm90IGEgY3Vyc29y', 'cursor: is not a cursor this endpoint returned'],
  ])('deliveries %s is 422', async (query, message) => {
    // Queries the document refuses, sent as they are: the route's own validation is under test.
    const res = await v1({ token: owner.token }).raw({ path: `/v1/notifications/deliveries${query}` });
    expect(res.status).toBe(422);
    expect(res.body.error).toContain(message);
  });
});
