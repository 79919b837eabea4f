import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeySecret } from '@/lib/auth/key-secret';
import type { Db } from '@/lib/db/client';
import { memberSiteGrants, members } from '@/lib/db/schema';
import { type RequestBody, v1 } from '../support/api-client';
import { authPost, signIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { addMember, insertApiKey, signInOwner } from '../support/http';

let db: Db;
let teardown: () => Promise<void>;
let owner: { token: string; tenantId: string };
let member: { token: string; memberId: string };
let admin: { token: string };
let granted: { id: string };
let other: { id: string };

const list = (cred: { token?: string; apiKey?: string }) => v1(cred).GET('/v1/sites');
const create = (cred: { token?: string; apiKey?: string }, rootUrl: string) =>
  v1(cred).POST('/v1/sites', { body: { rootUrl } });
const patch = (
  cred: { token?: string; apiKey?: string },
  id: string,
  body: RequestBody<'/v1/sites/{id}', 'patch'>,
) => v1(cred).PATCH('/v1/sites/{id}', { params: { path: { id } }, body });
const remove = (cred: { token?: string; apiKey?: string }, id: string) =>
  v1(cred).DELETE('/v1/sites/{id}', { params: { path: { id } } });
const status = (cred: { token?: string; apiKey?: string }, id: string) =>
  v1(cred).GET('/v1/sites/{id}/status', { params: { path: { id } } });
const ids = (res: { body: { sites: { id: string }[] } }) => res.body.sites.map((s) => s.id);

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  owner = await signInOwner(db, 'owner@access.test');
  granted = (await create({ token: owner.token }, 'https://granted.example.com')).body.site;
  other = (await create({ token: owner.token }, 'https://other.example.com')).body.site;
  member = await addMember(db, {
    ownerToken: owner.token,
    tenantId: owner.tenantId,
    email: 'm@access.test',
    role: 'member',
  });
  admin = await addMember(db, {
    ownerToken: owner.token,
    tenantId: owner.tenantId,
    email: 'a@access.test',
    role: 'admin',
  });
});
afterAll(() => teardown());

describe('a member session', () => {
  it('sees no site without grants (members are default-deny)', async () => {
    const res = await list({ token: member.token });
    expect(res.status).toBe(200);
    expect(res.body.sites).toEqual([]);
    // The quota describes the organization, not the member's view of it.
    expect(res.body.quota).toEqual({ count: 2, included: 3, overageEnabled: false });
    expect(await status({ token: member.token }, granted.id)).toMatchObject({
      status: 404,
      body: { error: 'site not found' },
    });
  });

  it('sees exactly its granted sites, read-only', async () => {
    await db.insert(memberSiteGrants).values({
      member_id: member.memberId,
      site_id: granted.id,
      tenant_id: owner.tenantId,
      created_at: Date.now(),
    });
    expect(ids(await list({ token: member.token }))).toEqual([granted.id]);
    const seen = await status({ token: member.token }, granted.id);
    expect(seen.status).toBe(200);
    expect(seen.body.site.id).toBe(granted.id);
    expect(await status({ token: member.token }, other.id)).toMatchObject({ status: 404 });

    const edit = await patch({ token: member.token }, granted.id, { seoEnabled: false });
    expect(edit.status).toBe(403);
    expect(edit.body.error).toMatch(/owner or admin/);
    expect((await remove({ token: member.token }, granted.id)).status).toBe(403);
    // A site outside the allowlist is hidden, not forbidden: a 403 would confirm it exists.
    expect(await patch({ token: member.token }, other.id, { seoEnabled: false })).toMatchObject({
      status: 404,
      body: { error: 'site not found' },
    });
    expect((await remove({ token: member.token }, other.id)).status).toBe(404);
    const register = await create({ token: member.token }, 'https://member.example.com');
    expect(register.status).toBe(403);
    expect((await list({ token: owner.token })).body.sites).toHaveLength(2);
  });

  it('starts a later sign-in in the granting organization, joined last, and sees only the grants', async () => {
    // An invitee gets an organization of their own on first sign-in; accepting the invitation makes
    // the granting one active, and a new session starts where they last were, not in the oldest.
    const late = await addMember(db, {
      ownerToken: owner.token,
      tenantId: owner.tenantId,
      email: 'late@access.test',
      role: 'member',
    });
    const grant = await v1({ token: owner.token }).PATCH('/v1/members/{memberId}/access', {
      params: { path: { memberId: late.memberId } },
      body: { siteIds: [granted.id] },
    });
    expect(grant.status).toBe(200);

    const { token, userId } = await signIn(db, 'late@access.test');
    expect(ids(await list({ token }))).toEqual([granted.id]);
    expect((await status({ token }, granted.id)).status).toBe(200);
    expect((await status({ token }, other.id)).status).toBe(404);

    // In their own organization the granting one's sites are out of sight.
    const [own] = await db
      .select()
      .from(members)
      .where(eq(members.userId, userId))
      .orderBy(members.createdAt);
    const switched = await authPost(
      '/organization/set-active',
      { organizationId: own!.organizationId },
      token,
    );
    expect(switched.status).toBe(200);
    expect(ids(await list({ token }))).toEqual([]);
    expect((await status({ token }, granted.id)).status).toBe(404);
  });

  it('cannot read or change billing', async () => {
    expect((await v1({ token: member.token }).GET('/v1/billing')).status).toBe(403);
  });
});

describe('an admin session', () => {
  it('manages every site of the organization', async () => {
    expect(ids(await list({ token: admin.token }))).toEqual([granted.id, other.id]);
    expect(
      (await patch({ token: admin.token }, other.id, { uptimeEnabled: false })).body.site.uptime_enabled,
    ).toBe(0);
    expect((await v1({ token: admin.token }).GET('/v1/billing')).status).toBe(200);
  });
});

describe('API keys', () => {
  it('an unscoped key lists, registers, edits and deletes', async () => {
    const apiKey = await insertApiKey(db, owner.tenantId);
    expect(ids(await list({ apiKey }))).toEqual([granted.id, other.id]);
    const made = await create({ apiKey }, 'https://by-key.example.com');
    expect(made.status).toBe(201);
    expect(made.body.site.tenant_id).toBe(owner.tenantId);
    expect(
      (await patch({ apiKey }, made.body.site.id, { cadenceMinutes: 2880 })).body.site.cadence_minutes,
    ).toBe(2880);
    expect(await remove({ apiKey }, made.body.site.id)).toMatchObject({
      status: 200,
      body: { deleted: true },
    });
  });

  it('a site-scoped key sees only its sites and cannot register sites', async () => {
    const apiKey = await insertApiKey(db, owner.tenantId, { siteIds: [granted.id] });
    expect(ids(await list({ apiKey }))).toEqual([granted.id]);
    expect((await patch({ apiKey }, granted.id, { seoEnabled: false })).body.site.seo_enabled).toBe(0);
    expect(await patch({ apiKey }, other.id, { seoEnabled: false })).toMatchObject({
      status: 404,
      body: { error: 'site not found' },
    });
    expect(await remove({ apiKey }, other.id)).toMatchObject({
      status: 404,
      body: { error: 'site not found' },
    });
    const register = await create({ apiKey }, 'https://scoped.example.com');
    expect(register.status).toBe(403);
    expect(register.body.error).toMatch(/site scope/);
  });

  it('a key of another organization sees none of these sites', async () => {
    const stranger = await signInOwner(db, 'stranger@access.test');
    const apiKey = await insertApiKey(db, stranger.tenantId);
    expect((await list({ apiKey })).body.sites).toEqual([]);
    expect(await status({ apiKey }, granted.id)).toMatchObject({
      status: 404,
      body: { error: 'site not found' },
    });
  });

  it('an unknown or malformed key is 401 about an invalid api key', async () => {
    for (const apiKey of [generateKeySecret(), 'nonsense']) {
      const res = await list({ apiKey });
      expect(res.status).toBe(401);
      expect(res.body.error).toMatch(/invalid api key/);
    }
  });

  it('a key gets 403 on the session-only billing endpoint', async () => {
    const apiKey = await insertApiKey(db, owner.tenantId);
    const res = await v1({ apiKey }).GET('/v1/billing');
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/dashboard session/);
  });
});
