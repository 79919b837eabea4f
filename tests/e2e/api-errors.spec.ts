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
