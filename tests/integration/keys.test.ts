import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKeySecret } from '@/lib/auth/key-secret';
import type { Db } from '@/lib/db/client';
import { apiKeys, sites } from '@/lib/db/schema';
import { type Credential, type RequestBody, v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { insertSite } from '../support/fixtures';
import { addMember, signInOwner } from '../support/http';

/** Status and JSON body only, so whole answers compare exactly with toEqual. */
const api = (credential: Credential = {}) => v1(credential, { headers: false });

let db: Db;
let teardown: () => Promise<void>;
let owner: { token: string; userId: string; tenantId: string };
let stranger: { token: string; userId: string; tenantId: string };
let siteA1: string;
let siteA2: string;
let siteB: string;

const createKey = (body: RequestBody<'/v1/keys', 'post'>, token = owner.token) =>
  api({ token }).POST('/v1/keys', { body });
/** Bodies the document refuses, sent as they are: the route's own validation is what the test checks. */
const createKeyUnchecked = (body: unknown) =>
  api({ token: owner.token }).raw({ method: 'POST', path: '/v1/keys', body });
const reroll = (id: string, auth: { token?: string; apiKey?: string } = { token: owner.token }) =>
  api(auth).POST('/v1/keys/{id}/reroll', { params: { path: { id } } });
const revoke = (id: string, auth: { token?: string; apiKey?: string } = { token: owner.token }) =>
  api(auth).POST('/v1/keys/{id}/revoke', { params: { path: { id } } });
/** A key authenticates when a session-only route answers 403 (who you are is known) rather than 401. */
const keyStatus = async (secret: string) => (await api({ apiKey: secret }).GET('/v1/keys')).status;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  owner = await signInOwner(db, 'owner-a@example.com');
  stranger = await signInOwner(db, 'owner-b@example.com');
  siteA1 = await insertSite(db, owner.tenantId, 'a1.example');
  siteA2 = await insertSite(db, owner.tenantId, 'a2.example');
  siteB = await insertSite(db, stranger.tenantId, 'b.example');
});
afterAll(() => teardown());

describe('POST /v1/keys', () => {
  it('creates a key, shows the secret once and stores only its hash', async () => {
    const before = Date.now();
    const res = await createKey({ name: 'CMS', expiresInDays: 30 });
    expect(res.status).toBe(201);
    const { key, secret } = res.body;
    expect(secret).toMatch(/^sw_[A-Za-z0-9_-]{43,}$/);
    expect(key).toEqual({
      id: expect.any(String),
      name: 'CMS',
      prefix: secret.slice(0, 9),
      siteIds: null,
      expiresAt: key.createdAt + 30 * 86_400_000,
      createdAt: expect.any(Number),
      lastUsedAt: null,
    });
    expect(key.createdAt).toBeGreaterThanOrEqual(before);

    const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row?.secret_hash).toBe(hashKeySecret(secret));
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row?.tenant_id).toBe(owner.tenantId);
    expect(row?.created_by).toBe(owner.userId);

    expect(await keyStatus(secret)).toBe(403);
    const [used] = await db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(used?.last_used_at).toBeGreaterThanOrEqual(before);
  });

  it('scopes a key to sites of its own organization only', async () => {
    const res = await createKey({ name: 'one site', siteIds: [siteA1, siteA1] });
    expect(res.status).toBe(201);
    expect(res.body.key.siteIds).toEqual([siteA1]);
    expect(res.body.key.expiresAt).toBeNull();

    const foreign = await createKey({ name: 'sneaky', siteIds: [siteA1, siteB] });
    expect(foreign).toEqual({
      status: 422,
      body: {
        error: `siteIds: ${siteB} is not a site of this organization`,
        issues: [{ field: 'siteIds', message: `${siteB} is not a site of this organization` }],
      },
    });
  });

  it.each([
    [{}, /^name: /],
    [{ name: '' }, /^name: must not be empty/],
    [{ name: '   ' }, /^name: must not be empty/],
    [{ name: 'x'.repeat(101) }, /^name: must be at most 100 characters/],
    [{ name: 'k', expiresInDays: 0 }, /^expiresInDays: must be at least 1/],
    [{ name: 'k', expiresInDays: 3651 }, /^expiresInDays: must be at most 3650/],
    [{ name: 'k', expiresInDays: 1.5 }, /^expiresInDays: must be a whole number/],
    [{ name: 'k', siteIds: [] }, /^siteIds: must name at least one site/],
    [{ name: 'k', siteIds: ['not-a-uuid'] }, /^siteIds\.0: /],
    [{ name: 'k', siteIds: 'all' }, /^siteIds: /],
    [{ name: 'k', scope: 'admin' }, /scope/],
  ])('refuses %j with 422 naming the field', async (body, message) => {
    const res = await createKeyUnchecked(body);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(message);
  });

  it('accepts the bounds of name and lifetime', async () => {
    expect((await createKey({ name: 'x'.repeat(100), expiresInDays: 3650 })).status).toBe(201);
    expect((await createKey({ name: 'y', expiresInDays: 1 })).status).toBe(201);
  });
});

describe('GET /v1/keys', () => {
  it('lists this organization’s non-revoked keys newest first, never a secret or hash', async () => {
    const first = (await createKey({ name: 'older' })).body.key;
    const second = (await createKey({ name: 'newer' })).body.key;
    const gone = (await createKey({ name: 'revoked' })).body.key;
    await revoke(gone.id);
    await createKey({ name: 'theirs' }, stranger.token);

    const res = await api({ token: owner.token }).GET('/v1/keys');
    expect(res.status).toBe(200);
    const names = res.body.keys.map((k: { name: string }) => k.name);
    expect(names.indexOf('newer')).toBeLessThan(names.indexOf('older'));
    expect(names).not.toContain('revoked');
    expect(names).not.toContain('theirs');
    const createdAts = res.body.keys.map((k: { createdAt: number }) => k.createdAt);
    expect(createdAts).toEqual([...createdAts].sort((x, y) => y - x));
    expect(res.body.keys.find((k: { id: string }) => k.id === first.id)).toEqual(first);
    expect(res.body.keys.find((k: { id: string }) => k.id === second.id)).toEqual(second);
    expect(JSON.stringify(res.body)).not.toMatch(/secret|hash/i);
  });

  it('still lists expired keys, so an owner can see why an integration stopped', async () => {
    const { key, secret } = (await createKey({ name: 'short-lived', expiresInDays: 1 })).body;
    await db
      .update(apiKeys)
      .set({ expires_at: Date.now() - 1 })
      .where(eq(apiKeys.id, key.id));
    expect(await keyStatus(secret)).toBe(401);
    const res = await api({ token: owner.token }).GET('/v1/keys');
    expect(res.body.keys.map((k: { id: string }) => k.id)).toContain(key.id);
  });

  it('drops a deleted site from a key’s scope', async () => {
    const doomed = await insertSite(db, owner.tenantId, 'doomed.example');
    const { key } = (await createKey({ name: 'two sites', siteIds: [siteA2, doomed] })).body;
    await db.delete(sites).where(eq(sites.id, doomed));
    const res = await api({ token: owner.token }).GET('/v1/keys');
    expect(res.body.keys.find((k: { id: string }) => k.id === key.id).siteIds).toEqual([siteA2]);
  });
});

describe('POST /v1/keys/{id}/reroll', () => {
  it('rotates the secret, keeps name, scope and remaining lifetime, and kills the old secret at once', async () => {
    const created = (await createKey({ name: 'rotate me', siteIds: [siteA2], expiresInDays: 10 })).body;
    expect(await keyStatus(created.secret)).toBe(403);

    const res = await reroll(created.key.id);
    expect(res.status).toBe(200);
    expect(res.body.secret).toMatch(/^sw_[A-Za-z0-9_-]{43,}$/);
    expect(res.body.secret).not.toBe(created.secret);
    expect(res.body.key).toEqual({
      ...created.key,
      prefix: res.body.secret.slice(0, 9),
      lastUsedAt: null,
    });
    expect(await keyStatus(created.secret)).toBe(401);
    expect(await keyStatus(res.body.secret)).toBe(403);
  });

  it('answers 404 for a revoked key, 409 for an expired one', async () => {
    const revoked = (await createKey({ name: 'r' })).body.key;
    await revoke(revoked.id);
    expect(await reroll(revoked.id)).toEqual({ status: 404, body: { error: 'key not found' } });

    const expired = (await createKey({ name: 'e', expiresInDays: 1 })).body.key;
    await db
      .update(apiKeys)
      .set({ expires_at: Date.now() - 1 })
      .where(eq(apiKeys.id, expired.id));
    const res = await reroll(expired.id);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/expired/);
  });

  it('answers 404 for another organization’s key and for ids that are not ids', async () => {
    const theirs = (await createKey({ name: 'theirs' }, stranger.token)).body;
    expect(await reroll(theirs.key.id)).toEqual({ status: 404, body: { error: 'key not found' } });
    expect(await keyStatus(theirs.secret)).toBe(403); // still alive
    expect(await reroll('not-a-uuid')).toEqual({ status: 404, body: { error: 'key not found' } });
    expect(await reroll('00000000-0000-4000-8000-000000000000')).toEqual({
      status: 404,
      body: { error: 'key not found' },
    });
  });
});

describe('POST /v1/keys/{id}/revoke', () => {
  it('revokes at once and for good', async () => {
    const { key, secret } = (await createKey({ name: 'doomed' })).body;
    expect(await revoke(key.id)).toEqual({ status: 200, body: { revoked: true } });
    expect(await keyStatus(secret)).toBe(401);
    const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row?.revoked_at).toEqual(expect.any(Number));
    expect(await revoke(key.id)).toEqual({ status: 404, body: { error: 'key not found' } });
    expect((await reroll(key.id)).status).toBe(404);
  });

  it('cannot touch another organization’s key', async () => {
    const theirs = (await createKey({ name: 'theirs' }, stranger.token)).body;
    expect(await revoke(theirs.key.id)).toEqual({ status: 404, body: { error: 'key not found' } });
    const [row] = await db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.id, theirs.key.id), eq(apiKeys.tenant_id, stranger.tenantId)));
    expect(row?.revoked_at).toBeNull();
  });
});

describe('who may manage keys', () => {
  it('is session-only: a valid API key gets 403, no credential 401, a bad key 401', async () => {
    const { key, secret } = (await createKey({ name: 'caller' })).body;
    for (const res of [
      await api({ apiKey: secret }).GET('/v1/keys'),
      await api({ apiKey: secret }).POST('/v1/keys', { body: { name: 'x' } }),
      await reroll(key.id, { apiKey: secret }),
      await revoke(key.id, { apiKey: secret }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error).toMatch(/session/);
    }
    expect((await api().GET('/v1/keys')).status).toBe(401);
    const bad = await api({ apiKey: `sw_${'x'.repeat(43)}` }).GET('/v1/keys');
    expect(bad.status).toBe(401);
    expect(bad.body.error).toMatch(/invalid api key/);
  });

  it('is for owners and admins: a member gets 403', async () => {
    const member = await addMember(db, {
      ownerToken: owner.token,
      tenantId: owner.tenantId,
      email: 'member@example.com',
      role: 'member',
    });
    const listed = await api({ token: member.token }).GET('/v1/keys');
    expect(listed.status).toBe(403);
    expect((await createKey({ name: 'nope' }, member.token)).status).toBe(403);
  });
});
