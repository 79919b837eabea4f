import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePrincipal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { memberAccess, memberSiteGrants, members } from '@/lib/db/schema';
import { ForbiddenError } from '@/lib/errors';
import { type Credential, type RequestBody, v1 } from '../support/api-client';
import { bearer } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { insertSite } from '../support/fixtures';
import { addMember, signInOwner } from '../support/http';

/** Status and JSON body only, so whole answers compare exactly with toEqual. */
const api = (credential: Credential = {}) => v1(credential, { headers: false });

type Person = { token: string; userId: string; memberId: string; email: string };

let db: Db;
let teardown: () => Promise<void>;
let orgA: string;
let owner: Person;
let strangerOwner: Person;
let siteA1: string;
let siteA2: string;
let siteB: string;

async function membership(userId: string, organizationId?: string) {
  const rows = await db.select().from(members).where(eq(members.userId, userId));
  const row = organizationId ? rows.find((m) => m.organizationId === organizationId) : rows[0];
  if (!row) throw new Error(`no membership for ${userId}`);
  return row;
}

async function founder(email: string): Promise<Person & { orgId: string }> {
  const { token, userId, tenantId } = await signInOwner(db, email);
  const m = await membership(userId, tenantId);
  return { token, userId, memberId: m.id, email, orgId: tenantId };
}

/** Joins through the real invitation flow; an owner is invited as admin and then promoted by `by`. */
async function join(email: string, role: 'admin' | 'member' | 'owner', organizationId = orgA, by = owner) {
  const joined = await addMember(db, {
    ownerToken: by.token,
    tenantId: organizationId,
    email,
    role: role === 'owner' ? 'admin' : role,
  });
  if (role === 'owner') {
    const promoted = await setRole(joined.memberId, 'owner', by.token);
    if (promoted.status !== 200) throw new Error(`promotion failed: ${JSON.stringify(promoted.body)}`);
  }
  return { ...joined, email };
}

const list = (token = owner.token) => api({ token }).GET('/v1/members');
const setRole = (
  memberId: string,
  role: RequestBody<'/v1/members/{memberId}', 'patch'>['role'],
  token = owner.token,
) => api({ token }).PATCH('/v1/members/{memberId}', { params: { path: { memberId } }, body: { role } });
const remove = (memberId: string, token = owner.token) =>
  api({ token }).DELETE('/v1/members/{memberId}', { params: { path: { memberId } } });
const setAccess = (
  memberId: string,
  body: RequestBody<'/v1/members/{memberId}/access', 'patch'>,
  token = owner.token,
) => api({ token }).PATCH('/v1/members/{memberId}/access', { params: { path: { memberId } }, body });
/** Bodies the document refuses, sent as they are: the route's own validation is what the test checks. */
const patchUnchecked = (path: string, body: unknown) =>
  api({ token: owner.token }).raw({ method: 'PATCH', path, body });
const visibleSites = async (token: string) =>
  (await resolvePrincipal(db, new Headers(bearer(token)))).siteIds;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  const a = await founder('owner@example.com');
  orgA = a.orgId;
  owner = a;
  const b = await founder('stranger@example.com');
  strangerOwner = b;
  siteA1 = await insertSite(db, orgA, 'a1.example');
  siteA2 = await insertSite(db, orgA, 'a2.example');
  siteB = await insertSite(db, b.orgId, 'b.example');
});
afterAll(() => teardown());

describe('GET /v1/members', () => {
  it('lists the organization’s members with role and effective access', async () => {
    const admin = await join('admin-list@example.com', 'admin');
    const member = await join('member-list@example.com', 'member');
    const res = await list();
    expect(res.status).toBe(200);
    const byEmail = Object.fromEntries(res.body.members.map((m: { email: string }) => [m.email, m]));
    expect(byEmail['owner@example.com']).toEqual({
      id: owner.memberId,
      userId: owner.userId,
      email: 'owner@example.com',
      name: expect.any(String),
      role: 'owner',
      siteIds: null,
      canCrawl: true,
      createdAt: expect.any(Number),
    });
    expect(byEmail['admin-list@example.com']).toMatchObject({
      id: admin.memberId,
      role: 'admin',
      siteIds: null,
    });
    // Members are default-deny: no site and no crawl until granted.
    expect(byEmail['member-list@example.com']).toMatchObject({
      id: member.memberId,
      role: 'member',
      siteIds: [],
      canCrawl: false,
    });
    expect(byEmail['stranger@example.com']).toBeUndefined();
    expect(await visibleSites(member.token)).toEqual([]);
  });

  it('is for owners and admins only', async () => {
    const member = await join('member-nosy@example.com', 'member');
    expect((await list(member.token)).status).toBe(403);
    const admin = await join('admin-lists@example.com', 'admin');
    expect((await list(admin.token)).status).toBe(200);
  });
});

describe('PATCH /v1/members/{memberId}/access', () => {
  it('grants sites and crawl, replaces the allowlist, and [] revokes every site', async () => {
    const member = await join('grantee@example.com', 'member');
    expect(await setAccess(member.memberId, { siteIds: [siteA1], canCrawl: true })).toEqual({
      status: 200,
      body: { ok: true },
    });
    let view = (await list()).body.members.find((m: { id: string }) => m.id === member.memberId);
    expect(view).toMatchObject({ siteIds: [siteA1], canCrawl: true });
    expect(await visibleSites(member.token)).toEqual([siteA1]);

    // Fields are independent: canCrawl alone keeps the allowlist.
    await setAccess(member.memberId, { canCrawl: false });
    view = (await list()).body.members.find((m: { id: string }) => m.id === member.memberId);
    expect(view).toMatchObject({ siteIds: [siteA1], canCrawl: false });

    await setAccess(member.memberId, { siteIds: [siteA2, siteA1] });
    expect(new Set(await visibleSites(member.token))).toEqual(new Set([siteA1, siteA2]));

    await setAccess(member.memberId, { siteIds: [] });
    expect(await visibleSites(member.token)).toEqual([]);
    expect(
      await db.select().from(memberSiteGrants).where(eq(memberSiteGrants.member_id, member.memberId)),
    ).toEqual([]);
  });

  it('refuses a site the organization does not own, leaving the grants as they were', async () => {
    const member = await join('greedy@example.com', 'member');
    await setAccess(member.memberId, { siteIds: [siteA1] });
    expect(await setAccess(member.memberId, { siteIds: [siteA2, siteB] })).toEqual({
      status: 422,
      body: {
        error: `siteIds: ${siteB} is not a site of this organization`,
        issues: [{ field: 'siteIds', message: `${siteB} is not a site of this organization` }],
      },
    });
    expect(await visibleSites(member.token)).toEqual([siteA1]);
  });

  it.each([
    [{ siteIds: 'all' }, /^siteIds: /],
    [{ siteIds: ['x'] }, /^siteIds\.0: /],
    [{ canCrawl: 'yes' }, /^canCrawl: /],
    [{ role: 'owner' }, /role/],
  ])('refuses %j with 422', async (body, message) => {
    const member = await join(`invalid-${Math.random().toString(36).slice(2)}@example.com`, 'member');
    const res = await patchUnchecked(`/v1/members/${member.memberId}/access`, body);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(message);
  });

  it('answers 404 for unknown members and members of other organizations, 409 for owners and admins', async () => {
    expect(await setAccess('00000000-0000-4000-8000-000000000000', { canCrawl: true })).toEqual({
      status: 404,
      body: { error: 'member not found' },
    });
    expect(await setAccess('nope', { canCrawl: true })).toEqual({
      status: 404,
      body: { error: 'member not found' },
    });
    expect(await setAccess(strangerOwner.memberId, { siteIds: [] })).toEqual({
      status: 404,
      body: { error: 'member not found' },
    });
    const admin = await join('admin-access@example.com', 'admin');
    const res = await setAccess(admin.memberId, { siteIds: [siteA1] });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/owners and admins see every site/);
  });

  it('is for owners and admins: a member cannot grant themselves access', async () => {
    const member = await join('self-granter@example.com', 'member');
    expect((await setAccess(member.memberId, { siteIds: [siteA1] }, member.token)).status).toBe(403);
    expect(await visibleSites(member.token)).toEqual([]);
    const admin = await join('admin-granter@example.com', 'admin');
    expect((await setAccess(member.memberId, { siteIds: [siteA1] }, admin.token)).status).toBe(200);
  });
});

describe('PATCH /v1/members/{memberId} (role change)', () => {
  it('lets an admin move people between member and admin, but not to or from owner', async () => {
    const admin = await join('admin-roles@example.com', 'admin');
    const member = await join('climber@example.com', 'member');
    const promoted = await setRole(member.memberId, 'admin', admin.token);
    expect(promoted.status).toBe(200);
    expect(promoted.body.member).toMatchObject({
      id: member.memberId,
      role: 'admin',
      siteIds: null,
      canCrawl: true,
    });
    expect(await visibleSites(member.token)).toBe('all');

    const toOwner = await setRole(member.memberId, 'owner', admin.token);
    expect(toOwner.status).toBe(403);
    expect(toOwner.body.error).toMatch(/only an owner/);
    expect((await setRole(owner.memberId, 'member', admin.token)).status).toBe(403);

    expect((await setRole(member.memberId, 'member', admin.token)).body.member.role).toBe('member');
  });

  it('starts a demoted admin from default-deny: a promotion drops earlier grants', async () => {
    const member = await join('yo-yo@example.com', 'member');
    await setAccess(member.memberId, { siteIds: [siteA1], canCrawl: true });
    await setRole(member.memberId, 'admin');
    await setRole(member.memberId, 'member');
    expect(await visibleSites(member.token)).toEqual([]);
    const view = (await list()).body.members.find((m: { id: string }) => m.id === member.memberId);
    expect(view).toMatchObject({ siteIds: [], canCrawl: false });
  });

  it('lets an owner hand over ownership, and never demotes the last owner', async () => {
    const { orgId, ...solo } = await founder('solo@example.com');
    const last = await setRole(solo.memberId, 'admin', solo.token);
    expect(last.status).toBe(409);
    expect(last.body.error).toBe('the last owner cannot be demoted: make another member an owner first');

    const heir = await join('heir@example.com', 'admin', orgId, solo);
    expect((await setRole(heir.memberId, 'owner', solo.token)).body.member.role).toBe('owner');
    expect((await setRole(solo.memberId, 'member', solo.token)).status).toBe(200);
    expect((await membership(solo.userId, orgId)).role).toBe('member');
    expect((await setRole(heir.memberId, 'admin', heir.token)).status).toBe(409);
  });

  it('keeps one owner when two owners demote each other at the same time', async () => {
    const { orgId, ...first } = await founder('race-1@example.com');
    const second = await join('race-2@example.com', 'owner', orgId, first);
    const results = await Promise.all([
      setRole(second.memberId, 'admin', first.token),
      setRole(first.memberId, 'admin', second.token),
    ]);
    // The loser is refused either as no longer an owner (403) or as the last owner (409).
    const statuses = results.map((r) => r.status).sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const owners = (await db.select().from(members).where(eq(members.organizationId, orgId))).filter(
      (m) => m.role === 'owner',
    );
    expect(owners).toHaveLength(1);
  });

  it('validates the role and hides other organizations’ members', async () => {
    const member = await join('validated@example.com', 'member');
    const bad = await patchUnchecked(`/v1/members/${member.memberId}`, { role: 'superuser' });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatch(/^role: /);
    expect(await setRole(strangerOwner.memberId, 'member')).toEqual({
      status: 404,
      body: { error: 'member not found' },
    });
    expect((await membership(strangerOwner.userId)).role).toBe('owner');
  });
});

describe('DELETE /v1/members/{memberId}', () => {
  it('removes the member and their grants; their session loses the organization', async () => {
    const member = await join('leaver@example.com', 'member');
    await setAccess(member.memberId, { siteIds: [siteA1], canCrawl: true });
    expect(await remove(member.memberId)).toEqual({ status: 200, body: { removed: true } });
    expect(await db.select().from(members).where(eq(members.id, member.memberId))).toEqual([]);
    expect(
      await db.select().from(memberSiteGrants).where(eq(memberSiteGrants.member_id, member.memberId)),
    ).toEqual([]);
    expect(await db.select().from(memberAccess).where(eq(memberAccess.member_id, member.memberId))).toEqual(
      [],
    );
    await expect(visibleSites(member.token)).rejects.toBeInstanceOf(ForbiddenError);
    expect(await remove(member.memberId)).toEqual({ status: 404, body: { error: 'member not found' } });
  });

  it('protects owners: admins cannot remove them and the last one cannot go', async () => {
    const { orgId, ...solo } = await founder('keeper@example.com');
    const admin = await join('ambitious@example.com', 'admin', orgId, solo);
    const byAdmin = await remove(solo.memberId, admin.token);
    expect(byAdmin).toEqual({ status: 403, body: { error: 'only an owner can remove an owner' } });
    const self = await remove(solo.memberId, solo.token);
    expect(self).toEqual({
      status: 409,
      body: { error: 'the last owner cannot be removed: make another member an owner first' },
    });
    expect((await membership(solo.userId, orgId)).role).toBe('owner');
    // An admin may remove another admin, or leave.
    expect((await remove(admin.memberId, admin.token)).status).toBe(200);
  });

  it('lets an owner remove a co-owner, and refuses another organization’s member', async () => {
    const { orgId, ...first } = await founder('co-1@example.com');
    const second = await join('co-2@example.com', 'owner', orgId, first);
    expect((await remove(second.memberId, first.token)).status).toBe(200);
    expect(await remove(strangerOwner.memberId)).toEqual({
      status: 404,
      body: { error: 'member not found' },
    });
    expect((await membership(strangerOwner.userId)).organizationId).toBeDefined();
  });

  it('is for owners and admins: members get 403', async () => {
    const member = await join('rogue@example.com', 'member');
    const victim = await join('victim@example.com', 'member');
    expect((await remove(victim.memberId, member.token)).status).toBe(403);
    expect((await membership(victim.userId, orgA)).id).toBe(victim.memberId);
  });
});
