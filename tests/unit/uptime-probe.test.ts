import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import selfsigned from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe, probeOnce } from '@/lib/uptime/probe';
import type { ProbeResult } from '@/lib/uptime/types';
import { closedPort, hang, startServer, type TestServer } from '@/tests/support/http-server';

let site: TestServer;
let other: TestServer;
const target = (url: string, timeoutSeconds = 10) => ({ monitorId: 'm1', url, timeoutSeconds });

beforeAll(async () => {
  other = await startServer('127.0.0.2', { '/landing': { body: 'here' } });
  site = await startServer('127.0.0.1', {
    '/': { body: 'hello' },
    '/error': { status: 503, body: 'down for maintenance' },
    '/missing': { status: 404 },
    '/moved': { status: 301, headers: { location: `${other.origin}/landing` } },
    '/loop-a': { status: 302, headers: { location: '/loop-b' } },
    '/loop-b': { status: 302, headers: { location: '/loop-a' } },
    '/chain': (req, res) => {
      const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('n'));
      res.statusCode = n > 0 ? 302 : 200;
      if (n > 0) res.setHeader('location', `/chain?n=${n - 1}`);
      res.end();
    },
    '/slow': hang,
    // 600 ms each: either hop alone fits in a 1 s timeout, the two together do not.
    '/slow-hop-1': { status: 302, headers: { location: '/slow-hop-2' }, delayMs: 600 },
    '/slow-hop-2': { body: 'late', delayMs: 600 },
  });
});

afterAll(async () => {
  await site.close();
  await other.close();
});

describe('probeOnce', () => {
  it('answers ok with the status and every phase of a fresh connection, in order', async () => {
    // `localhost` rather than the IP literal, so the probe makes a DNS lookup to time.
    const result = await probeOnce(target(`http://localhost:${site.port}/`));
    expect(result).toMatchObject({ ok: true, status: 200, cause: null, error: null, attempts: 1 });
    const { dnsMs, connectMs, tlsMs, firstByteMs } = result.phases;
    expect(tlsMs).toBeNull();
    for (const phase of [dnsMs, connectMs, firstByteMs]) expect(phase).toBeGreaterThanOrEqual(0);
    // The phases are consecutive stretches of one connection, so together they fit in the total.
    expect((dnsMs ?? 0) + (connectMs ?? 0) + (firstByteMs ?? 0)).toBeLessThanOrEqual(result.totalMs);
    expect(result.tlsCertExpiresAt).toBeNull();
  });

  it('opens a connection per probe, so connect is measured every time', async () => {
    const before = site.requests.length;
    const first = await probeOnce(target(site.url('/')));
    const second = await probeOnce(target(site.url('/')));
    expect(site.requests.length - before).toBe(2);
    expect(first.phases.connectMs).not.toBeNull();
    expect(second.phases.connectMs).not.toBeNull();
    // An IP literal needs no lookup.
    expect(second.phases.dnsMs).toBeNull();
  });

  it('fails a refused connection as network', async () => {
    const port = await closedPort();
    const result = await probeOnce(target(`http://127.0.0.1:${port}/`));
    expect(result).toMatchObject({ ok: false, status: null, cause: 'network' });
    expect(result.error).toMatch(/connection refused/);
  });

  it('fails a probe slower than its timeout as timeout', async () => {
    const result = await probeOnce(target(site.url('/slow'), 1));
    expect(result).toMatchObject({ ok: false, status: null, cause: 'timeout' });
    expect(result.error).toMatch(/timed out after 1 s/);
  });

  it('applies the timeout to the whole probe, every redirect hop included', async () => {
    const result = await probeOnce(target(site.url('/slow-hop-1'), 1));
    expect(result).toMatchObject({ ok: false, cause: 'timeout' });
    expect(site.hits('/slow-hop-2')).toBe(1);
  });

  it('classifies 5xx and 4xx answers', async () => {
    expect(await probeOnce(target(site.url('/error')))).toMatchObject({
      ok: false,
      status: 503,
      cause: 'http_5xx',
      error: 'the server answered HTTP 503',
    });
    expect(await probeOnce(target(site.url('/missing')))).toMatchObject({
      ok: false,
      status: 404,
      cause: 'http_4xx',
    });
  });

  it('follows redirects to another host and counts the final answer', async () => {
    const result = await probeOnce(target(site.url('/moved')));
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(other.hits('/landing')).toBeGreaterThan(0);
  });

  it('fails a redirect loop and an eleventh redirect as redirect, but follows ten', async () => {
    const loop = await probeOnce(target(site.url('/loop-a')));
    expect(loop).toMatchObject({ ok: false, cause: 'redirect' });
    expect(loop.error).toMatch(/redirect loop/);
    expect(await probeOnce(target(site.url('/chain?n=10')))).toMatchObject({ ok: true, status: 200 });
    const tooMany = await probeOnce(target(site.url('/chain?n=11')));
    expect(tooMany).toMatchObject({ ok: false, cause: 'redirect' });
    expect(tooMany.error).toBe('more than 10 redirects');
  });

  it('fails a name that does not resolve as dns', async () => {
    // .invalid is reserved (RFC 6761): no resolver ever answers it.
    const result = await probeOnce(target('http://nothing-here.invalid/'));
    expect(result).toMatchObject({ ok: false, cause: 'dns' });
    expect(result.error).toBe('DNS lookup failed for host nothing-here.invalid');
  });

  it("keeps lib/net's address checks on its own connections: a private target is refused", async () => {
    for (const url of [site.url('/'), `http://localhost:${site.port}/`]) {
      const result = await probeOnce(target(url), { allowPrivate: false });
      expect(result).toMatchObject({ ok: false, cause: 'network' });
      expect(result.error).toMatch(/not a public internet address/);
    }
  });

  it('does not download the body: the connection is dropped once the headers are in', async () => {
    const total = 64 * 1024 * 1024;
    let written = 0;
    const closed = new Promise<void>((resolve) => {
      site.route('/huge', (_req, res) => {
        res.on('close', () => resolve());
        const chunk = Buffer.alloc(64 * 1024, 'x');
        const pump = () => {
          while (written < total && !res.destroyed) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
      });
    });
    const result = await probeOnce(target(site.url('/huge')));
    await closed;
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(written).toBeLessThan(total);
  });
});

describe('certificates', () => {
  async function httpsServer(notBeforeDate: Date, notAfterDate: Date) {
    const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
      notBeforeDate,
      notAfterDate,
      keySize: 2048,
      algorithm: 'sha256',
    });
    const server = https.createServer({ key: pems.private, cert: pems.cert }, (_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { url: `https://localhost:${port}/`, close: () => server.close() };
  }

  /** Whole seconds: that is all an X.509 date holds. */
  const seconds = (ms: number) => Math.floor(ms / 1000) * 1000;

  it('fails a self-signed certificate as tls and still reads its expiry and the TLS phase', async () => {
    const notAfter = new Date(seconds(Date.now() + 30 * 86_400_000));
    const server = await httpsServer(new Date(Date.now() - 86_400_000), notAfter);
    try {
      const result: ProbeResult = await probeOnce(target(server.url));
      expect(result).toMatchObject({ ok: false, status: null, cause: 'tls' });
      expect(result.error).toBe('TLS error: the certificate is self-signed');
      expect(result.tlsCertExpiresAt).toBe(notAfter.getTime());
      expect(result.phases.tlsMs).toBeGreaterThanOrEqual(0);
      // Refused before a single request byte was written.
      expect(result.phases.firstByteMs).toBeNull();
    } finally {
      server.close();
    }
  });

  it('times the TLS handshake and reads the expiry of a trusted certificate', async () => {
    // A CA of the test's own, trusted by a child process through NODE_EXTRA_CA_CERTS (read only
    // at start-up), and a certificate it signed for localhost.
    const ca = await selfsigned.generate([{ name: 'commonName', value: 'Sitewatch test CA' }], {
      keySize: 2048,
      algorithm: 'sha256',
      extensions: [
        { name: 'basicConstraints', cA: true, critical: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
      ],
    });
    const notAfter = new Date(seconds(Date.now() + 10 * 86_400_000));
    const leaf = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
      keySize: 2048,
      algorithm: 'sha256',
      notAfterDate: notAfter,
      ca: { key: ca.private, cert: ca.cert },
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }] }],
    });
    const dir = mkdtempSync(join(tmpdir(), 'sitewatch-ca-'));
    writeFileSync(join(dir, 'ca.pem'), ca.cert);
    const server = https.createServer({ key: leaf.private, cert: leaf.cert }, (_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const { stdout } = await promisify(execFile)(
        'node_modules/.bin/tsx',
        ['tests/support/probe-child.ts', `https://localhost:${port}/`],
        { env: { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem') } },
      );
      const result = JSON.parse(stdout) as ProbeResult;
      expect(result).toMatchObject({
        ok: true,
        status: 200,
        cause: null,
        tlsCertExpiresAt: notAfter.getTime(),
      });
      const { dnsMs, connectMs, tlsMs, firstByteMs } = result.phases;
      for (const phase of [dnsMs, connectMs, tlsMs, firstByteMs]) expect(phase).toBeGreaterThanOrEqual(0);
      expect((dnsMs ?? 0) + (connectMs ?? 0) + (tlsMs ?? 0) + (firstByteMs ?? 0)).toBeLessThanOrEqual(
        result.totalMs,
      );
    } finally {
      server.close();
    }
  });

  it('fails an expired certificate as tls, naming the expiry', async () => {
    const notAfter = new Date('2020-02-01T00:00:00Z');
    const server = await httpsServer(new Date('2020-01-01T00:00:00Z'), notAfter);
    try {
      const result = await probeOnce(target(server.url));
      expect(result).toMatchObject({
        ok: false,
        cause: 'tls',
        error: 'TLS error: the certificate has expired',
      });
      expect(result.tlsCertExpiresAt).toBe(notAfter.getTime());
    } finally {
      server.close();
    }
  });
});

describe('probe (with its retry)', () => {
  it('counts a success at once, without a retry', async () => {
    const before = site.hits('/');
    expect(await probe(target(site.url('/')), { retryDelayMs: 0 })).toMatchObject({ ok: true, attempts: 1 });
    expect(site.hits('/') - before).toBe(1);
  });

  it('retries a failure once in the same region, and the retry is what counts', async () => {
    let calls = 0;
    site.route('/blip', (_req, res) => {
      calls++;
      res.statusCode = calls === 1 ? 502 : 200;
      res.end();
    });
    expect(await probe(target(site.url('/blip')), { retryDelayMs: 10 })).toMatchObject({
      ok: true,
      status: 200,
      attempts: 2,
    });
    expect(calls).toBe(2);
    const still = await probe(target(site.url('/error')), { retryDelayMs: 10 });
    expect(still).toMatchObject({ ok: false, cause: 'http_5xx', attempts: 2 });
  });
});
