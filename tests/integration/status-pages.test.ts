import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/client';
import { statusPageMonitors, statusPages } from '@/lib/db/schema';
import { type RequestBody, v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { insertMonitor, insertSite } from '../support/fixtures';
import { addMember, type CallResult, insertApiKey, signInOwner } from '../support/http';

/*
 * The status pages API (issue 26 item 1): create, list, read, edit, delete; slugs unique across the
 * service and validated; monitors of the organization only; who may manage them.
 */

let db: Db;
let teardown: () => Promise<void>;
let owner: { token: string; tenantId: string };
let stranger: { token: string; tenantId: string };
let monitors: [string, string];
let strangerMonitor: string;

const create = (
  body: RequestBody<'/v1/status-pages', 'post'>,
  auth: { token?: string; apiKey?: string } = { token: owner.token },
) => v1(auth).POST('/v1/status-pages', { body });
const get = (id: string, auth: { token?: string; apiKey?: string } = { token: owner.token }) =>
  v1(auth).GET('/v1/status-pages/{id}', { params: { path: { id } } });
const patch = (
  id: string,
  body: RequestBody<'/v1/status-pages/{id}', 'patch'>,
  auth: { token?: string } = { token: owner.token },
) => v1(auth).PATCH('/v1/status-pages/{id}', { params: { path: { id } }, body });
const rows = async () => ({
  pages: (await db.select().from(statusPages)).map((r) => JSON.stringify(r)).sort(),
  listed: (await db.select().from(statusPageMonitors)).map((r) => JSON.stringify(r)).sort(),
});

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  owner = await signInOwner(db, 'owner@pages-a.test');
  stranger = await signInOwner(db, 'owner@pages-b.test');
  const siteA = await insertSite(db, owner.tenantId, 'pages-a.example');
  const siteA2 = await insertSite(db, owner.tenantId, 'pages-a2.example');
  monitors = [
    await insertMonitor(db, owner.tenantId, siteA, { name: 'API' }),
    await insertMonitor(db, owner.tenantId, siteA2, { name: 'Website' }),
  ];
  const siteB = await insertSite(db, stranger.tenantId, 'pages-b.example');
  strangerMonitor = await insertMonitor(db, stranger.tenantId, siteB);
});
afterAll(() => teardown());

describe('POST /v1/status-pages', () => {
  it('publishes a page with its monitors in order, options off by default', async () => {
    const res = await create({ slug: 'acme', title: 'Acme status', monitorIds: [monitors[1], monitors[0]] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.statusPage).toMatchObject({
      slug: 'acme',
      title: 'Acme status',
      description: null,
      monitorIds: [monitors[1], monitors[0]],
      published: true,
      showA11yScore: false,
      showBrokenLinks: false,
      showMonitorUrls: false,
    });
    expect(res.body.statusPage.url).toMatch(/\/status\/acme$/);
    expect(res.body.statusPage.badgeUrl).toMatch(/\/status\/acme\/badge\.svg$/);
    expect(await get(res.body.statusPage.id)).toMatchObject({ status: 200, body: res.body });
  });

  it('refuses a slug another organization holds (409), and changes nothing', async () => {
    await create({ slug: 'taken-slug', title: 'First', monitorIds: [monitors[0]] });
    const before = await rows();
    const res = await create(
      { slug: 'taken-slug', title: 'Second', monitorIds: [strangerMonitor] },
      { token: stranger.token },
    );
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'slug: taken-slug is already taken; choose another' });
    expect(await rows()).toEqual(before);
  });

  it.each([
    ['upper case', 'Acme-Status', 'lowercase'],
    ['too short', 'ab', 'at least 3'],
    ['too long', 'a'.repeat(64), 'at most 63'],
    ['a leading hyphen', '-acme', 'lowercase'],
    ['a double hyphen', 'ac--me', 'two hyphens'],
    ['a reserved word', 'admin', 'reserved'],
    ['a slash', 'acme/feed', 'lowercase'],
  ])('refuses a slug with %s (422), and changes nothing', async (_what, slug, message) => {
    const before = await rows();
    const res = await create({ slug, title: 'x', monitorIds: [monitors[0]] });
    expect(res.status).toBe(422);
    expect(res.body.issues).toEqual([{ field: 'slug', message: expect.stringContaining(message) }]);
    expect(await rows()).toEqual(before);
  });

  it("refuses another organization's monitor, or an unknown one (422 naming it), and changes nothing", async () => {
    const before = await rows();
    for (const foreign of [strangerMonitor, '00000000-0000-4000-8000-000000000000']) {
      const res = await create({ slug: 'reach-out', title: 'x', monitorIds: [monitors[0], foreign] });
      expect(res.status).toBe(422);
      expect(res.body.error).toBe(`monitorIds: ${foreign} is not a monitor of this organization`);
    }
    expect(await rows()).toEqual(before);
  });

  it('refuses an empty or repeated monitor list and unknown fields', async () => {
    expect((await create({ slug: 'empty-list', title: 'x', monitorIds: [] })).status).toBe(422);
    expect((await create({ slug: 'twice', title: 'x', monitorIds: [monitors[0], monitors[0]] })).status).toBe(
      422,
    );
    // An undocumented field, sent as it is: the route's own validation is what this checks.
    const unknown = await v1({ token: owner.token }).raw({
      method: 'POST',
      path: '/v1/status-pages',
      body: { slug: 'colour', title: 'x', monitorIds: [monitors[0]], colour: 'red' },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toContain('colour: is not a field of this request');
  });
});

describe('who may manage status pages', () => {
  it('owners, admins and unscoped keys; not members or site-scoped keys', async () => {
    const member = await addMember(db, {
      ownerToken: owner.token,
      tenantId: owner.tenantId,
      email: 'member@pages-a.test',
      role: 'member',
    });
    const admin = await addMember(db, {
      ownerToken: owner.token,
      tenantId: owner.tenantId,
      email: 'admin@pages-a.test',
      role: 'admin',
    });
    const key = await insertApiKey(db, owner.tenantId);
    const scoped = await insertApiKey(db, owner.tenantId, {
      siteIds: [await insertSite(db, owner.tenantId, 's.example')],
    });
    const body = (slug: string) => ({ slug, title: 'x', monitorIds: [monitors[0]] });
    expect((await create(body('by-admin'), { token: admin.token })).status).toBe(201);
    expect((await create(body('by-key'), { apiKey: key })).status).toBe(201);
    const refused = await create(body('by-member'), { token: member.token });
    expect(refused.status).toBe(403);
    expect((await create(body('by-scoped-key'), { apiKey: scoped })).status).toBe(403);
    expect((await v1({ token: member.token }).GET('/v1/status-pages')).status).toBe(403);
  });
});

describe('GET /v1/status-pages', () => {
  it("lists the organization's pages newest first, a page at a time, and none of another's", async () => {
    await create(
      { slug: 'theirs', title: 'Theirs', monitorIds: [strangerMonitor] },
      { token: stranger.token },
    );
    const all = await v1({ token: owner.token }).GET('/v1/status-pages');
    expect(all.status).toBe(200);
    const slugs = all.body.statusPages.map((p: { slug: string }) => p.slug);
    expect(slugs).not.toContain('theirs');
    expect(slugs).toContain('acme');
    expect(all.body.nextCursor).toBeNull();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: CallResult = await v1({ token: owner.token }).GET('/v1/status-pages', {
        params: { query: { limit: 2, ...(cursor ? { cursor } : {}) } },
      });
      expect(res.status).toBe(200);
      expect(res.body.statusPages.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.statusPages.map((p: { slug: string }) => p.slug));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(slugs);
    const bad = await v1({ token: owner.token }).GET('/v1/status-pages', {
      params: { query: { cursor: 'nonsense' } },
    });
    expect(bad.status).toBe(422);
  });
});

describe('GET, PATCH, DELETE /v1/status-pages/{id}', () => {
  it('edits what is sent and keeps the rest; a new slug frees the old one', async () => {
    const made = await create({
      slug: 'old-name',
      title: 'Old',
      monitorIds: [monitors[0]],
      description: 'hi',
    });
    const id = made.body.statusPage.id;
    const res = await patch(id, {
      slug: 'new-name',
      monitorIds: [monitors[1], monitors[0]],
      showMonitorUrls: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.statusPage).toMatchObject({
      slug: 'new-name',
      title: 'Old',
      description: 'hi',
      monitorIds: [monitors[1], monitors[0]],
      showMonitorUrls: true,
    });
    expect(res.body.statusPage.updatedAt).toBeGreaterThanOrEqual(made.body.statusPage.updatedAt);
    expect((await create({ slug: 'old-name', title: 'Reuse', monitorIds: [monitors[0]] })).status).toBe(201);
  });

  it('refuses a slug in use (409) and a foreign monitor (422), changing nothing', async () => {
    const made = await create({ slug: 'mine-too', title: 'x', monitorIds: [monitors[0]] });
    const before = await rows();
    const clash = await patch(made.body.statusPage.id, { slug: 'taken-slug', title: 'changed' });
    expect(clash.status).toBe(409);
    const foreign = await patch(made.body.statusPage.id, { monitorIds: [strangerMonitor] });
    expect(foreign.status).toBe(422);
    expect(await rows()).toEqual(before);
  });

  it("answers 404 for another organization's page, a made-up id and a malformed one, changing nothing", async () => {
    const theirs = await create(
      { slug: 'their-page', title: 'x', monitorIds: [strangerMonitor] },
      { token: stranger.token },
    );
    const before = await rows();
    for (const id of [theirs.body.statusPage.id, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      expect(await get(id)).toMatchObject({ status: 404, body: { error: 'status page not found' } });
      expect((await patch(id, { title: 'mine now' })).status).toBe(404);
      const del = await v1({ token: owner.token }).DELETE('/v1/status-pages/{id}', {
        params: { path: { id } },
      });
      expect(del.status).toBe(404);
    }
    expect(await rows()).toEqual(before);
  });

  it('deletes a page with its list; a deleted monitor leaves every page', async () => {
    const made = await create({ slug: 'short-lived', title: 'x', monitorIds: monitors });
    const id = made.body.statusPage.id;
    const del = await v1({ token: owner.token }).DELETE('/v1/status-pages/{id}', {
      params: { path: { id } },
    });
    expect(del).toMatchObject({ status: 200, body: { deleted: true } });
    expect(
      await db.select().from(statusPageMonitors).where(eq(statusPageMonitors.status_page_id, id)),
    ).toEqual([]);
    expect((await get(id)).status).toBe(404);
  });
});
