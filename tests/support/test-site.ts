import type { IncomingMessage, ServerResponse } from 'node:http';
import { closedPort, hang, type Routes, startServer, type TestServer } from './http-server';

/**
 * Local websites with known answers for crawl tests and benchmarks. The site under test listens on
 * 127.0.0.1; "other hosts" are 127.0.0.2 (a reachable external site) and 127.0.0.3 (nothing listens:
 * connection refused). The crawl whitelist is the hostname, so any port on 127.0.0.1 is internal.
 */

const html = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test page</title>${head}</head><body>${body}</body></html>`;

const page = (body: string, head = ''): Routes[string] => ({
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: html(body, head),
});

/** Answers `first` to the first request of a path and `then` to every later one. */
function firstThen(
  first: (res: ServerResponse) => void,
  then: (res: ServerResponse) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  let seen = 0;
  return (_req, res) => {
    seen++;
    if (seen === 1) first(res);
    else then(res);
  };
}

export interface KnownSite {
  site: TestServer;
  external: TestServer;
  /** Origin of a host that refuses connections. */
  unreachable: string;
  /** The root URL to register. */
  rootUrl: string;
  /** Settings to register the site with (so exclusions and stripped parameters are exercised). */
  excludePaths: string[];
  stripParams: string[];
  close(): Promise<void>;
}

/**
 * The known-answer site. Every feature the crawler must get right has a page or link here; the
 * expected report lives next to the tests (tests/integration/crawl.test.ts).
 */
export async function startKnownSite(): Promise<KnownSite> {
  const external = await startServer('127.0.0.2', {
    '/ok': { headers: { 'content-type': 'text/html' }, body: 'fine' },
    '/missing': { status: 404 },
    '/forbidden': { status: 403 },
    '/linkedin': { status: 999 },
    '/slow': hang,
    '/rate-limited': firstThen(
      (res) => {
        res.writeHead(429, { 'retry-after': '1' });
        res.end();
      },
      (res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok now');
      },
    ),
  });
  const unreachable = `http://127.0.0.3:${await closedPort('127.0.0.3')}`;

  const site = await startServer('127.0.0.1');
  const S = site.origin;
  const E = external.origin;
  const routes: Routes = {
    '/robots.txt': {
      headers: { 'content-type': 'text/plain' },
      // Our own group applies, so the `*` group's rule does not: /everyone-else/ is crawled.
      body: [
        'User-agent: SitewatchBot',
        'Disallow: /no-bots/',
        '',
        'User-agent: *',
        'Disallow: /everyone-else/',
        '',
        `Sitemap: ${S}/sitemap-main.xml`,
      ].join('\n'),
    },
    '/sitemap-main.xml': {
      headers: { 'content-type': 'application/xml' },
      body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${S}/orphan</loc></url><url><loc>${S}/</loc></url></urlset>`,
    },
    '/': page(
      [
        '<nav><a href="/about#team">About</a> <a href="/about">About again</a></nav>',
        '<a href="/missing" id="m1" class="bad link" title="Missing page">Missing</a>',
        '<a href="/gone">Gone</a>',
        '<a href="/redirect-ok">Old about</a>',
        '<a href="/redirect-broken">Moved</a>',
        '<a href="/loop-a">Loop</a>',
        '<a href="/docs/">Docs</a>',
        '<a href="/throttled">Busy</a>',
        '<a href="/slow-page">Slow</a>',
        '<a href="/products?id=1&utm_source=news">Product</a>',
        '<a href="/products?utm_source=mail&id=1#reviews">Product reviews</a>',
        '<a href="/private/secret?x=1#top">Private</a>',
        '<a href="/no-bots/secret">No bots</a>',
        '<a href="/everyone-else/missing">Everyone else</a>',
        '<img src="/img/missing.png" alt="Logo">',
        `<a href="${E}/ok">External ok</a>`,
        `<a href="${E}/missing">External missing</a>`,
        `<a href="${E}/forbidden">Bot wall</a>`,
        `<a href="${E}/linkedin">LinkedIn</a>`,
        `<a href="${E}/rate-limited">Rate limited</a>`,
        `<a href="${E}/slow">External slow</a>`,
        `<a href="${unreachable}/">Unreachable</a>`,
        '<a href="mailto:hello@example.com">Mail</a> <a href="tel:+100">Call</a> <a href="javascript:void(0)">JS</a>',
        '<a href="#top">Top</a>',
      ].join('\n'),
    ),
    '/about': page('<a href="/">Home</a> <p><a href="/missing">Still missing</a></p>'),
    '/redirect-ok': { status: 301, headers: { location: '/about' } },
    '/redirect-broken': { status: 302, headers: { location: '/missing-after-redirect' } },
    '/loop-a': { status: 301, headers: { location: '/loop-b' } },
    '/loop-b': { status: 301, headers: { location: '/loop-a' } },
    '/gone': { status: 410 },
    '/docs/': page('<a href="guide">Guide</a> <a href="../v1/intro">Intro</a>', '<base href="/docs/v2/">'),
    '/docs/v1/intro': page('<p>Intro</p>'),
    '/orphan': page('<a href="/orphan-broken">Broken from orphan</a>'),
    '/products': page('<p>Product</p>'),
    '/slow-page': hang,
    '/throttled': firstThen(
      (res) => {
        res.writeHead(429, { 'retry-after': '1' });
        res.end();
      },
      (res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(html('<a href="/from-throttled-missing">After the wait</a>'));
      },
    ),
  };
  for (const [key, route] of Object.entries(routes)) site.route(key, route);

  return {
    site,
    external,
    unreachable,
    rootUrl: `${S}/`,
    excludePaths: ['/private/**'],
    stripParams: ['utm_source'],
    close: async () => {
      await Promise.all([site.close(), external.close()]);
    },
  };
}

export interface SyntheticSiteOptions {
  pages: number;
  /** Links from each page to other pages (besides the tree links that make every page reachable). */
  extraLinks?: number;
  /** Every `brokenEvery`-th page links to a missing page of its own. 0: none. */
  brokenEvery?: number;
  /** Optional external origin every page links to (one distinct URL per 100 pages). */
  externalOrigin?: string;
  host?: string;
  /** Each page answers after this long (ms), so requests overlap as on a real server. */
  delayMs?: number;
}

export interface SyntheticSite {
  server: TestServer;
  rootUrl: string;
  /** Known answers: pages that parse (root included) and the broken targets with their one source. */
  expected: { pages: number; broken: { target: string; source: string }[] };
  /** The most page requests the site was answering at once. */
  peakInFlight(): number;
  close(): Promise<void>;
}

/** The HTML of page `i` of a synthetic site (see startSyntheticSite). */
export function syntheticPage(i: number, options: SyntheticSiteOptions): string {
  const { pages, extraLinks = 8, brokenEvery = 50, externalOrigin } = options;
  const links: string[] = ['<nav><a href="/">Home</a> <a href="/p/0">First</a></nav>'];
  for (const child of [2 * i + 1, 2 * i + 2])
    if (child < pages) links.push(`<a href="/p/${child}">Page ${child}</a>`);
  for (let k = 1; k <= extraLinks; k++)
    links.push(`<a href="/p/${(i * 7919 + k * 104729) % pages}">Related ${k}</a>`);
  if (brokenEvery > 0 && i % brokenEvery === 0) links.push(`<a href="/missing/${i}">Missing ${i}</a>`);
  if (externalOrigin) links.push(`<a href="${externalOrigin}/ext/${Math.floor(i / 100)}">Elsewhere</a>`);
  return html(`<h1>Page ${i}</h1><p>${'Lorem ipsum dolor sit amet. '.repeat(20)}</p>${links.join('\n')}`);
}

/**
 * A generated site of `pages` HTML pages (/p/0 ... /p/N-1) plus the root. Page i links to its
 * binary-tree children 2i+1 and 2i+2 (so everything is reachable), to `extraLinks` pseudo-random
 * pages, to a shared nav, and every `brokenEvery`-th page to /missing/i (404). Pages are rendered
 * on request, so a 20,000-page site costs no memory in the test process.
 */
export async function startSyntheticSite(options: SyntheticSiteOptions): Promise<SyntheticSite> {
  const { pages, brokenEvery = 50 } = options;
  let inFlight = 0;
  let peak = 0;
  const server = await startServer(options.host ?? '127.0.0.1', {
    '/robots.txt': { status: 404 },
    '/sitemap.xml': { status: 404 },
    '/': { headers: { 'content-type': 'text/html' }, body: html('<a href="/p/0">Start</a>') },
    '*': async (req, res) => {
      const match = /^\/p\/(\d+)$/.exec((req.url ?? '').split('?')[0] ?? '');
      const i = match ? Number(match[1]) : -1;
      if (i < 0 || i >= pages) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
        return;
      }
      inFlight++;
      peak = Math.max(peak, inFlight);
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      inFlight--;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(syntheticPage(i, options));
    },
  });
  const broken: { target: string; source: string }[] = [];
  if (brokenEvery > 0) {
    for (let i = 0; i < pages; i += brokenEvery) {
      broken.push({ target: `${server.origin}/missing/${i}`, source: `${server.origin}/p/${i}` });
    }
  }
  return {
    server,
    rootUrl: `${server.origin}/`,
    expected: { pages: pages + 1, broken },
    peakInFlight: () => peak,
    close: () => server.close(),
  };
}
