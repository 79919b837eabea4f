import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chainOf,
  fetchFollowing,
  httpRequest,
  isPublicAddress,
  NetError,
  NOT_PUBLIC_ADDRESS,
} from '@/lib/net';
import { closedPort, hang, readRequestBody, startServer, type TestServer } from '@/tests/support/http-server';

async function netError(promise: Promise<unknown>): Promise<NetError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof NetError) return err;
    throw err;
  }
  throw new Error('expected a NetError');
}

let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  b = await startServer('127.0.0.2', {
    '/final': { body: 'landed', headers: { 'content-type': 'text/plain' } },
    '/back': { status: 302, headers: { location: 'http://127.0.0.1:PORT_A/loop-1' } },
  });
  a = await startServer('127.0.0.1', {
    '/hello': { body: 'hello world', headers: { 'content-type': 'text/plain' } },
    '/ua': (req, res) => res.end(req.headers['user-agent']),
    'POST /echo': async (req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          contentType: req.headers['content-type'],
          body: JSON.parse(await readRequestBody(req)),
        }),
      );
    },
    '/method': (req, res) => res.end(req.method),
    '/see-other': { status: 303, headers: { location: '/method' } },
    '/moved': { status: 301, headers: { location: '/hop-2' } },
    '/hop-2': { status: 302, headers: { location: `${b.origin}/final` } },
    '/loop-1': { status: 301, headers: { location: '/loop-2' } },
    '/loop-2': { status: 301, headers: { location: `${b.origin}/back` } },
    '/chain': (req, res) => {
      const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('n'));
      res.statusCode = n > 0 ? 302 : 200;
      if (n > 0) res.setHeader('location', `/chain?n=${n - 1}`);
      res.end('end of chain');
    },
    '/slow': hang,
    '/big': { body: 'x'.repeat(100_000) },
    '/gzip': {
      body: gzipSync(Buffer.from('compressed '.repeat(1000))),
      headers: { 'content-encoding': 'gzip', 'content-type': 'text/plain' },
    },
    '/port': (req, res) => res.end(String(req.socket.remotePort)),
    '/no-location': { status: 302, body: 'nowhere to go' },
  });
  b.route('/back', { status: 302, headers: { location: `${a.origin}/loop-1` } });
});

afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
});

describe('httpRequest', () => {
  it('returns status, headers, body and timings', async () => {
    const res = await httpRequest({ url: a.url('/hello') });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain');
    expect(res.body.toString()).toBe('hello world');
    expect(res.truncated).toBe(false);
    expect(res.url).toBe(a.url('/hello'));
    expect(res.timings.totalMs).toBeGreaterThanOrEqual(res.timings.headersMs);
  });

  it('identifies itself as SitewatchBot with the bot page URL', async () => {
    const res = await httpRequest({ url: a.url('/ua') });
    expect(res.body.toString()).toMatch(/^SitewatchBot\/1\.0 \(\+https?:\/\/.+\/bot\)$/);
  });

  it('sends a JSON body on POST (webhooks)', async () => {
    const res = await httpRequest({ url: a.url('/echo'), method: 'POST', json: { text: 'site down' } });
    expect(JSON.parse(res.body.toString())).toEqual({
      contentType: 'application/json',
      body: { text: 'site down' },
    });
  });

  it('never follows a redirect on its own', async () => {
    const res = await httpRequest({ url: a.url('/moved') });
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('/hop-2');
  });

  it('reuses keep-alive connections between requests', async () => {
    const clientPorts = new Set<string>();
    for (let i = 0; i < 10; i++)
      clientPorts.add((await httpRequest({ url: a.url('/port') })).body.toString());
    // undici may open a second socket while the first is being returned to the pool; never ten.
    expect(clientPorts.size).toBeLessThanOrEqual(2);
  });

  it('truncates a body past maxBytes, or fails when asked to', async () => {
    const cut = await httpRequest({ url: a.url('/big'), maxBytes: 1000 });
    expect(cut.body.length).toBe(1000);
    expect(cut.truncated).toBe(true);

    const err = await netError(httpRequest({ url: a.url('/big'), maxBytes: 1000, onTooLarge: 'error' }));
    expect(err.code).toBe('body-too-large');
    expect(err.detail).toBe('response body larger than 1000 bytes');
  });

  it('discards the body when maxBytes is 0', async () => {
    const res = await httpRequest({ url: a.url('/big'), maxBytes: 0 });
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(0);
  });

  it('decodes gzip and applies the cap to the decoded size', async () => {
    const full = await httpRequest({ url: a.url('/gzip') });
    expect(full.body.toString()).toBe('compressed '.repeat(1000));
    const cut = await httpRequest({ url: a.url('/gzip'), maxBytes: 50 });
    expect(cut.body.toString()).toBe('compressed '.repeat(1000).slice(0, 50));
    expect(cut.truncated).toBe(true);
  });

  it('times out with a plain-words detail', async () => {
    const err = await netError(httpRequest({ url: a.url('/slow'), timeoutMs: 200 }));
    expect(err.code).toBe('timeout');
    expect(err.detail).toBe('timed out after 0.2 s');
  });

  it('reports a refused connection', async () => {
    const port = await closedPort('127.0.0.1');
    const err = await netError(httpRequest({ url: `http://127.0.0.1:${port}/` }));
    expect(err.code).toBe('refused');
    expect(err.detail).toBe('connection refused by 127.0.0.1');
  });

  it('reports a host that does not resolve', async () => {
    const err = await netError(httpRequest({ url: 'http://no-such-host.invalid/' }));
    expect(err.code).toBe('dns');
    expect(err.detail).toBe('DNS lookup failed for host no-such-host.invalid');
  });

  it('rejects non-http URLs', async () => {
    expect((await netError(httpRequest({ url: 'ftp://example.com/' }))).code).toBe('invalid-url');
    expect((await netError(httpRequest({ url: 'not a url' }))).code).toBe('invalid-url');
  });

  it('stops when the caller aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const err = await netError(httpRequest({ url: a.url('/slow'), signal: controller.signal }));
    expect(err.code).toBe('aborted');
  });

  it('cancels every request in flight under one signal, and none that already finished', async () => {
    const controller = new AbortController();
    const quick = await httpRequest({ url: a.url('/hello'), signal: controller.signal });
    const slow = [1, 2, 3].map(() =>
      netError(fetchFollowing({ url: a.url('/slow'), signal: controller.signal })),
    );
    setTimeout(() => controller.abort(), 50);
    expect((await Promise.all(slow)).map((err) => err.code)).toEqual(['aborted', 'aborted', 'aborted']);
    expect(quick.status).toBe(200);
    // A signal that is already aborted stops a request before it is sent.
    const before = a.requests.length;
    expect((await netError(httpRequest({ url: a.url('/hello'), signal: controller.signal }))).code).toBe(
      'aborted',
    );
    expect(a.requests.length).toBe(before);
  });
});

describe('private network guard', () => {
  it('refuses loopback IP literals', async () => {
    const err = await netError(httpRequest({ url: a.url('/hello'), allowPrivate: false }));
    expect(err.code).toBe('blocked');
    expect(err.detail).toBe(`refused to connect to 127.0.0.1: ${NOT_PUBLIC_ADDRESS}`);
    expect(a.requests.some((r) => r.headers['user-agent'] === undefined)).toBe(false);
  });

  it('refuses names that resolve to private addresses (checked in the connect lookup)', async () => {
    const err = await netError(httpRequest({ url: `http://localhost:${a.port}/hello`, allowPrivate: false }));
    expect(err.code).toBe('blocked');
    expect(err.detail).toMatch(
      /^refused to connect to localhost \((127\.0\.0\.1|::1)\): not a public internet address \(.*PRIVATE_NETWORKS\)$/,
    );
  });

  it('refuses IPv4-mapped IPv6 literals', async () => {
    const err = await netError(
      httpRequest({ url: `http://[::ffff:127.0.0.1]:${a.port}/`, allowPrivate: false }),
    );
    expect(err.code).toBe('blocked');
  });

  it('never reaches the server when blocked', async () => {
    const before = a.hits('/hello');
    await netError(httpRequest({ url: a.url('/hello'), allowPrivate: false }));
    expect(a.hits('/hello')).toBe(before);
  });

  it('classifies addresses', () => {
    for (const ok of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPublicAddress(ok), ok).toBe(true);
    }
    for (const bad of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::',
      'not-an-ip',
    ]) {
      expect(isPublicAddress(bad), bad).toBe(false);
    }
  });
});

describe('fetchFollowing', () => {
  it('follows redirects across hosts and records every hop', async () => {
    const res = await fetchFollowing({ url: a.url('/moved') });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('landed');
    expect(res.url).toBe(b.url('/final'));
    expect(res.chain).toEqual([
      { status: 301, url: a.url('/moved') },
      { status: 302, url: a.url('/hop-2') },
      { status: 200, url: b.url('/final') },
    ]);
  });

  it('detects a redirect loop and names it', async () => {
    const err = await netError(fetchFollowing({ url: a.url('/loop-1') }));
    expect(err.code).toBe('redirect-loop');
    expect(err.detail).toBe(
      `redirect loop: ${a.url('/loop-1')} -> ${a.url('/loop-2')} -> ${b.url('/back')} -> ${a.url('/loop-1')}`,
    );
    expect(chainOf(err)?.map((hop) => hop.status)).toEqual([301, 301, 302]);
  });

  it('allows exactly maxRedirects hops', async () => {
    const ok = await fetchFollowing({ url: a.url('/chain?n=3'), maxRedirects: 3 });
    expect(ok.status).toBe(200);
    expect(ok.chain).toHaveLength(4);

    const err = await netError(fetchFollowing({ url: a.url('/chain?n=4'), maxRedirects: 3 }));
    expect(err.code).toBe('too-many-redirects');
    expect(err.detail).toBe('more than 3 redirects');
    expect(chainOf(err)).toHaveLength(4);
  });

  it('turns a POST into a GET on 303', async () => {
    const res = await fetchFollowing({ url: a.url('/see-other'), method: 'POST', json: {} });
    expect(res.body.toString()).toBe('GET');
  });

  it('returns a redirect without a location as the final response', async () => {
    const res = await fetchFollowing({ url: a.url('/no-location') });
    expect(res.status).toBe(302);
    expect(res.body.toString()).toBe('nowhere to go');
    expect(res.chain).toHaveLength(1);
  });

  it('reports errors after a redirect with the chain so far', async () => {
    const port = await closedPort('127.0.0.3');
    a.route('/to-dead', { status: 302, headers: { location: `http://127.0.0.3:${port}/` } });
    const err = await netError(fetchFollowing({ url: a.url('/to-dead') }));
    expect(err.code).toBe('refused');
    expect(chainOf(err)).toEqual([{ status: 302, url: a.url('/to-dead') }]);
  });

  it('applies the deadline to the whole chain', async () => {
    a.route('/to-slow', { status: 302, headers: { location: '/slow' } });
    const err = await netError(fetchFollowing({ url: a.url('/to-slow'), timeoutMs: 200 }));
    expect(err.code).toBe('timeout');
  });
});

/** A self-signed certificate from the openssl CLI; null where openssl is not installed. */
function selfSignedCertificate(): { key: Buffer; cert: Buffer } | null {
  const dir = mkdtempSync(join(tmpdir(), 'sitewatch-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } catch {
    return null;
  }
}

describe('TLS failures', () => {
  const credentials = selfSignedCertificate();
  it.skipIf(credentials === null)('reports an untrusted certificate in plain words', async () => {
    const server = https.createServer(credentials ?? {}, (_req, res) => res.end('secret'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const err = await netError(httpRequest({ url: `https://127.0.0.1:${port}/` }));
      expect(err.code).toBe('tls');
      expect(err.detail).toBe('TLS error: the certificate is self-signed');
    } finally {
      server.close();
    }
  });
});
