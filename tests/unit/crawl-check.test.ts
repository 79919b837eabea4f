import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLink, classifyStatus, retryAfterMs } from '@/lib/crawl/engine/check';
import { NOT_PUBLIC_ADDRESS } from '@/lib/net';
import {
  closedPort,
  hang,
  type RouteHandler,
  startServer,
  type TestServer,
} from '@/tests/support/http-server';

let site: TestServer;
let other: TestServer;

/** Answers with each status in turn, then repeats the last one. */
function sequence(...steps: { status: number; headers?: Record<string, string> }[]): RouteHandler {
  let i = 0;
  return (_req, res) => {
    const step = steps[Math.min(i++, steps.length - 1)] ?? { status: 200 };
    res.writeHead(step.status, step.headers).end();
  };
}

const fast = { retryDelayMs: 10, retryAfterCapMs: 2_000 };

beforeAll(async () => {
  other = await startServer('127.0.0.2', { '/landing': { body: 'ok' } });
  site = await startServer('127.0.0.1', {
    '/ok': { body: 'fine' },
    '/missing': { status: 404 },
    '/gone': { status: 410 },
    '/teapot': { status: 418 },
    '/crash': { status: 500 },
    '/private': { status: 401 },
    '/forbidden': { status: 403 },
    '/challenge': { status: 503, headers: { 'cf-mitigated': 'challenge' } },
    '/linkedin': { status: 999 },
    '/r1': { status: 301, headers: { location: '/r2' } },
    '/r2': { status: 302, headers: { location: `${'http://127.0.0.2'}:PORT/landing` } },
    '/loop-a': { status: 302, headers: { location: '/loop-b' } },
    '/loop-b': { status: 302, headers: { location: '/loop-a' } },
    '/to-missing': { status: 308, headers: { location: '/missing' } },
    'HEAD /no-head': { status: 405 },
    'GET /no-head': { body: 'get works' },
    'HEAD /head-404': { status: 404 },
    'GET /head-404': { body: 'servers that get HEAD wrong' },
    '/slow': hang,
  });
  site.route('/r2', { status: 302, headers: { location: other.url('/landing') } });
  for (let n = 0; n <= 21; n++) {
    site.route(
      `/hops/${n}`,
      n === 0 ? { body: 'end' } : { status: 302, headers: { location: `/hops/${n - 1}` } },
    );
  }
});

afterAll(async () => {
  await Promise.all([site.close(), other.close()]);
});

describe('checkLink', () => {
  it('accepts a 2xx HEAD without a GET', async () => {
    const outcome = await checkLink(site.url('/ok'));
    expect(outcome).toEqual({
      verdict: 'ok',
      statusCode: 200,
      redirectChain: null,
      detail: null,
      finalUrl: site.url('/ok'),
      contentType: null,
      responseMs: expect.any(Number),
    });
    expect(site.hits('/ok', 'GET')).toBe(0);
  });

  it('reports 404, 410, other 4xx and 5xx as broken', async () => {
    expect(await checkLink(site.url('/missing'), fast)).toMatchObject({
      verdict: 'broken',
      statusCode: 404,
      detail: 'not found (404)',
    });
    expect(await checkLink(site.url('/gone'), fast)).toMatchObject({
      verdict: 'broken',
      statusCode: 410,
      detail: 'gone (410)',
    });
    expect(await checkLink(site.url('/teapot'), fast)).toMatchObject({
      verdict: 'broken',
      statusCode: 418,
      detail: 'client error (418)',
    });
    expect(await checkLink(site.url('/crash'), fast)).toMatchObject({
      verdict: 'broken',
      statusCode: 500,
      detail: 'server error (500)',
    });
  });

  it('never calls 401, 403, bot challenges or 999 broken', async () => {
    expect(await checkLink(site.url('/private'), fast)).toMatchObject({
      verdict: 'unverifiable',
      statusCode: 401,
    });
    expect(await checkLink(site.url('/forbidden'), fast)).toMatchObject({
      verdict: 'unverifiable',
      statusCode: 403,
    });
    expect(await checkLink(site.url('/challenge'), fast)).toMatchObject({
      verdict: 'unverifiable',
      statusCode: 503,
      detail: 'blocked by a bot challenge (503)',
    });
    expect(await checkLink(site.url('/linkedin'), fast)).toMatchObject({
      verdict: 'unverifiable',
      statusCode: 999,
    });
  });

  it('falls back to GET when HEAD is refused or wrong', async () => {
    expect(await checkLink(site.url('/no-head'), fast)).toMatchObject({ verdict: 'ok', statusCode: 200 });
    expect(site.hits('/no-head', 'HEAD')).toBe(1);
    expect(site.hits('/no-head', 'GET')).toBe(1);
    expect(await checkLink(site.url('/head-404'), fast)).toMatchObject({ verdict: 'ok', statusCode: 200 });
  });

  it('records every hop of a redirect chain across hosts', async () => {
    const outcome = await checkLink(site.url('/r1'));
    expect(outcome.verdict).toBe('ok');
    expect(outcome.finalUrl).toBe(other.url('/landing'));
    expect(outcome.redirectChain).toEqual([
      { status: 301, url: site.url('/r1') },
      { status: 302, url: site.url('/r2') },
      { status: 200, url: other.url('/landing') },
    ]);
  });

  it('reports a redirect to a missing page as broken, with the chain', async () => {
    const outcome = await checkLink(site.url('/to-missing'), fast);
    expect(outcome).toMatchObject({ verdict: 'broken', statusCode: 404, finalUrl: site.url('/missing') });
    expect(outcome.redirectChain).toEqual([
      { status: 308, url: site.url('/to-missing') },
      { status: 404, url: site.url('/missing') },
    ]);
  });

  it('reports redirect loops and too many hops as errors', async () => {
    const loop = await checkLink(site.url('/loop-a'), fast);
    expect(loop).toMatchObject({
      verdict: 'error',
      statusCode: null,
      detail: `redirect loop: ${site.url('/loop-a')} -> ${site.url('/loop-b')} -> ${site.url('/loop-a')}`,
    });
    expect(loop.redirectChain).toHaveLength(2);

    // Browsers follow 20 redirects (the Fetch standard's limit): so does the checker.
    expect(await checkLink(site.url('/hops/20'), fast)).toMatchObject({ verdict: 'ok' });
    const tooMany = await checkLink(site.url('/hops/21'), fast);
    expect(tooMany).toMatchObject({ verdict: 'error', statusCode: null, detail: 'more than 20 redirects' });
    expect(tooMany.redirectChain).toHaveLength(21);
  });

  it('calls a final 304 to a plain request broken, directly or after redirects', async () => {
    site.route('/not-modified', { status: 304 });
    site.route('/to-not-modified', { status: 302, headers: { location: '/not-modified' } });
    expect(await checkLink(site.url('/not-modified'), fast)).toMatchObject({
      verdict: 'broken',
      statusCode: 304,
      detail: 'not modified (304) in answer to an unconditional request',
    });
    const redirected = await checkLink(site.url('/to-not-modified'), fast);
    expect(redirected).toMatchObject({ verdict: 'broken', statusCode: 304 });
    expect(redirected.redirectChain).toHaveLength(2);
    // Nothing conditional was asked: no request carried a validator.
    const asked = site.requests.filter((r) => r.path.endsWith('not-modified'));
    expect(asked.length).toBeGreaterThan(0);
    for (const request of asked) {
      expect(request.headers['if-none-match']).toBeUndefined();
      expect(request.headers['if-modified-since']).toBeUndefined();
    }
  });

  it('reports a link that is not a URL as broken, invalid, without a request', async () => {
    const before = site.requests.length;
    for (const raw of ['http://', '//////', 'https://exa mple.com/']) {
      expect(await checkLink(raw, fast)).toEqual({
        verdict: 'broken',
        statusCode: null,
        redirectChain: null,
        detail: `invalid URL: ${JSON.stringify(raw)}`,
        finalUrl: raw,
        contentType: null,
        responseMs: null,
      });
    }
    expect(site.requests.length).toBe(before);
  });

  it('waits for Retry-After on 429, then accepts the retry', async () => {
    site.route('/busy', sequence({ status: 429, headers: { 'retry-after': '1' } }, { status: 200 }));
    const started = Date.now();
    const outcome = await checkLink(site.url('/busy'), fast);
    expect(outcome).toMatchObject({ verdict: 'ok', statusCode: 200 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('caps a long Retry-After', async () => {
    site.route('/later', sequence({ status: 429, headers: { 'retry-after': '3600' } }, { status: 200 }));
    const started = Date.now();
    expect(await checkLink(site.url('/later'), { ...fast, retryAfterCapMs: 50 })).toMatchObject({
      verdict: 'ok',
    });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('calls a 503 that persists after the retry broken', async () => {
    site.route('/down', sequence({ status: 503, headers: { 'retry-after': '0' } }));
    expect(await checkLink(site.url('/down'), fast)).toMatchObject({
      verdict: 'broken',
      statusCode: 503,
      detail: 'server error (503)',
    });
    expect(site.hits('/down')).toBe(2);
  });

  it('calls a 429 that persists after the retry unverifiable', async () => {
    site.route('/throttled', sequence({ status: 429 }));
    expect(await checkLink(site.url('/throttled'), fast)).toMatchObject({
      verdict: 'unverifiable',
      statusCode: 429,
    });
    expect(site.hits('/throttled')).toBe(2);
  });

  it('retries a GET that got 503 after a HEAD that failed differently', async () => {
    site.route('HEAD /flaky', { status: 405 });
    site.route('GET /flaky', sequence({ status: 503 }, { status: 200 }));
    expect(await checkLink(site.url('/flaky'), fast)).toMatchObject({ verdict: 'ok', statusCode: 200 });
    expect(site.hits('/flaky', 'GET')).toBe(2);
  });

  it('reports a timeout as an error after one retry', async () => {
    const outcome = await checkLink(site.url('/slow'), { ...fast, timeoutMs: 150 });
    expect(outcome).toEqual({
      verdict: 'error',
      statusCode: null,
      redirectChain: null,
      detail: 'timed out after 0.15 s',
      finalUrl: site.url('/slow'),
      contentType: null,
      responseMs: null,
    });
    expect(site.hits('/slow')).toBe(2);
  });

  it('retries a reset connection once', async () => {
    let calls = 0;
    site.route('/reset-once', (req, res) => {
      calls++;
      if (calls === 1) req.socket.destroy();
      else res.end('ok');
    });
    expect(await checkLink(site.url('/reset-once'), fast)).toMatchObject({ verdict: 'ok', statusCode: 200 });
    expect(calls).toBe(2);
  });

  it('reports refused connections and DNS failures without retrying', async () => {
    const port = await closedPort('127.0.0.3');
    expect(await checkLink(`http://127.0.0.3:${port}/`, fast)).toMatchObject({
      verdict: 'error',
      statusCode: null,
      detail: 'connection refused by 127.0.0.3',
    });
    expect(await checkLink('https://nothing-here.invalid/page', fast)).toMatchObject({
      verdict: 'error',
      detail: 'DNS lookup failed for host nothing-here.invalid',
      finalUrl: 'https://nothing-here.invalid/page',
    });
  });

  it('refuses private addresses when the network guard is on', async () => {
    expect(await checkLink(site.url('/ok'), { ...fast, allowPrivate: false })).toMatchObject({
      verdict: 'error',
      detail: `refused to connect to 127.0.0.1: ${NOT_PUBLIC_ADDRESS}`,
    });
  });

  it('throws when the caller cancels', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    await expect(checkLink(site.url('/slow'), { signal: controller.signal })).rejects.toMatchObject({
      code: 'aborted',
    });
  });
});

describe('classifyStatus', () => {
  it('maps statuses to verdicts', () => {
    expect(classifyStatus(204).verdict).toBe('ok');
    expect(classifyStatus(304).verdict).toBe('broken');
    expect(classifyStatus(300).verdict).toBe('ok');
    expect(classifyStatus(407)).toEqual({
      verdict: 'unverifiable',
      detail: 'proxy authentication required (407)',
    });
    expect(classifyStatus(403, { 'cf-mitigated': 'challenge' })).toEqual({
      verdict: 'unverifiable',
      detail: 'blocked by a bot challenge (403)',
    });
    expect(classifyStatus(502)).toEqual({ verdict: 'broken', detail: 'server error (502)' });
    expect(classifyStatus(700).verdict).toBe('broken');
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('reads seconds and HTTP dates, clamped to the cap', () => {
    expect(retryAfterMs({ 'retry-after': '5' }, 1000, 30_000, now)).toBe(5000);
    expect(retryAfterMs({ 'retry-after': 'Wed, 01 Jan 2025 00:00:10 GMT' }, 1000, 30_000, now)).toBe(10_000);
    expect(retryAfterMs({ 'retry-after': 'Tue, 31 Dec 2024 00:00:00 GMT' }, 1000, 30_000, now)).toBe(0);
    expect(retryAfterMs({ 'retry-after': '120' }, 1000, 30_000, now)).toBe(30_000);
    expect(retryAfterMs({ 'retry-after': 'soon' }, 1000, 30_000, now)).toBe(1000);
    expect(retryAfterMs({}, 1000, 30_000, now)).toBe(1000);
  });
});
