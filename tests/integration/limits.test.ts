import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/client';
import { limitRequests } from '@/lib/db/schema';
import { type Credential, type RequestBody, v1 } from '../support/api-client';
import { authPost } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { addMember, insertApiKey, signInOwner } from '../support/http';

/** Status and JSON body only, so whole answers compare exactly with toEqual. */
const api = (credential: Credential = {}) => v1(credential, { headers: false });

let db: Db;
let teardown: () => Promise<void>;

const request = (
  body: RequestBody<'/v1/me/limit-requests', 'post'>,
  auth: { token?: string; apiKey?: string },
) => api(auth).POST('/v1/me/limit-requests', { body });
/** Bodies the document refuses, sent as they are: the route's own validation is what the test checks. */
const requestUnchecked = (body: unknown, auth: { token?: string }) =>
  api(auth).raw({ method: 'POST', path: '/v1/me/limit-requests', body });
const quota = (auth: { token?: string; apiKey?: string }) => api(auth).GET('/v1/me/org-quota');
const valid: RequestBody<'/v1/me/limit-requests', 'post'> = {
  kind: 'user_orgs',
  requestedLimit: 5,
  reason: 'I run sites for four clients',
};

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
});
afterAll(() => teardown());

describe('GET /v1/me/org-quota', () => {
  it('reports the account’s organization cap, its use and the latest request', async () => {
    const owner = await signInOwner(db, 'quota@example.com');
    expect(await quota({ token: owner.token })).toEqual({
      status: 200,
      body: { limit: 2, used: 1, canCreate: true, latestRequest: null },
    });

    // A second organization uses up the default cap of 2.
    const created = await authPost(
      '/organization/create',
      { name: 'Second', slug: `second-${owner.userId.slice(0, 8)}` },
      owner.token,
    );
    expect(created.status).toBe(200);
    expect((await quota({ token: owner.token })).body).toMatchObject({ limit: 2, used: 2, canCreate: false });

    const asked = await request(valid, { token: owner.token });
    expect(asked.status).toBe(201);
    expect((await quota({ token: owner.token })).body.latestRequest).toEqual(asked.body.request);

    // Once approved, the raised cap applies and organizations can be created again.
    await db
      .update(limitRequests)
      .set({ status: 'approved', decided_at: Date.now() })
      .where(eq(limitRequests.id, asked.body.request.id));
    expect((await quota({ token: owner.token })).body).toMatchObject({
      limit: 5,
      used: 2,
      canCreate: true,
      latestRequest: { id: asked.body.request.id, status: 'approved', decidedAt: expect.any(Number) },
    });
  });
});

describe('POST /v1/me/limit-requests', () => {
  it('files a pending request about the caller’s own organization cap', async () => {
    const owner = await signInOwner(db, 'asker@example.com');
    const before = Date.now();
    const res = await request(valid, { token: owner.token });
    expect(res).toEqual({
      status: 201,
      body: {
        request: {
          id: expect.any(String),
          kind: 'user_orgs',
          status: 'pending',
          currentLimit: 2,
          requestedLimit: 5,
          reason: 'I run sites for four clients',
          createdAt: expect.any(Number),
          decidedAt: null,
        },
      },
    });
    expect(res.body.request.createdAt).toBeGreaterThanOrEqual(before);
    const [row] = await db.select().from(limitRequests).where(eq(limitRequests.id, res.body.request.id));
    expect(row).toMatchObject({ user_id: owner.userId, tenant_id: owner.tenantId, status: 'pending' });
  });

  it('answers 409 to a second request while one is pending, and allows one after a decision', async () => {
    const owner = await signInOwner(db, 'repeat@example.com');
    expect((await request(valid, { token: owner.token })).status).toBe(201);
    const again = await request({ ...valid, requestedLimit: 9 }, { token: owner.token });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already pending/);

    await db
      .update(limitRequests)
      .set({ status: 'denied', decided_at: Date.now() })
      .where(and(eq(limitRequests.user_id, owner.userId), eq(limitRequests.status, 'pending')));
    expect((await request(valid, { token: owner.token })).status).toBe(201);
  });

  it('lets exactly one of two racing requests through (the partial unique index decides)', async () => {
    const owner = await signInOwner(db, 'racer@example.com');
    const results = await Promise.all([
      request(valid, { token: owner.token }),
      request(valid, { token: owner.token }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const rows = await db.select().from(limitRequests).where(eq(limitRequests.user_id, owner.userId));
    expect(rows).toHaveLength(1);
  });

  it('answers 400 for the retired org_sites kind, whatever else the body holds', async () => {
    const owner = await signInOwner(db, 'retired@example.com');
    for (const body of [{ ...valid, kind: 'org_sites' }, { kind: 'org_sites' }]) {
      const res = await requestUnchecked(body, { token: owner.token });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^kind: org_sites is retired/);
    }
    expect(await db.select().from(limitRequests).where(eq(limitRequests.user_id, owner.userId))).toEqual([]);
  });

  it.each([
    [{ ...valid, kind: 'more_monitors' }, /^kind: must be one of: user_orgs/],
    [{ ...valid, kind: undefined }, /^kind: /],
    [{ ...valid, requestedLimit: 2 }, /^requestedLimit: must be above your current limit of 2/],
    [{ ...valid, requestedLimit: 1 }, /^requestedLimit: must be above your current limit of 2/],
    [{ ...valid, requestedLimit: 3.5 }, /^requestedLimit: must be a whole number/],
    [{ ...valid, requestedLimit: '5' }, /^requestedLimit: /],
    [{ ...valid, reason: undefined }, /^reason: is required/],
    [{ ...valid, reason: '   ' }, /^reason: is required/],
    [{ ...valid, reason: 'x'.repeat(2001) }, /^reason: must be at most 2000 characters/],
  ])('refuses %j with 422 naming the field', async (body, message) => {
    const owner = await signInOwner(db, `invalid-${Math.random().toString(36).slice(2)}@example.com`);
    const res = await requestUnchecked(body, { token: owner.token });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(message);
  });

  it('measures "above the current limit" against an approved raise', async () => {
    const owner = await signInOwner(db, 'raised@example.com');
    const first = await request({ ...valid, requestedLimit: 4 }, { token: owner.token });
    await db
      .update(limitRequests)
      .set({ status: 'approved' })
      .where(eq(limitRequests.id, first.body.request.id));
    const same = await request({ ...valid, requestedLimit: 4 }, { token: owner.token });
    expect(same.status).toBe(422);
    expect(same.body.error).toBe('requestedLimit: must be above your current limit of 4');
    expect(
      (await request({ ...valid, requestedLimit: 6 }, { token: owner.token })).body.request.currentLimit,
    ).toBe(4);
  });
});

describe('who may use /v1/me', () => {
  it('is any session role, never an API key, never anonymous', async () => {
    const owner = await signInOwner(db, 'boss@example.com');
    const member = await addMember(db, {
      ownerToken: owner.token,
      tenantId: owner.tenantId,
      email: 'plain-member@example.com',
      role: 'member',
    });
    // The member belongs to their own organization and this one: the cap of 2 is used up.
    expect((await quota({ token: member.token })).body).toMatchObject({
      limit: 2,
      used: 2,
      canCreate: false,
    });
    expect((await request(valid, { token: member.token })).status).toBe(201);

    const apiKey = await insertApiKey(db, owner.tenantId);
    for (const res of [await quota({ apiKey }), await request(valid, { apiKey })]) {
      expect(res.status).toBe(403);
      expect(res.body.error).toMatch(/session/);
    }
    expect((await quota({})).status).toBe(401);
    expect((await request(valid, {})).status).toBe(401);
  });
});
