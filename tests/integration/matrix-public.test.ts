import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '@/app/api/v1/routes';
import { HTTP_METHODS } from '@/lib/api/methods';
import type { Db } from '@/lib/db/client';
import { notificationAddresses, notificationUnsubscribes, uptimeIncidents } from '@/lib/db/schema';
import { requestConfirmations, unsubscribeToken } from '@/lib/notify/consent';
import { FINGERPRINT_FRESH_MS } from '@/lib/statuspages/cache';
import { v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { insertMonitor, insertSite } from '../support/fixtures';
import { call, signInOwner } from '../support/http';
import { confirmationToken } from '../support/mail-consent';

/*
 * Requests made by hand, not through the typed client (tests/support/api-client): the operations
 * are read from ROUTES (every one must answer 401 to nobody, the public ones are listed on purpose),
 * so their paths are data; the public pages outside /v1 are not in the client. The fixtures go
 * through the typed client.
 */

/*
 * The public routes: the only /v1 operations that read no credential, because they answer links
 * mailed to people without an account (lib/notify/consent.ts). For each: it is listed here on
 * purpose (a route that turns public by mistake fails), a made-up, altered or oversized token is
 * 404 with `{error}` and changes nothing, whoever calls; a real token works with no credential,
 * and a session of another organization neither helps nor hinders. Every other operation answers
 * 401 to a caller with no credential.
 */

const PUBLIC = ['POST /v1/confirm/{token}', 'POST /v1/unsubscribe/{token}'];

type Handler = Parameters<typeof call>[0];
const operations = ROUTES.flatMap((route) =>
  HTTP_METHODS.flatMap((method) => {
    const handler = route.handlers[method];
    if (!handler || !('meta' in handler)) return [];
    return [
      {
        label: `${method} ${route.path}`,
        method,
        path: route.path,
        handler: handler as Handler,
        meta: handler.meta,
      },
    ];
  }),
);

let db: Db;
let teardown: () => Promise<void>;
let ownerA: { token: string; tenantId: string };
let ownerB: { token: string };
let confirmToken: string;
let stopToken: string;

const snapshot = async () => ({
  addresses: (await db.select().from(notificationAddresses)).map((r) => JSON.stringify(r)).sort(),
  unsubscribes: (await db.select().from(notificationUnsubscribes)).map((r) => JSON.stringify(r)).sort(),
});

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  ownerA = await signInOwner(db, 'owner@public-a.test');
  ownerB = await signInOwner(db, 'owner@public-b.test');
  await requestConfirmations(db, ownerA.tenantId, ['someone@public.test']);
  confirmToken = await confirmationToken(db, 'someone@public.test');
  const [row] = await db.select({ id: notificationAddresses.id }).from(notificationAddresses);
  stopToken = unsubscribeToken(row!.id, 'crawl');
});
afterAll(() => teardown());

it('lists exactly the operations that read no credential', () => {
  expect(
    operations
      .filter((o) => o.meta.auth === 'none')
      .map((o) => o.label)
      .sort(),
  ).toEqual(PUBLIC.sort());
});

const send = (path: string, handler: Handler, token: string, credential: { token?: string } = {}) =>
  call(handler, {
    method: 'POST',
    path: `/api${path.replace('{token}', encodeURIComponent(token))}`,
    params: { token },
    ...credential,
  });

describe.each(PUBLIC)('%s', (label) => {
  const op = () => operations.find((o) => o.label === label)!;
  const real = () => (label.includes('confirm') ? confirmToken : stopToken);

  it.each([
    ['made up', () => 'A'.repeat(43), 404],
    ['altered', () => `${real().slice(0, -2)}${real().endsWith('AA') ? 'BB' : 'AA'}`, 404],
    ['signed for another purpose', () => `${stopToken.split('.')[0]}.${confirmToken}`, 404],
    // Refused by the path's schema before any lookup.
    ['oversized', () => 'A'.repeat(5000), 422],
  ] as const)('a %s token is refused, changes nothing, whoever calls', async (_what, token, status) => {
    for (const credential of [{}, { token: ownerA.token }, { token: ownerB.token }]) {
      const before = await snapshot();
      const res = await send(op().path, op().handler, token(), credential);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      // Every refusal is {error}; a 422 adds the problems one by one (issues).
      expect(Object.keys(res.body)).toEqual(status === 422 ? ['error', 'issues'] : ['error']);
      expect(await snapshot()).toEqual(before);
    }
  });

  it('a real token works with no credential, and another organization\u2019s session changes nothing', async () => {
    const anonymous = await send(op().path, op().handler, real());
    expect(anonymous.status, JSON.stringify(anonymous.body)).toBe(200);
    const asB = await send(op().path, op().handler, real(), { token: ownerB.token });
    expect(asB.status).toBe(200);
    expect(asB.body).toEqual(anonymous.body);
  });
});

describe('every other operation', () => {
  it.each(operations.filter((o) => o.meta.auth !== 'none').map((o) => [o.label, o] as const))(
    '%s answers 401 with no credential',
    async (_label, o) => {
      const res = await call(o.handler, {
        method: o.method,
        path: `/api${o.path.replace(/\{(\w+)\}/g, '00000000-0000-4000-8000-000000000000')}`,
        params: Object.fromEntries(
          [...o.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1]!, '00000000-0000-4000-8000-000000000000']),
        ),
        ...(o.method === 'GET' || o.method === 'DELETE' ? {} : { body: {} }),
      });
      expect(res.status).toBe(401);
    },
  );
});

/*
 * The public status pages (lib/api/public-status.ts) are route files outside /v1 that read no
 * credential. They are listed here on purpose: a route file added under app/ outside the API and the
 * dashboard fails until it is listed. Each answers 404 for a slug nobody published, whoever asks, and
 * sets no cookie; what a published page shows is tests/integration/status-public.test.ts's.
 */
const PUBLIC_PAGES = [
  'ping/[token]/route.ts',
  'status/[slug]/badge.svg/route.ts',
  'status/[slug]/confirm/[token]/route.ts',
  'status/[slug]/feed.atom/route.ts',
  'status/[slug]/route.ts',
  'status/[slug]/subscribe/route.ts',
  'status/[slug]/summary.json/route.ts',
  'status/[slug]/unsubscribe/[token]/route.ts',
];

describe('public pages outside /v1', () => {
  const appDir = path.resolve('app');
  const files = readdirSync(appDir, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split(path.sep).join('/'))
    .filter(
      (file) =>
        path.basename(file) === 'route.ts' && !file.startsWith('api/') && !file.startsWith('(dashboard)/'),
    )
    .sort();

  it('are exactly the status page, its files and subscription pages, and the heartbeat ping', () => {
    expect(files).toEqual([...PUBLIC_PAGES].sort());
  });

  it.each(PUBLIC_PAGES)(
    '%s answers 404 to an unknown slug or token whoever asks, without a cookie',
    async (file) => {
      type PublicHandler = (
        req: Request,
        ctx: { params: Promise<Record<string, string>> },
      ) => Promise<Response>;
      const route = (await import(path.join(appDir, file))) as { GET?: PublicHandler; POST?: PublicHandler };
      // The ping route's token is a made-up one of the right shape: refused by lookup, not by form;
      // so are a subscription's confirmation and unsubscribe tokens (the token names the subscription).
      const params: Record<string, string> = file.startsWith('ping/')
        ? { token: `hb_${'A'.repeat(43)}` }
        : { slug: 'nobody-published-this', ...(file.includes('[token]') ? { token: 'A'.repeat(43) } : {}) };
      const value = params.slug ?? params.token;
      for (const handler of [route.GET, route.POST].filter((h) => h !== undefined)) {
        for (const headers of [{}, { authorization: `Bearer ${ownerA.token}` }] as Record<string, string>[]) {
          const res = await handler(
            new Request(`http://localhost:3000/${file.split('/')[0]}/${value}`, { headers }),
            { params: Promise.resolve(params) },
          );
          expect(res.status).toBe(404);
          expect(res.headers.get('set-cookie')).toBeNull();
        }
      }
    },
  );
});

/*
 * What a page says of incidents is its own: the updates and manual incidents posted on another page
 * (of the same organization, listing the same monitor) or by another organization are reachable
 * through none of this page's renditions, and a page's ids of the organization stay out.
 */
describe('incidents and updates through the public pages', () => {
  it('a page shows only the updates and manual incidents posted on it', async () => {
    const site = await insertSite(db, ownerA.tenantId, 'public-incidents.example');
    const monitor = await insertMonitor(db, ownerA.tenantId, site, { name: 'Shared API' });
    const [incident] = await db
      .insert(uptimeIncidents)
      .values({
        tenant_id: ownerA.tenantId,
        monitor_id: monitor,
        down_at: Date.now() - 60_000,
        created_at: Date.now(),
      })
      .returning({ id: uptimeIncidents.id });
    const api = v1({ token: ownerA.token });
    const page = async (slug: string) =>
      (await api.POST('/v1/status-pages', { body: { slug, title: slug, monitorIds: [monitor] } })).body
        .statusPage.id as string;
    const shown = await page('shown-incidents');
    const other = await page('other-incidents-page');
    const post = (pageId: string, incidentId: string, message: string) =>
      api.POST('/v1/status-pages/{id}/incidents/{incidentId}/updates', {
        params: { path: { id: pageId, incidentId } },
        body: { status: 'identified', message },
      });
    expect((await post(shown, incident!.id, 'said on the shown page')).status).toBe(201);
    expect((await post(other, incident!.id, 'said on the other page only')).status).toBe(201);
    const manual = await api.POST('/v1/status-pages/{id}/incidents', {
      params: { path: { id: other } },
      body: { title: 'Other page manual incident', status: 'investigating', message: 'other manual message' },
    });
    expect(manual.status).toBe(201);
    // Let this process's 1 s fingerprint memo age out.
    await new Promise((resolve) => setTimeout(resolve, FINGERPRINT_FRESH_MS + 50));
    // The status page's renditions; the heartbeat ping and the subscription pages have no page to show.
    for (const file of PUBLIC_PAGES.filter((f) => f.startsWith('status/') && !/subscribe|confirm/.test(f))) {
      const route = (await import(path.join(path.resolve('app'), file))) as {
        GET: (req: Request, ctx: { params: Promise<{ slug: string }> }) => Promise<Response>;
      };
      const res = await route.GET(new Request('http://localhost:3000/status/shown-incidents'), {
        params: Promise.resolve({ slug: 'shown-incidents' }),
      });
      expect(res.status).toBe(200);
      const text = await res.text();
      for (const secret of [
        'said on the other page only',
        'Other page manual incident',
        'other manual message',
        manual.body.incident.id,
        other,
        shown,
        monitor,
        ownerA.tenantId,
      ]) {
        expect(text, `${file} mentions ${secret}`).not.toContain(secret);
      }
      if (!file.includes('badge')) expect(text, file).toContain('said on the shown page');
    }
  });
});
