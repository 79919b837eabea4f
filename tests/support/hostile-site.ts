import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { htmlPage } from './crawl';
import { startServer, type TestServer } from './http-server';

/**
 * A site whose pages attack the browser that renders them (issue 23 item 1), beside ordinary pages
 * and pages that do in moderation what the hostile ones overdo. Every page is linked from `/`, so a
 * crawl finds them all; the attacks run only in a browser (the crawler runs no script), so the
 * crawl itself stays quick. The endless download and the WebSocket server count what reached them.
 *
 *   const site = await startHostileSite();
 *   site.server.url('/')            // the crawl's root
 *   site.downloadBytes()            // bytes the endless download managed to send
 *   site.openSockets()              // WebSockets still open on the server side
 *   await site.close();
 */

/** Pages that cross a bound of the sandbox (lib/a11y/engine/sandbox.ts): each must end not scanned. */
export const HOSTILE_PAGES = {
  /** Clicks a `download` link to a response that never ends. */
  '/endless-download': `<main><h1>Download</h1><script>
      const a = document.createElement('a'); a.href = '/files/endless.bin'; a.download = 'endless.bin';
      document.body.append(a); a.click();
    </script></main>`,
  /** Two hundred `download` links clicked at once. */
  '/download-storm': `<main><h1>Downloads</h1><script>
      for (let i = 0; i < 200; i++) {
        const a = document.createElement('a'); a.href = '/files/small-' + i + '.txt'; a.download = 'f' + i + '.txt';
        document.body.append(a); a.click();
      }
    </script></main>`,
  /** 4 GB in 64 MB buffers, a byte written in every 4 KB memory page so the memory is really taken. */
  '/allocate': `<main><h1>Memory</h1><script>
      const kept = [];
      for (let i = 0; i < 64; i++) {
        const buffer = new Uint8Array(64 * 1024 * 1024);
        for (let j = 0; j < buffer.length; j += 4096) buffer[j] = 1;
        kept.push(buffer);
      }
      document.title = 'allocated ' + kept.length * 64 + ' MB';
    </script></main>`,
  /** An endless loop in the body: the document never finishes parsing. */
  '/endless-loop': '<main><h1>Loop</h1><script>for (;;) {}</script></main>',
  /** Fifty windows at once. */
  '/popup-storm': `<main><h1>Popups</h1><script>
      for (let i = 0; i < 50; i++) window.open('/plain?popup=' + i);
    </script></main>`,
  /** Alerts without end. */
  '/dialog-storm': `<main><h1>Dialogs</h1><script>
      for (;;) alert('Hello again');
    </script></main>`,
  /** A million elements appended once the document is parsed. */
  '/million-nodes': `<main><h1>Nodes</h1><script>
      addEventListener('DOMContentLoaded', () => {
        const fragment = document.createDocumentFragment();
        for (let i = 0; i < 1_000_000; i++) fragment.append(document.createElement('i'));
        document.querySelector('main').append(fragment);
      });
    </script></main>`,
  /**
   * Just over the elements axe is run on, as plain markup, hidden: nothing to lay out, so the
   * element bound (not the script bound) is what stops it on any machine.
   */
  '/huge-dom': `<main><h1>Elements</h1><div hidden>${'<i></i>'.repeat(60_000)}</div></main>`,
  /**
   * A hundred WebSockets to the socket server (its URL filled in by startHostileSite). Chromium
   * opens a host's WebSockets one handshake at a time, so a flood is seen as it connects; the page
   * keeps loading for 3 s (a slow image) so that it does while the page renders on any machine.
   */
  '/websocket-flood': `<main><h1>Sockets</h1><img src="/slow-image.png" alt=""><script>
      window.sockets = [];
      for (let i = 0; i < 100; i++) window.sockets.push(new WebSocket('WS_URL'));
    </script></main>`,
  /** Leaves for another page of the same site as soon as it runs. */
  '/navigates-away': `<main><h1>Leaving</h1><script>location.replace('/plain?from=navigates-away');</script></main>`,
} as const;

/** Pages that do once what the hostile ones overdo: each must be scanned. */
export const TOLERATED_PAGES = {
  '/plain': '<main><h1>Plain</h1><p>Nothing to see.</p></main>',
  '/one-dialog': `<main><h1>One dialog</h1><script>alert('Welcome');</script></main>`,
  '/one-popup': `<main><h1>One popup</h1><script>window.open('/plain?popup');</script></main>`,
  /** Registers a service worker that would answer every later request of the origin with its own page. */
  '/service-worker': `<main><h1>Worker</h1><script>
      navigator.serviceWorker.register('/sw.js').catch(() => {});
    </script></main>`,
  '/one-websocket': `<main><h1>Live</h1><script>window.socket = new WebSocket('WS_URL');</script></main>`,
  '/image-missing-alt': '<main><h1>Image</h1><img src="/photo.png"></main>',
} as const;

const SERVICE_WORKER = `self.addEventListener('fetch', (event) => {
  event.respondWith(new Response('<!doctype html><title>hijacked</title><img src="/hijacked.png">', { headers: { 'content-type': 'text/html' } }));
});`;

export interface HostileSite {
  server: TestServer;
  /** Bytes `/files/endless.bin` sent before its connection closed. */
  downloadBytes(): number;
  /** WebSocket connections the socket server accepted, and those still open. */
  sockets(): { accepted: number; open: number };
  close(): Promise<void>;
}

export async function startHostileSite(host = '127.0.0.1'): Promise<HostileSite> {
  const sockets = new WebSocketServer({ host, port: 0 });
  await new Promise<void>((resolve) => sockets.once('listening', () => resolve()));
  let accepted = 0;
  sockets.on('connection', (socket) => {
    accepted += 1;
    // A flood of messages the other way, as a hostile page's own server would send.
    const flood = setInterval(() => socket.send('x'.repeat(1024)), 10);
    socket.on('close', () => clearInterval(flood));
    socket.on('error', () => {});
  });
  const wsUrl = `ws://${host}:${(sockets.address() as AddressInfo).port}/`;

  let downloadBytes = 0;
  const pages = { ...HOSTILE_PAGES, ...TOLERATED_PAGES };
  const server = await startServer(host, {
    '/': htmlPage(
      `<main><h1>Hostile site</h1><ul>${Object.keys(pages)
        .map((path) => `<li><a href="${path}">${path}</a></li>`)
        .join('')}</ul></main>`,
      'Hostile site',
    ),
    ...Object.fromEntries(
      Object.entries(pages).map(([path, body]) => [path, htmlPage(body.replaceAll('WS_URL', wsUrl), path)]),
    ),
    '/slow-image.png': { delayMs: 3_000, headers: { 'content-type': 'image/png' }, body: '' },
    '/sw.js': { headers: { 'content-type': 'text/javascript' }, body: SERVICE_WORKER },
    '/files/endless.bin': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 1);
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) downloadBytes += chunk.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    },
    '*': (req, res) => {
      const path = req.url ?? '';
      if (path.startsWith('/files/')) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('a small file');
        return;
      }
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    },
  });

  return {
    server,
    downloadBytes: () => downloadBytes,
    sockets: () => ({ accepted, open: sockets.clients.size }),
    close: async () => {
      for (const client of sockets.clients) client.terminate();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
      await server.close();
    },
  };
}
