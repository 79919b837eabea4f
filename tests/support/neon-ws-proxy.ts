import { createServer, type IncomingMessage } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { pathToFileURL } from 'node:url';
import { createWebSocketStream, type WebSocket, WebSocketServer } from 'ws';

/**
 * A WebSocket-to-TCP proxy speaking what Neon's own `wsproxy` speaks: the serverless driver opens
 * `ws://<proxy>?address=<host>:<port>` and sends the Postgres wire protocol in binary frames, which
 * are relayed byte for byte to a TCP connection to that address, and back. With `NEON_WS_PROXY`
 * pointing the driver here, the project's Neon path (lib/db/client.ts) runs against a plain local
 * Postgres, as Neon documents for local development; this is how CI tests that path.
 *
 * Only the addresses in `allow` are reached (anything else is refused at the upgrade with 403):
 * the proxy is no open relay. It listens on loopback only. Backpressure goes both ways (the
 * WebSocket is a stream piped into the socket and the socket into it), so a large result set does
 * not pile up in the proxy's memory.
 */
export type NeonWsProxy = {
  /** `host:port/v1`: the value of NEON_WS_PROXY (the driver appends `?address=...`). */
  address: string;
  port: number;
  /** Connections relayed now, the most at once since the last `resetPeak()`, and in all. */
  stats: () => { open: number; peak: number; total: number };
  resetPeak: () => void;
  close: () => Promise<void>;
};

export async function startNeonWsProxy(options: { allow: string[]; port?: number }): Promise<NeonWsProxy> {
  const allowed = new Set(options.allow.map(normalizeAddress));
  const counts = { open: 0, peak: 0, total: 0 };
  const pairs = new Set<{ ws: WebSocket; tcp: Socket }>();

  const http = createServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain' }).end('WebSocket upgrade required\n');
  });
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });

  http.on('upgrade', (req, socket, head) => {
    const target = targetOf(req);
    if (!target || !allowed.has(normalizeAddress(target))) {
      socket.end('HTTP/1.1 403 Forbidden\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => relay(ws, target));
  });

  function relay(ws: WebSocket, target: string): void {
    const { host, port } = splitAddress(target);
    const tcp = connect({ host, port });
    tcp.setNoDelay(true);
    const pair = { ws, tcp };
    pairs.add(pair);
    counts.open += 1;
    counts.total += 1;
    counts.peak = Math.max(counts.peak, counts.open);
    const stream = createWebSocketStream(ws);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      pairs.delete(pair);
      counts.open -= 1;
      tcp.destroy();
      stream.destroy();
    };
    // Either side closing or failing ends both: Postgres sees the client gone (and rolls back what
    // it had open, releasing its locks), the driver sees the server gone.
    stream.on('error', end).on('close', end);
    tcp.on('error', end).on('close', end);
    stream.pipe(tcp);
    tcp.pipe(stream);
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (http.address() as AddressInfo).port;

  return {
    address: `127.0.0.1:${port}/v1`,
    port,
    stats: () => ({ ...counts }),
    resetPeak: () => {
      counts.peak = counts.open;
    },
    close: async () => {
      for (const { ws, tcp } of pairs) {
        tcp.destroy();
        ws.terminate();
      }
      wss.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function targetOf(req: IncomingMessage): string | undefined {
  const address = new URL(req.url ?? '/', 'http://proxy').searchParams.get('address');
  return address ?? undefined;
}

function splitAddress(address: string): { host: string; port: number } {
  const at = address.lastIndexOf(':');
  const host = address.slice(0, at).replace(/^\[(.*)\]$/, '$1');
  return { host, port: Number(address.slice(at + 1)) };
}

function normalizeAddress(address: string): string {
  const { host, port } = splitAddress(address);
  return `${host.toLowerCase()}:${port}`;
}

/** `host:port` of a postgres:// URL, as the driver names it in `?address=`. */
export function addressOfUrl(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 5432}`;
}

// `npx tsx tests/support/neon-ws-proxy.ts [port]`: a proxy for DATABASE_URL (or TEST_DATABASE_URL)
// to run the server or a script on the Neon path by hand (NEON_WS_PROXY=127.0.0.1:<port>/v1).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const url = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) {
    console.error('set DATABASE_URL (or TEST_DATABASE_URL) to the Postgres server the proxy reaches');
    process.exit(1);
  }
  const proxy = await startNeonWsProxy({ allow: [addressOfUrl(url)], port: Number(process.argv[2] ?? 0) });
  console.log(`NEON_WS_PROXY=${proxy.address}`);
  const stop = () => void proxy.close().then(() => process.exit(0));
  process.once('SIGINT', stop).once('SIGTERM', stop);
}
