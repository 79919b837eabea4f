import { expect, test } from '@playwright/test';

/*
 * The API's error contract through the real server: what Next.js answers before any route file
 * runs (unrouted methods, malformed paths, the bare prefix) carries `{error}` like everything else.
 */
test.use({ storageState: { cookies: [], origins: [] } });

const cases = [
  {
    method: 'PUT',
    path: '/v1/sites',
    status: 405,
    error: 'PUT is not allowed on /v1/sites; it answers GET, POST',
  },
  {
    method: 'DELETE',
    path: '/v1/billing',
    status: 405,
    error: 'DELETE is not allowed on /v1/billing; it answers GET, PATCH',
  },
  {
    method: 'PROPFIND',
    path: '/v1/sites',
    status: 501,
    error: 'the API does not implement the PROPFIND method',
  },
  { method: 'GET', path: '/v1/sites/%ZZ', status: 400, error: 'the path is not validly percent-encoded' },
  {
    method: 'GET',
    path: '/v1/sites/%E0%A4%A/report',
    status: 400,
    error: 'the path is not validly percent-encoded',
  },
  { method: 'GET', path: '/v1', status: 404, error: 'no such endpoint: GET /v1' },
  {
    method: 'POST',
    path: '/v1/no/such/thing',
    status: 404,
    error: 'no such endpoint: POST /v1/no/such/thing',
  },
  {
    method: 'GET',
    path: '/v1/sites',
    status: 401,
    error: 'missing credentials: send an x-api-key header or a session (Authorization: Bearer)',
  },
];

for (const c of cases) {
  test(`${c.method} ${c.path} answers ${c.status} with {error}`, async ({ request }) => {
    const res = await request.fetch(c.path, { method: c.method });
    expect(res.status()).toBe(c.status);
    expect(res.headers()['content-type']).toContain('application/json');
    expect(await res.json()).toEqual({ error: c.error });
  });
}

test('OPTIONS names the methods a path answers', async ({ request }) => {
  const res = await request.fetch('/v1/sites/00000000-0000-4000-8000-000000000000', { method: 'OPTIONS' });
  expect(res.status()).toBe(204);
  expect(res.headers().allow).toBe('DELETE, GET, HEAD, OPTIONS, PATCH');
});

test('every /v1 answer says where its rate limits stand, the client read through the front door', async ({
  request,
}) => {
  // The project's client sends X-Forwarded-For through the trusted proxy on loopback (see
  // playwright.config.ts): the address policy counts it, with its documented default. The count
  // is per calendar minute: the two requests are kept clear of a minute's end.
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 5_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
  const first = await request.fetch('/v1/sites');
  expect(first.status()).toBe(401);
  expect(first.headers()['ratelimit-policy']).toBe('"address";q=1000;w=60');
  const remaining = Number(/^"address";r=(\d+);t=(\d+)$/.exec(first.headers().ratelimit ?? '')?.[1]);
  const next = await request.fetch('/v1/no/such/thing');
  expect(next.status()).toBe(404);
  expect(next.headers().ratelimit).toMatch(new RegExp(`^"address";r=${remaining - 1};t=\\d+$`));
});
