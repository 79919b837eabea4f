/**
 * The render pass's way out: an HTTP forward proxy on 127.0.0.1 that Chromium is pointed at, so the
 * pages a stranger writes reach the network only through `lib/net`'s address rule.
 *
 * Chromium resolves names itself, so nothing that only sees URLs (request interception) can tell
 * that a public name answers with 10.0.0.5, and redirect hops are not intercepted at all. Through
 * a proxy Chromium resolves nothing: every request, redirect hop, iframe, fetch and WebSocket
 * (Chromium tunnels `ws:` and `https:` alike with CONNECT) arrives here as a host and port. The
 * proxy resolves the host, keeps only the addresses `reachableAddressesOf` allows (unless the
 * session allows private targets, as `ALLOW_PRIVATE_NETWORK` does for lib/net), and connects to
 * the address it checked: there is no second resolution for a rebinding DNS server to answer.
 *
 * - Plain `http:` requests are forwarded (hop-by-hop headers dropped, bodies piped, never
 *   buffered); upstream connections are kept alive per checked address.
 * - CONNECT opens a TCP tunnel to the checked address; TLS stays end to end between Chromium and
 *   the site, so certificate checks are Chromium's own.
 * - Anything else (an `Upgrade` on a plain request, a non-http URL) is refused.
 *
 * One listener per session: each browser context gets a session with its own port on 127.0.0.1,
 * which carries the context's policy and collects what failed (so the render pass can say why a
 * page's navigation did not load), and which stops listening when the session closes. The port is
 * the session; there are no proxy credentials. Credentials cost more than they protected: Playwright
 * answers a proxy's auth challenge by intercepting every request of the context through Node and
 * switching the HTTP cache off, which halved the render pass's speed. What a credential-free port
 * leaves open is nothing a local process lacks: the port only reaches what its session allows
 * (public addresses, unless the session allows private ones, as `ALLOW_PRIVATE_NETWORK` does for
 * every lib/net request), which any local process can reach directly; it listens on loopback only,
 * so it is not a relay for other machines; and it lives only as long as one page's context. The
 * proxy's own address (`BrowserProxy.url`, the browser-wide setting) belongs to no session and
 * refuses everything, so a context opened without a session fails closed.
 *
 * Caps keep a hostile page from exhausting the server: connections, header sizes, and idle
 * timeouts on every socket (see the constants).
 */
import dns, { type LookupAddress } from 'node:dns';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { reachableAddressesOf } from './address';
import { BlockedAddressError, NOT_PUBLIC_ADDRESS, toNetError } from './errors';
import { parseUrl } from './url';

/**
 * Client connections at once, across every session's port. Chromium opens at most 32 per proxy and
 * context, and the render pass runs a handful of contexts; past this, new connections are dropped.
 */
export const MAX_PROXY_CONNECTIONS = 512;
/**
 * Sockets (client and upstream) one session may hold, so one hostile page cannot take the whole
 * proxy from the pages rendered beside it. Chromium itself keeps a context to 32 proxy connections
 * plus its WebSockets.
 */
export const MAX_SESSION_SOCKETS = 128;
/** Request and response header block limit: generous for cookie-heavy sites, bounded for hostile ones. */
export const MAX_HEADER_BYTES = 64 * 1024;
/** Time to open the upstream TCP connection. */
export const UPSTREAM_CONNECT_TIMEOUT_MS = 10_000;
/** A socket with no traffic either way for this long is closed (the page's own limit is 30 s). */
export const PROXY_IDLE_TIMEOUT_MS = 30_000;
/** Methods a request may be sent again with when its kept-alive connection turned out closed. */
const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** What a write to a kept-alive connection the server has just closed fails with. */
const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/** Time for a client to send a request's headers. */
const HEADERS_TIMEOUT_MS = 10_000;

/** Failures remembered per session (one per host and port). */
const MAX_FAILURES_KEPT = 1_000;

/** How the proxy reaches the network. Tests stand in for DNS and the internet with loopback. */
export interface ProxyNetwork {
  /** Every address of a name, as `dns.lookup(name, { all: true })` answers. */
  lookup(hostname: string): Promise<LookupAddress[]>;
  /** A TCP connection to an address that has already been checked. */
  connect(address: string, port: number): Socket;
}

export const systemNetwork: ProxyNetwork = {
  lookup: (hostname) => dns.promises.lookup(hostname, { all: true }),
  connect: (address, port) => net.connect({ host: address, port }),
};

/** Why a request of a session did not reach its host. */
export interface ProxyFailure {
  /** The address rule refused the host (as opposed to DNS, connection or timeout failures). */
  refused: boolean;
  /** Plain words: "resolves to 127.0.0.1, not a public internet address", "connection refused by x". */
  reason: string;
}

/** Playwright's `proxy` option for a browser context. */
export interface ContextProxySettings {
  server: string;
  /** `<-loopback>` removes Chromium's built-in bypass, so loopback targets go through the proxy too. */
  bypass: string;
}

export interface ProxySession {
  /** The session's own port: pass as the context's `proxy`. */
  readonly settings: ContextProxySettings;
  /** The last failure of a request to `url`'s host and port in this session, if any. */
  failureFor(url: string): ProxyFailure | undefined;
  /** Ends the session: its port stops listening and its open connections are closed. */
  close(): void;
}

interface Session {
  allowPrivate: boolean;
  failures: Map<string, ProxyFailure>;
  sockets: Set<Duplex>;
}

const HOP_BY_HOP = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

export class BrowserProxy {
  private readonly servers = new Set<http.Server>();
  private readonly clients = new Set<Socket>();
  private readonly agent: http.Agent;
  private closed = false;

  private constructor(
    readonly url: string,
    private readonly network: ProxyNetwork,
  ) {
    // Upstream keep-alive is keyed by the checked address (it is the `host` every request uses).
    this.agent = new http.Agent({ keepAlive: true, maxTotalSockets: MAX_PROXY_CONNECTIONS });
    this.agent.createConnection = (options) =>
      this.network.connect(options.host as string, Number(options.port));
  }

  /**
   * Starts a proxy. Its `url` is a port on 127.0.0.1 that belongs to no session and refuses every
   * request (403, and CONNECT closed): the browser-wide setting, so a context without a session
   * reaches nothing.
   */
  static async start(network: ProxyNetwork = systemNetwork): Promise<BrowserProxy> {
    const refusing = await listen();
    const proxy = new BrowserProxy(urlOf(refusing), network);
    proxy.adopt(refusing);
    refusing.on('request', (_req, res: ServerResponse) => respondText(res, 403, 'no render session'));
    refusing.on('connect', (_req, socket: Duplex) => endRaw(socket, 403, 'Forbidden'));
    return proxy;
  }

  /**
   * A session for one browser context, on a port of its own: `allowPrivate` lets private and
   * loopback hosts through.
   */
  async session(options: { allowPrivate: boolean }): Promise<ProxySession> {
    if (this.closed) throw new Error('the browser proxy is closed');
    const state: Session = { allowPrivate: options.allowPrivate, failures: new Map(), sockets: new Set() };
    const server = await listen();
    this.adopt(server);
    server.on('request', (req, res) => this.onRequest(req, res, state));
    server.on('connect', (req, socket, head) => this.onConnect(req, socket, head, state));
    if (this.closed) server.close();
    return {
      settings: { server: urlOf(server), bypass: '<-loopback>' },
      failureFor: (url) => {
        const key = authorityOf(url);
        return key ? state.failures.get(key) : undefined;
      },
      close: () => {
        server.close();
        server.closeAllConnections();
        this.servers.delete(server);
        for (const socket of state.sockets) socket.destroy();
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    const closing = [...this.servers].map(
      (server) => new Promise<void>((resolve) => server.close(() => resolve())),
    );
    this.servers.clear();
    for (const socket of this.clients) socket.destroy();
    this.agent.destroy();
    await Promise.all(closing);
  }

  /** The caps and handlers every listener shares; client connections counted across all of them. */
  private adopt(server: http.Server): void {
    this.servers.add(server);
    server.on('connection', (socket: Socket) => {
      if (this.clients.size >= MAX_PROXY_CONNECTIONS) {
        socket.destroy();
        return;
      }
      this.clients.add(socket);
      socket.once('close', () => this.clients.delete(socket));
    });
    server.on('upgrade', (_req, socket: Duplex) => endRaw(socket, 501, 'Not Implemented'));
    server.on('clientError', (_err, socket: Duplex) => socket.destroy());
  }

  /**
   * The address to connect to for `hostname`: an IP literal as is, a name through DNS; under the
   * address rule unless the session allows private targets.
   */
  private async resolve(hostname: string, session: Session): Promise<string> {
    const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
    const family = net.isIP(bare);
    const addresses = family ? [{ address: bare, family }] : await this.network.lookup(bare);
    const usable = session.allowPrivate ? addresses : reachableAddressesOf(bare, addresses);
    const first = usable[0];
    if (!first) throw Object.assign(new Error(`no address for ${bare}`), { code: 'ENOTFOUND' });
    return first.address;
  }

  /** Counts a socket against its session; false (and the socket destroyed) past the cap. */
  private track(session: Session, socket: Duplex): boolean {
    if (session.sockets.has(socket)) return true; // a keep-alive connection's next request
    if (session.sockets.size >= MAX_SESSION_SOCKETS) {
      socket.destroy();
      return false;
    }
    session.sockets.add(socket);
    socket.once('close', () => session.sockets.delete(socket));
    return true;
  }

  private onRequest(req: IncomingMessage, res: ServerResponse, session: Session): void {
    if (!this.track(session, req.socket)) return;
    const target = parseUrl(req.url ?? '');
    if (target?.protocol !== 'http:') {
      respondText(res, 400, 'only absolute http: URLs are forwarded (https: goes through CONNECT)');
      return;
    }
    const port = Number(target.port || 80);
    const key = `${target.hostname}:${port}`;
    this.resolve(target.hostname, session).then(
      (address) => this.forward(req, res, target, address, port, session, key),
      (err) => {
        const failure = failureOf(err, target.hostname);
        record(session, key, failure);
        respondText(res, failure.refused ? 403 : 502, failure.reason);
      },
    );
  }

  private forward(
    req: IncomingMessage,
    res: ServerResponse,
    target: URL,
    address: string,
    port: number,
    session: Session,
    key: string,
    retried = false,
  ): void {
    const bodyless = BODYLESS_METHODS.has(req.method ?? '') && !hasBody(req);
    const upstream = http.request({
      host: address,
      port,
      method: req.method,
      path: `${target.pathname}${target.search}`,
      headers: endToEnd(req.rawHeaders),
      setHost: false, // Chromium's Host header names the site; the connection names the address
      agent: this.agent,
      maxHeaderSize: MAX_HEADER_BYTES,
      timeout: PROXY_IDLE_TIMEOUT_MS,
    });
    upstream.on('timeout', () => upstream.destroy(Object.assign(new Error('idle'), { code: 'ETIMEDOUT' })));
    upstream.on('response', (answer) => {
      session.failures.delete(key); // the host answered: an earlier failure no longer explains anything
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.rawHeaders));
      answer.pipe(res);
    });
    upstream.on('error', (err) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // A kept-alive connection the server closed just as this request went out on it: the server
      // never saw the request. Sent again, once, on a new connection, as Chromium does on its own
      // connections; only requests without a body, which can be sent twice as they are.
      if (bodyless && !retried && upstream.reusedSocket && STALE_SOCKET_CODES.has(errorCode(err))) {
        this.forward(req, res, target, address, port, session, key, true);
        return;
      }
      const failure = failureOf(err, target.hostname);
      record(session, key, failure);
      respondText(res, 502, failure.reason);
    });
    // A client gone mid-response: drop the upstream socket rather than return it half-read.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    if (bodyless) {
      // Nothing to pipe: a retry would wait forever on a request stream that has already ended.
      req.resume();
      upstream.end();
    } else {
      req.pipe(upstream);
    }
  }

  private onConnect(req: IncomingMessage, client: Duplex, head: Buffer, session: Session): void {
    client.on('error', () => client.destroy());
    if (!this.track(session, client)) return;
    const target = tunnelTarget(req.url ?? '');
    if (!target) {
      endRaw(client, 400, 'Bad Request');
      return;
    }
    const key = `${target.hostname}:${target.port}`;
    const fail = (err: unknown) => {
      const failure = failureOf(err, target.hostname);
      record(session, key, failure);
      if (failure.refused) endRaw(client, 403, 'Forbidden');
      else endRaw(client, 502, 'Bad Gateway');
    };
    this.resolve(target.hostname, session).then((address) => {
      if (client.destroyed) return;
      const upstream = this.network.connect(address, target.port);
      if (!this.track(session, upstream)) {
        client.destroy();
        return;
      }
      let open = false;
      upstream.setTimeout(UPSTREAM_CONNECT_TIMEOUT_MS, () => {
        if (open) upstream.destroy();
        else
          upstream.destroy(Object.assign(new Error('connect timeout'), { code: 'UND_ERR_CONNECT_TIMEOUT' }));
      });
      upstream.once('connect', () => {
        open = true;
        session.failures.delete(key);
        upstream.setTimeout(PROXY_IDLE_TIMEOUT_MS);
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', (err) => {
        if (open) client.destroy();
        else fail(err);
      });
      upstream.on('close', () => client.destroy());
      client.on('close', () => upstream.destroy());
    }, fail);
  }
}

/** An HTTP server on a free port of 127.0.0.1 with the proxy's header and idle limits. */
async function listen(): Promise<http.Server> {
  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES });
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = 0; // uploads are bounded by the idle timeout instead
  server.timeout = PROXY_IDLE_TIMEOUT_MS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return server;
}

function urlOf(server: http.Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** `host:port` of a CONNECT request, canonicalized by the URL parser (IDN, odd IPv4 forms). */
function tunnelTarget(authority: string): { hostname: string; port: number } | null {
  const written = /^(\[[0-9a-fA-F:.]+\]|[^\s/?#@:[\]]+):(\d{1,5})$/.exec(authority);
  const parsed = written ? parseUrl(`http://${written[1]}`) : null;
  const port = Number(written?.[2]);
  if (!parsed || port < 1 || port > 65_535) return null;
  return { hostname: parsed.hostname, port };
}

/** The key failures are filed under: `hostname:port` with the scheme's default port filled in. */
function authorityOf(url: string): string | null {
  const parsed = parseUrl(url);
  if (!parsed) return null;
  const defaults: Record<string, number> = { 'http:': 80, 'ws:': 80, 'https:': 443, 'wss:': 443 };
  const port = parsed.port ? Number(parsed.port) : defaults[parsed.protocol];
  return port ? `${parsed.hostname}:${port}` : null;
}

/**
 * Files a failure for the render pass to explain a navigation with. A page that fails thousands
 * of requests to different hosts fills no more than `MAX_FAILURES_KEPT` entries.
 */
function record(session: Session, key: string, failure: ProxyFailure): void {
  if (session.failures.size < MAX_FAILURES_KEPT || session.failures.has(key))
    session.failures.set(key, failure);
}

function failureOf(err: unknown, hostname: string): ProxyFailure {
  if (err instanceof BlockedAddressError) {
    return {
      refused: true,
      reason:
        err.address === err.host
          ? `points at ${err.address}, ${NOT_PUBLIC_ADDRESS}`
          : `resolves to ${err.address}, ${NOT_PUBLIC_ADDRESS}`,
    };
  }
  return { refused: false, reason: toNetError(err, hostname).detail };
}

function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

function errorCode(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? '';
}

/** Raw header pairs without the hop-by-hop ones (and those the Connection header names). */
function endToEnd(raw: readonly string[]): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]?.toLowerCase() === 'connection') {
      for (const token of (raw[i + 1] ?? '').split(',')) named.add(token.trim().toLowerCase());
    }
  }
  const kept: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (!HOP_BY_HOP.has(name) && !named.has(name)) kept.push(raw[i] as string, raw[i + 1] as string);
  }
  return kept;
}

function respondText(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** Answers on a socket node no longer parses (after CONNECT or Upgrade) and closes it. */
function endRaw(socket: Duplex, status: number, message: string): void {
  if (socket.destroyed) return;
  socket.end(`HTTP/1.1 ${status} ${message}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
}
