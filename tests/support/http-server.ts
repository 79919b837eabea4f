import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Real HTTP servers for tests. Bind them to 127.0.0.1, 127.0.0.2, ... to stand in for different
 * hosts (Linux routes all of 127/8 to loopback).
 *
 *   const site = await startServer('127.0.0.1', {
 *     '/': { body: '<a href="/a">a</a>', headers: { 'content-type': 'text/html' } },
 *     '/old': { status: 301, headers: { location: '/new' } },
 *     'POST /hook': async (req, res) => { res.end(await readRequestBody(req)); },
 *     '*': (req, res) => { res.statusCode = 404; res.end(); },   // fallback (default: 404)
 *   });
 *   await httpRequest({ url: site.url('/old') });
 *   expect(site.requests).toContainEqual(expect.objectContaining({ method: 'GET', path: '/old' }));
 *   await site.close();
 */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

export interface StaticRoute {
  status?: number;
  headers?: Record<string, string | number | string[]>;
  body?: string | Buffer;
  /** Wait this long before answering (timeouts, slow hosts). */
  delayMs?: number;
}

/**
 * Keys are `"/path"` (any method) or `"METHOD /path"`, matched against the pathname; the query
 * string is ignored by matching but visible to handlers via `req.url`. `"*"` is the fallback.
 */
export type Routes = Record<string, RouteHandler | StaticRoute>;

export interface RecordedRequest {
  method: string;
  /** Path with query string, as sent. */
  path: string;
  headers: http.IncomingHttpHeaders;
}

export interface TestServer {
  /** `http://host:port` with no trailing slash. */
  origin: string;
  host: string;
  port: number;
  /** Absolute URL for a path on this server; `url()` is the origin plus `/`. */
  url(path?: string): string;
  /** Every request received, in arrival order. */
  requests: RecordedRequest[];
  /** How many requests hit this pathname (any method unless given). */
  hits(pathname: string, method?: string): number;
  /** Replace or add routes while the server runs. */
  route(key: string, route: RouteHandler | StaticRoute): void;
  close(): Promise<void>;
}

export async function readRequestBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function sendStatic(res: ServerResponse, route: StaticRoute): void {
  res.statusCode = route.status ?? 200;
  for (const [name, value] of Object.entries(route.headers ?? {})) res.setHeader(name, value);
  res.end(route.body ?? '');
}

const notFound: StaticRoute = { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' };

export async function startServer(
  host: string,
  routes: Routes = {},
  options: { port?: number } = {},
): Promise<TestServer> {
  const table = new Map(Object.entries(routes));
  const requests: RecordedRequest[] = [];

  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    const method = req.method ?? 'GET';
    requests.push({ method, path, headers: req.headers });
    const pathname = path.split('?')[0] ?? '/';
    const route = table.get(`${method} ${pathname}`) ?? table.get(pathname) ?? table.get('*') ?? notFound;
    const run = async () => {
      if (typeof route === 'function') {
        await route(req, res);
        return;
      }
      if (route.delayMs) await new Promise((resolve) => setTimeout(resolve, route.delayMs));
      if (!res.destroyed) sendStatic(res, route);
    };
    run().catch((err: unknown) => {
      if (!res.headersSent) {
        res.statusCode = 500;
        res.end(String(err));
      } else {
        res.destroy();
      }
    });
  });
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    origin,
    host,
    port,
    url: (path = '/') => new URL(path, origin).href,
    requests,
    hits: (pathname, method) =>
      requests.filter((r) => (r.path.split('?')[0] ?? '') === pathname && (!method || r.method === method))
        .length,
    route: (key, route) => {
      table.set(key, route);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive sockets would otherwise hold close() open until they time out.
        server.closeAllConnections();
      }),
  };
}

/** A port on `host` that nothing listens on: connecting to it is refused. */
export async function closedPort(host = '127.0.0.1'): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Handler that accepts the request and never answers (until the server closes). */
export const hang: RouteHandler = () => {};
