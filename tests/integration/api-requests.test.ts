import { eq } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '@/app/api/v1/routes';
import * as sitesRoute from '@/app/api/v1/sites/route';
import { HTTP_METHODS } from '@/lib/api/methods';
import { MAX_BODY_BYTES } from '@/lib/api/pipeline';
import { resetConfig } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { sites } from '@/lib/db/schema';
import { proxy } from '@/proxy';
import { BASE } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { insertApiKey, signInOwner } from '../support/http';

/*
 * Requests made by hand, not through the typed client (tests/support/api-client): this file sends
 * what the document forbids on purpose, to every route of ROUTES alike (bodies past the size cap and
 * streamed, malformed JSON, undeclared methods, OPTIONS, requests through the proxy), so it builds its
 * Requests itself.
 */

let db: Db;
let teardown: () => Promise<void>;
let owner: { token: string; tenantId: string };
let apiKey: string;

// The fuzz below sends thousands of requests a minute with one key, one session and one address:
// past the per-minute limits each would be a 429 held up to a second (lib/api/refusals.ts), which
// answers {error} as well but turns minutes into an hour. The limits are api-rate-limits.test.ts's.
const LIMITS = [
  'RATE_LIMIT_KEY_PER_MINUTE',
  'RATE_LIMIT_SESSION_PER_MINUTE',
  'RATE_LIMIT_ADDRESS_PER_MINUTE',
];

beforeAll(async () => {
  for (const name of LIMITS) process.env[name] = '1000000';
  resetConfig();
  ({ db, teardown } = await useTestDatabase());
  owner = await signInOwner(db, 'owner@requests.test');
  apiKey = await insertApiKey(db, owner.tenantId);
});
afterAll(async () => {
  for (const name of LIMITS) delete process.env[name];
  resetConfig();
  await teardown();
});

type Handler = (req: Request, context?: { params: Promise<Record<string, string>> }) => Promise<Response>;
const isOperation = (handler: unknown) => typeof handler === 'function' && 'meta' in handler;
const urlOf = (path: string) =>
  `${BASE}/api${path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000')}`;

/** A body that streams `total` bytes of JSON-looking text on demand, counting what was pulled. */
function streamedBody(total: number, chunk = 64 * 1024) {
  const pulled = { bytes: 0 };
  const piece = new TextEncoder().encode('x'.repeat(chunk));
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled.bytes >= total) return controller.close();
        pulled.bytes += piece.byteLength;
        controller.enqueue(piece);
      },
    },
    // No read-ahead: bytes are produced only when the server reads them.
    { highWaterMark: 0 },
  );
  return { stream, pulled };
}

async function sitesOfOwner() {
  return db.select().from(sites).where(eq(sites.tenant_id, owner.tenantId));
}

describe('request bodies', () => {
  it('refuses a declared Content-Length over the cap with 413 before reading a byte', async () => {
    const { stream, pulled } = streamedBody(64 * 1024 * 1024);
    const res = await sitesRoute.POST(
      new Request(`${BASE}/api/v1/sites`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${owner.token}`,
          'content-type': 'application/json',
          'content-length': String(64 * 1024 * 1024),
        },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: `request body is larger than ${MAX_BODY_BYTES} bytes` });
    expect(pulled.bytes).toBe(0);
    expect(await sitesOfOwner()).toEqual([]);
  });

  it('stops reading a 64 MB body sent without a length at the cap', async () => {
    const { stream, pulled } = streamedBody(64 * 1024 * 1024);
    const res = await sitesRoute.POST(
      new Request(`${BASE}/api/v1/sites`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatch(/larger than/);
    // What was read is the cap and at most a few chunks of read-ahead, never the 64 MB.
    expect(pulled.bytes).toBeLessThan(MAX_BODY_BYTES + 4 * 64 * 1024);
    expect(await sitesOfOwner()).toEqual([]);
  });

  it('still reads a body just under the cap', async () => {
    const body = JSON.stringify({
      rootUrl: 'https://padded.example.com/',
      pad: 'x'.repeat(MAX_BODY_BYTES - 100),
    });
    expect(body.length).toBeLessThan(MAX_BODY_BYTES);
    const res = await sitesRoute.POST(
      new Request(`${BASE}/api/v1/sites`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
        body,
      }),
    );
    // Read and parsed: the unknown field is what is refused, not the size.
    expect(res.status).toBe(422);
    expect((await res.json()).error).toMatch(/pad/);
  });
});

describe('methods a route does not declare', () => {
  it('answers 405 with {error} and an Allow header naming what the route answers', async () => {
    for (const route of ROUTES) {
      const declared = HTTP_METHODS.filter((m) => isOperation(route.handlers[m]));
      const allow = [...declared, ...(declared.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].sort().join(', ');
      for (const method of HTTP_METHODS.filter((m) => !declared.includes(m))) {
        const handler = route.handlers[method] as Handler | undefined;
        expect(handler, `${method} ${route.path} is not exported`).toBeTypeOf('function');
        const res = await (handler as Handler)(new Request(urlOf(route.path), { method }), {
          params: Promise.resolve({}),
        });
        expect(res.status, `${method} ${route.path}`).toBe(405);
        expect(res.headers.get('allow')).toBe(allow);
        expect((await res.json()).error).toContain(`${method} is not allowed on ${route.path.split('{')[0]}`);
      }
      const options = (route.handlers as Record<string, Handler>).OPTIONS as Handler;
      const res = await options(new Request(urlOf(route.path), { method: 'OPTIONS' }));
      expect(res.status).toBe(204);
      expect(res.headers.get('allow')).toBe(allow);
    }
  });

  it('answers unrouted methods (501) and malformed paths (400) with {error} before any route runs', async () => {
    const res = proxy(new NextRequest(`${BASE}/v1/sites`, { method: 'PROPFIND' }));
    expect(res.status).toBe(501);
    expect(await res.json()).toEqual({ error: 'the API does not implement the PROPFIND method' });
    const malformed = proxy(new NextRequest(`${BASE}/v1/sites/%ZZ/report`));
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ error: 'the path is not validly percent-encoded' });
    const passed = proxy(new NextRequest(`${BASE}/v1/sites/%E2%82%AC`, { method: 'GET' }));
    expect(passed.headers.get('x-middleware-next')).toBe('1');
  });
});

/**
 * Every declared operation, called with hostile or broken input under each kind of credential:
 * whatever it answers, a 4xx carries a string `{error}` and nothing answers 5xx.
 */
describe('every 4xx carries {error}', () => {
  const bodies: (string | undefined)[] = [
    undefined,
    '',
    '{',
    'null',
    '[]',
    '"text"',
    '{"__proto__":{"x":1}}',
    '{"rootUrl":1e309,"name":{"a":[]},"siteIds":"all","role":"root","overageEnabled":"yes"}',
    '\u0000\uFFFF',
  ];
  const queries = ['', '?period=2026-13', '?period[]=x', '?cursor=%ZZ'];
  const params = [
    { id: 'not-a-uuid', memberId: 'x' },
    { id: '00000000-0000-4000-8000-000000000000', memberId: '' },
  ];

  // Every route × method × credential × body × query × params, in series, one test per route: the
  // whole matrix is thousands of calls and grows with every route, so no one test holds all of it.
  const credentials = (): Record<string, string>[] => [
    {},
    { authorization: 'Bearer nonsense' },
    { 'x-api-key': 'sw_nonsense' },
    { 'x-api-key': apiKey },
    { authorization: `Bearer ${owner.token}` },
  ];
  it.each(ROUTES.map((route) => [route.path, route] as const))(
    'holds on %s across methods, bodies, queries, params and credentials',
    { timeout: 120_000 },
    async (_path, route) => {
      let calls = 0;
      for (const method of HTTP_METHODS) {
        const handler = route.handlers[method];
        if (!isOperation(handler)) continue;
        for (const headers of credentials()) {
          for (const body of method === 'GET' ? [undefined] : bodies) {
            for (const query of queries) {
              for (const p of params) {
                const res = await (handler as Handler)(
                  new Request(urlOf(route.path) + query, {
                    method,
                    headers: {
                      ...headers,
                      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
                    },
                    body,
                  }),
                  { params: Promise.resolve(p) },
                );
                calls++;
                const where = `${method} ${route.path}${query} ${JSON.stringify(headers).slice(0, 30)} ${body}`;
                expect(res.status, where).toBeLessThan(500);
                if (res.status >= 400) {
                  const json = (await res.json()) as { error?: unknown };
                  expect(typeof json.error, where).toBe('string');
                }
              }
            }
          }
        }
      }
      // Every route answers at least one operation, each under every credential and query.
      expect(calls).toBeGreaterThanOrEqual(credentials().length * queries.length * params.length);
    },
  );
});
