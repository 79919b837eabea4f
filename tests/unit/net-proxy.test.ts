import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserProxy, NOT_PUBLIC_ADDRESS, type ProxyNetwork, type ProxySession } from '@/lib/net';
import { MAX_SESSION_SOCKETS } from '@/lib/net/proxy';
import { closedPort, startServer, type TestServer } from '@/tests/support/http-server';

/**
 * The browser proxy against real servers on loopback. A stand-in network maps names the way a
 * hostile DNS would: `private.example` answers 127.0.0.1, `public.example` answers a public
 * address (93.184.215.14) that the stand-in then dials at 127.0.0.2, and `mixed.example` answers
 * both, private first.
 */

const PUBLIC = '93.184.215.14';
const dialed: string[] = [];
const network: ProxyNetwork = {
  async lookup(hostname) {
    const answers: Record<string, string[]> = {
      'private.example': ['127.0.0.1'],
      'public.example': [PUBLIC],
      'mixed.example': ['127.0.0.1', PUBLIC],
    };
    const found = answers[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: 4 }));
  },
  connect(address, port) {
    dialed.push(address);
    return net.connect({ host: address === PUBLIC ? '127.0.0.2' : address, port });
  },
};

let local: TestServer;
let publicSite: TestServer;
let proxy: BrowserProxy;
let guarded: ProxySession;
let open: ProxySession;

beforeAll(async () => {
  local = await startServer('127.0.0.1', { '/secret': { body: 'internal' } });
  publicSite = await startServer('127.0.0.2', {
    '/page': (req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.end(`host=${req.headers.host}`);
    },
  });
  proxy = await BrowserProxy.start(network);
  guarded = await proxy.session({ allowPrivate: false });
  open = await proxy.session({ allowPrivate: true });
});

afterAll(async () => {
  await proxy?.close();
  await local?.close();
  await publicSite?.close();
});

/** Where a request goes: a session's own port, or the proxy's port that belongs to no session. */
type Through = ProxySession | BrowserProxy;
const portOf = (through: Through) => new URL('url' in through ? through.url : through.settings.server).port;

/** A plain-http request through the proxy, in proxy form (absolute URL). */
function viaProxy(url: string, through: Through): Promise<{ status: number; body: string }> {
  const host = URL.canParse(url) ? new URL(url).host : 'public.example';
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port: portOf(through),
      path: url,
      headers: { host },
      agent: false,
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A CONNECT through the proxy: its status and, on 200, the open tunnel (null when the proxy hung up). */
function connectTo(authority: string, through: Through): Promise<{ status: number; socket: Duplex | null }> {
  return new Promise((resolve) => {
    const req = http.request({
      host: '127.0.0.1',
      port: portOf(through),
      method: 'CONNECT',
      path: authority,
      agent: false,
    });
    req.on('connect', (res, socket) => {
      if (res.statusCode === 200) {
        resolve({ status: 200, socket });
        return;
      }
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, socket: null });
    });
    req.on('error', () => resolve({ status: 0, socket: null }));
    req.end();
  });
}

/** A CONNECT through the proxy; on 200, one HTTP request through the tunnel. */
async function tunnel(authority: string, through: Through): Promise<{ status: number; body: string }> {
  const { status, socket } = await connectTo(authority, through);
  if (!socket) return { status, body: '' };
  return new Promise((resolve) => {
    let raw = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      raw += chunk;
    });
    socket.on('end', () => resolve({ status, body: raw.slice(raw.indexOf('\r\n\r\n') + 4) }));
    socket.write(`GET /page HTTP/1.1\r\nHost: ${authority}\r\nConnection: close\r\n\r\n`);
  });
}

describe('not an open relay', () => {
  it("refuses everything on the proxy's own port (the browser-wide setting: a context without a session)", async () => {
    const before = publicSite.hits('/page');
    expect((await viaProxy(publicSite.url('/page'), proxy)).status).toBe(403);
    expect((await tunnel(`${publicSite.host}:${publicSite.port}`, proxy)).status).toBe(403);
    expect(publicSite.hits('/page')).toBe(before);
  });

  it("stops listening on a session's port when the session closes", async () => {
    const closed = await proxy.session({ allowPrivate: true });
    closed.close();
    const before = publicSite.hits('/page');
    await expect(viaProxy(publicSite.url('/page'), closed)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect((await tunnel(`${publicSite.host}:${publicSite.port}`, closed)).status).toBe(0);
    expect(publicSite.hits('/page')).toBe(before);
  });

  it('gives each session a port of its own, on 127.0.0.1 only', () => {
    const ports = [proxy.url, guarded.settings.server, open.settings.server].map((url) => new URL(url));
    for (const url of ports) expect(url.hostname).toBe('127.0.0.1');
    expect(new Set(ports.map((url) => url.port)).size).toBe(3);
    expect(Object.keys(guarded.settings).sort()).toEqual(['bypass', 'server']);
  });
});

describe('plain http requests', () => {
  it('forwards to public hosts with the Host header kept', async () => {
    const answer = await viaProxy(`http://public.example:${publicSite.port}/page`, guarded);
    expect(answer).toEqual({ status: 200, body: `host=public.example:${publicSite.port}` });
  });

  it('refuses a name that resolves to a private address, and never connects', async () => {
    const before = local.hits('/secret');
    const url = `http://private.example:${local.port}/secret`;
    const answer = await viaProxy(url, guarded);
    expect(answer.status).toBe(403);
    expect(guarded.failureFor(url)).toEqual({
      refused: true,
      reason: `resolves to 127.0.0.1, ${NOT_PUBLIC_ADDRESS}`,
    });
    expect(local.hits('/secret')).toBe(before);
  });

  it('refuses private IP literals, IPv4-mapped IPv6 and odd IPv4 spellings', async () => {
    for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]', '0x7f.1', '2130706433']) {
      const url = `http://${host}:${local.port}/secret`;
      expect((await viaProxy(url, guarded)).status, host).toBe(403);
      expect(guarded.failureFor(url)?.refused, host).toBe(true);
    }
    expect(local.hits('/secret')).toBe(0);
  });

  it('connects to the public address it checked, never to the private one in the same answer', async () => {
    // A proxy of its own, so no kept-alive upstream socket from another test is reused.
    const fresh = await BrowserProxy.start(network);
    try {
      dialed.length = 0;
      const session = await fresh.session({ allowPrivate: false });
      const answer = await viaProxy(`http://mixed.example:${publicSite.port}/page`, session);
      expect(answer.status).toBe(200);
      expect(dialed).toEqual([PUBLIC]);
    } finally {
      await fresh.close();
    }
  });

  it('resolves once per request and dials that answer: a rebinding DNS server gets no second look', async () => {
    let lookups = 0;
    const rebinding: ProxyNetwork = {
      // Public on odd lookups, loopback on even ones, as a rebinding attacker's server answers.
      lookup: async () => [{ address: ++lookups % 2 === 1 ? PUBLIC : '127.0.0.1', family: 4 }],
      connect: network.connect,
    };
    const fresh = await BrowserProxy.start(rebinding);
    try {
      dialed.length = 0;
      const session = await fresh.session({ allowPrivate: false });
      const url = `http://rebind.example:${publicSite.port}/page`;
      expect((await viaProxy(url, session)).status).toBe(200);
      expect(lookups).toBe(1);
      expect(dialed).toEqual([PUBLIC]);
      expect((await viaProxy(url, session)).status).toBe(403);
      expect(dialed).toEqual([PUBLIC]);
    } finally {
      await fresh.close();
    }
  });

  it('lets private hosts through a session that allows them', async () => {
    const answer = await viaProxy(`http://private.example:${local.port}/secret`, open);
    expect(answer).toEqual({ status: 200, body: 'internal' });
  });

  it('answers 502 and files the reason when the host cannot be reached', async () => {
    const port = await closedPort('127.0.0.1');
    const refusedUrl = `http://127.0.0.1:${port}/`;
    expect((await viaProxy(refusedUrl, open)).status).toBe(502);
    expect(open.failureFor(refusedUrl)).toEqual({
      refused: false,
      reason: 'connection refused by 127.0.0.1',
    });
    const unknown = 'http://nowhere.example/';
    expect((await viaProxy(unknown, open)).status).toBe(502);
    expect(open.failureFor(unknown)?.reason).toBe('DNS lookup failed for host nowhere.example');
  });

  it('sends a GET again on a new connection when the kept-alive one it went out on was closed by the server', async () => {
    // Answers each connection's first request with keep-alive, and drops the connection without
    // an answer on its second: what a server's idle timeout does to a request that crosses it.
    let connections = 0;
    const server = net.createServer((socket) => {
      connections += 1;
      let requests = 0;
      socket.on('data', (chunk) => {
        for (const _ of chunk.toString('latin1').matchAll(/\r\n\r\n/g)) {
          requests += 1;
          if (requests > 1) {
            socket.resetAndDestroy();
            return;
          }
          socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
        }
      });
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`;
    try {
      expect(await viaProxy(url, open)).toEqual({ status: 200, body: 'ok' });
      // The proxy keeps that connection and sends the next GET on it; the server drops it.
      expect(await viaProxy(url, open)).toEqual({ status: 200, body: 'ok' });
      expect(connections).toBe(2);
      expect(open.failureFor(url)).toBeUndefined();
    } finally {
      server.close();
    }
  });

  it('refuses URLs that are not absolute http', async () => {
    expect((await viaProxy('/relative', open)).status).toBe(400);
    expect((await viaProxy(`https://public.example:${publicSite.port}/page`, open)).status).toBe(400);
  });
});

describe('CONNECT tunnels', () => {
  it('tunnels to a public host', async () => {
    const answer = await tunnel(`public.example:${publicSite.port}`, guarded);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(`host=public.example:${publicSite.port}`);
  });

  it('refuses private names and literals, filing the reason under host and port', async () => {
    const before = local.hits('/secret');
    for (const host of ['private.example', '127.0.0.1', '[::1]', '169.254.169.254']) {
      expect((await tunnel(`${host}:${local.port}`, guarded)).status, host).toBe(403);
    }
    expect(guarded.failureFor(`https://private.example:${local.port}/x`)?.reason).toBe(
      `resolves to 127.0.0.1, ${NOT_PUBLIC_ADDRESS}`,
    );
    expect(guarded.failureFor(`wss://169.254.169.254:${local.port}/`)?.reason).toBe(
      `points at 169.254.169.254, ${NOT_PUBLIC_ADDRESS}`,
    );
    expect(local.hits('/secret')).toBe(before);
  });

  it('refuses malformed targets', async () => {
    for (const target of ['public.example', 'public.example:0', 'user@public.example:443', 'a/b:443']) {
      expect((await tunnel(target, open)).status, target).toBe(400);
    }
  });
});

describe('sessions', () => {
  it('closing a session closes its open tunnels', async () => {
    const session = await proxy.session({ allowPrivate: true });
    const { socket } = await connectTo(`127.0.0.2:${publicSite.port}`, session);
    if (!socket) throw new Error('the tunnel did not open');
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    session.close();
    await closed;
  });

  it('holds one session to MAX_SESSION_SOCKETS sockets, client and upstream counted', async () => {
    const session = await proxy.session({ allowPrivate: true });
    let opened = 0;
    for (let i = 0; i < MAX_SESSION_SOCKETS / 2 + 3; i++) {
      if ((await connectTo(`127.0.0.2:${publicSite.port}`, session)).socket) opened++;
    }
    expect(opened).toBe(MAX_SESSION_SOCKETS / 2);
    // Another session is not affected by this one's cap.
    expect((await tunnel(`127.0.0.2:${publicSite.port}`, open)).status).toBe(200);
    session.close();
  });

  it('refuses WebSocket-style upgrades on plain requests (Chromium tunnels them with CONNECT)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request({
        host: '127.0.0.1',
        port: portOf(open),
        path: `http://public.example:${publicSite.port}/ws`,
        headers: { connection: 'Upgrade', upgrade: 'websocket' },
        agent: false,
      });
      req.on('response', (res) => resolve(res.statusCode ?? 0));
      req.on('upgrade', (res, socket) => {
        socket.destroy();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(501);
    expect(publicSite.hits('/ws')).toBe(0);
  });
});
