import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { sites } from '@/lib/db/schema';
import { v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { signInOwner } from '../support/http';

/*
 * As in production: outbound requests may not reach private networks, so a site whose root URL
 * could never be crawled is refused when it is saved, not discovered at its first crawl.
 */
let db: Db;
let teardown: () => Promise<void>;
let owner: { token: string; tenantId: string };
const previous = process.env.ALLOW_PRIVATE_NETWORK;

beforeAll(async () => {
  process.env.ALLOW_PRIVATE_NETWORK = 'false';
  ({ db, teardown } = await useTestDatabase());
  owner = await signInOwner(db, 'owner@targets.test');
});
afterAll(async () => {
  await teardown();
  process.env.ALLOW_PRIVATE_NETWORK = previous;
  resetConfig();
});

const create = (rootUrl: string) => v1({ token: owner.token }).POST('/v1/sites', { body: { rootUrl } });
const patch = (id: string, rootUrl: string) =>
  v1({ token: owner.token }).PATCH('/v1/sites/{id}', { params: { path: { id } }, body: { rootUrl } });

describe('root URLs that can never be reached', () => {
  it.each([
    ['http://10.0.0.5/', /^rootUrl: must not point at a private address \(10\.0\.0\.5\)/],
    ['http://127.0.0.1:3000/', /^rootUrl: must not point at a loopback address/],
    ['http://169.254.169.254/latest/', /^rootUrl: must not point at a link-local address/],
    ['http://[::1]/', /^rootUrl: must not point at a loopback address/],
    ['http://localhost:8080/', /^rootUrl: must not point at a private host name \(localhost\)/],
    ['http://db.internal/', /^rootUrl: must not point at a private host name/],
    ['http://intranet/', /^rootUrl: must name a public host with a domain/],
  ])('refuses %s with 422 and stores nothing', async (rootUrl, message) => {
    const res = await create(rootUrl);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(message);
    const stored = await db.select().from(sites).where(eq(sites.tenant_id, owner.tenantId));
    expect(stored).toEqual([]);
  });

  it('refuses the same on edit and leaves the site as it was', async () => {
    const created = await create('https://reachable.example.com/');
    expect(created.status).toBe(201);
    const id = created.body.site.id as string;
    const res = await patch(id, 'http://192.168.1.1/');
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(/^rootUrl: must not point at a private address/);
    const [row] = await db.select().from(sites).where(eq(sites.id, id));
    expect(row?.root_url).toBe('https://reachable.example.com/');
    expect(row?.hostname).toBe('reachable.example.com');
  });
});
