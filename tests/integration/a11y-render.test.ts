import net from 'node:net';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAME_SEPARATOR, scannedPageFrom } from '@/lib/a11y/engine/axe-results';
import { BrowserHolder, launchChromium } from '@/lib/a11y/engine/browser';
import { renderPages } from '@/lib/a11y/engine/render';
import type { PageScan, ScannedPage } from '@/lib/a11y/engine/scan';
import { AXE_RUN_ONLY_TAGS } from '@/lib/a11y/report/rules';
import { NOT_PUBLIC_ADDRESS, type ProxyNetwork } from '@/lib/net';
import { hang, type RouteHandler, startServer, type TestServer } from '../support/http-server';

/**
 * The render pass in real Chromium against pages on 127.0.0.1 (the site) and 127.0.0.2 (another
 * host), each page built to make axe report something known. Parity: the renderer's findings
 * equal what AxeBuilder reports when this file runs it itself on the same page, same tags.
 */

const html = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test page</title>${head}</head><body><main>${body}</main></body></html>`;
const page = (body: string, head = '') => ({
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: html(body, head),
});

let site: TestServer;
let other: TestServer;
let varyingWidgetHits = 0;
let browsers: BrowserHolder;
let launched: Browser[] = [];
/** The test's own browser for the reference axe runs. */
let reference: Browser;

const current = () => launched[launched.length - 1] as Browser;

/**
 * The renderer's page at `path`: the document has committed, its blocking script is pending.
 * Chromium can ask for the script before Playwright has heard that the document committed (the
 * page's URL still reads about:blank), so this waits for the commit to be seen.
 */
async function rendererPage(path: string) {
  for (let tries = 0; tries < 250; tries++) {
    const found = current()
      .contexts()
      .flatMap((c) => c.pages())
      .find((p) => p.url().endsWith(path));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('renderer page not found');
}

const crashRenderer: RouteHandler = async () => {
  const target = await rendererPage('/crash-renderer');
  const session = await target.context().newCDPSession(target);
  session.send('Page.crash').catch(() => {});
};

const crashBrowser: RouteHandler = async () => {
  const session = await current().newBrowserCDPSession();
  session.send('Browser.crash').catch(() => {});
};

beforeAll(async () => {
  other = await startServer('127.0.0.2', {
    '/inner': page('<img src="/x.png"><a href="#"></a>'),
    '/landing': page('<h1>Someone else</h1>'),
  });
  site = await startServer('127.0.0.1', {
    '/violations': page(
      '<img src="/a.png"><img src="/b.png"><button></button><input type="text"><p style="color:#aaa;background:#fff">faint</p>',
    ),
    '/clean': page('<h1>Fine</h1><p>Readable text.</p>'),
    '/inner': page('<img src="/c.png"><button></button>'),
    '/frame-same': page('<h1>Outer</h1><iframe id="same" title="inner" src="/inner"></iframe>'),
    '/target-size': page(
      '<p>Controls:</p><div><button style="width:10px;height:10px;padding:0;margin:0;border:0">a</button><button style="width:10px;height:10px;padding:0;margin:0;border:0">b</button></div>',
    ),
    '/contrast-review': page(
      '<p style="color:#777;background-image:url(/bg.png);background-color:#fff">Text over an image</p>',
    ),
    '/busy': page("<h1>Busy</h1><script>addEventListener('load', () => { for (;;) {} });</script>"),
    '/stalled-tracker': page('<h1>Tracked</h1><img src="/never" alt="">'),
    '/never': hang,
    '/hang': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<!doctype html><html><head><title>Forever</title></head><body><p>Still loading');
    },
    '/crash-renderer': page('<script src="/trigger-renderer-crash"></script>'),
    '/trigger-renderer-crash': crashRenderer,
    '/crash-browser': page('<script src="/trigger-browser-crash"></script>'),
    '/trigger-browser-crash': crashBrowser,
    '/gone': { status: 404, headers: { 'content-type': 'text/html' }, body: html('<p>gone</p>') },
    // A page whose policy allows no script at all, and one whose own global `axe` is not axe.
    '/strict-csp': {
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy':
          "default-src 'none'; script-src 'none'; require-trusted-types-for 'script'",
      },
      body: html('<h1>Strict</h1><img src="/d.png"><button></button>'),
    },
    '/own-axe': page(
      '<h1>Own axe</h1><img src="/e.png">',
      '<script>window.axe = { runPartial() { throw new Error("not axe") }, utils: {} }; var axe = window.axe;</script>',
    ),
    // State a page leaves behind (cookie, storage, session storage, window.name, a late write on
    // its way out) and a page that shows an unlabelled image when it finds any of it. Both load a
    // stylesheet the browser may cache.
    '/cached.css': { headers: { 'content-type': 'text/css', 'cache-control': 'max-age=3600' }, body: 'p{}' },
    '/leaves-state': page(
      '<h1>Leaves state</h1>',
      `<link rel="stylesheet" href="/cached.css"><script>
        document.cookie = 'seen=1; max-age=3600'; localStorage.setItem('seen', '1');
        sessionStorage.setItem('seen', '1'); window.name = 'seen';
        addEventListener('pagehide', () => { document.cookie = 'late=1; max-age=3600'; localStorage.setItem('late', '1'); });
      </script>`,
    ),
    '/reads-state': page(
      '<h1>Reads state</h1>',
      `<link rel="stylesheet" href="/cached.css"><script>
        addEventListener('DOMContentLoaded', () => {
          if (document.cookie || localStorage.length || sessionStorage.length || window.name)
            document.querySelector('main').insertAdjacentHTML('beforeend', '<img src="/state.png">');
        });
      </script>`,
    ),
    // The same frames embedded in several pages (a run's frame cache reuses what it can): a static
    // widget, one whose script changes its style sheet on one page only (same markup, different
    // CSSOM), and one whose server answers differently every other time (same URL, other markup).
    '/widget': page('<img src="/w.png"><p>Status: fine</p>'),
    '/styled-widget': page(
      '<p>Styled status</p>',
      `<style>p { color: #111; background: #fff }</style><script>
        if (parent.location.pathname === '/embed-b') document.styleSheets[0].insertRule('p { color: #bbb }', 1);
      </script>`,
    ),
    '/varying-widget': (_req, res) => {
      varyingWidgetHits++;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(html(varyingWidgetHits % 2 === 1 ? '<img src="/v.png">' : '<p>No image</p>'));
    },
    ...Object.fromEntries(
      ['/embed-a', '/embed-b', '/embed-c'].map((path) => [
        path,
        page(
          '<h1>Embeds</h1><iframe id="w" title="w" src="/widget"></iframe>' +
            '<iframe id="s" title="s" src="/styled-widget"></iframe><iframe id="v" title="v" src="/varying-widget"></iframe>',
        ),
      ]),
    ),
  });
  // These name the other host's port, known once it listens.
  site.route(
    '/frame-other',
    page(`<h1>Outer</h1><iframe id="other" title="inner" src="${other.url('/inner')}"></iframe>`),
  );
  site.route('/offsite', { status: 302, headers: { location: other.url('/landing') } });
  browsers = new BrowserHolder(launchChromium, (b) => launched.push(b));
  reference = await launchChromium();
});

afterAll(async () => {
  await browsers?.close();
  await reference?.close();
  await site?.close();
  await other?.close();
});

async function render(paths: string[], options: { pageTimeLimitMs?: number; concurrency?: number } = {}) {
  const scans = new Map<string, PageScan>();
  for await (const scan of renderPages(
    paths.map((p) => site.url(p)),
    { browsers, ...options },
  )) {
    scans.set(new URL(scan.url).pathname, scan);
  }
  expect([...scans.keys()].sort()).toEqual([...paths].sort());
  return scans;
}

function scanned(scan: PageScan | undefined): ScannedPage {
  if (scan?.status !== 'scanned') throw new Error(`not scanned: ${JSON.stringify(scan)}`);
  return scan;
}

/** What axe itself reports on the page: (rule, type, count), passes and inapplicable rule ids. */
async function axeDirectly(url: string) {
  const context = await reference.newContext();
  try {
    const p = await context.newPage();
    await p.goto(url, { waitUntil: 'load' });
    const results = await new AxeBuilder({ page: p }).withTags([...AXE_RUN_ONLY_TAGS]).analyze();
    return {
      findings: [
        ...results.violations.map((r) => `${r.id} violation ${r.nodes.length}`),
        ...results.incomplete.map((r) => `${r.id} incomplete ${r.nodes.length}`),
      ].sort(),
      passes: results.passes.map((r) => r.id).sort(),
      inapplicable: results.inapplicable.map((r) => r.id).sort(),
      // Every field the report keeps (help, help URL, impact, example nodes) as axe gave it here.
      detail: byRule(scannedPageFrom(url, results).findings),
    };
  } finally {
    await context.close();
  }
}

const byRule = (findings: ScannedPage['findings']) =>
  [...findings].sort((a, b) => `${a.rule} ${a.type}`.localeCompare(`${b.rule} ${b.type}`));

const summary = (scan: ScannedPage) => ({
  findings: scan.findings.map((f) => `${f.rule} ${f.type} ${f.count}`).sort(),
  passes: [...scan.passes].sort(),
  inapplicable: [...scan.inapplicable].sort(),
  detail: byRule(scan.findings),
});

const find = (scan: ScannedPage, rule: string, type = 'violation') =>
  scan.findings.find((f) => f.rule === rule && f.type === type);

describe('render pass', () => {
  const scannable = [
    '/violations',
    '/clean',
    '/frame-same',
    '/frame-other',
    '/target-size',
    '/contrast-review',
    '/strict-csp',
    '/own-axe',
  ];
  let scans: Map<string, PageScan>;

  beforeAll(async () => {
    scans = await render(scannable);
  });

  it('reports the known violations with help, impact, counts and example nodes', () => {
    const scan = scanned(scans.get('/violations'));
    const imageAlt = find(scan, 'image-alt');
    expect(imageAlt).toMatchObject({ impact: 'critical', count: 2 });
    expect(imageAlt?.helpUrl).toContain('dequeuniversity.com');
    expect(imageAlt?.help).toBeTruthy();
    expect(imageAlt?.nodes.map((n) => n.snippet)).toEqual(['<img src="/a.png">', '<img src="/b.png">']);
    expect(imageAlt?.nodes[0]?.summary).toContain('Fix any of the following');
    expect(find(scan, 'button-name')?.count).toBe(1);
    expect(find(scan, 'label')?.count).toBe(1);
    expect(find(scan, 'color-contrast')?.count).toBe(1);
    expect(scan.passes).toContain('html-has-lang');
    const request = site.requests.find((r) => r.path === '/violations');
    expect(request?.headers['user-agent']).toMatch(/Chrome\/[\d.]+ .*SitewatchBot\/1\.0/);
    expect(scanned(scans.get('/clean')).findings.filter((f) => f.type === 'violation')).toEqual([]);
  });

  it('checks inside same-origin and cross-origin frames, naming the frame in the selector', () => {
    for (const [path, frameId] of [
      ['/frame-same', 'same'],
      ['/frame-other', 'other'],
    ] as const) {
      const imageAlt = find(scanned(scans.get(path)), 'image-alt');
      expect(imageAlt?.count).toBe(1);
      expect(imageAlt?.nodes[0]?.selector).toBe(`#${frameId}${FRAME_SEPARATOR}img`);
    }
    expect(find(scanned(scans.get('/frame-same')), 'button-name')?.count).toBe(1);
    expect(find(scanned(scans.get('/frame-other')), 'link-name')?.count).toBe(1);
  });

  it('runs target-size (off by default in axe) and keeps needs-review results apart', () => {
    expect(find(scanned(scans.get('/target-size')), 'target-size')?.count).toBe(2);
    const review = scanned(scans.get('/contrast-review'));
    expect(find(review, 'color-contrast', 'incomplete')?.count).toBe(1);
    expect(find(review, 'color-contrast')).toBeUndefined();
  });

  it('checks a page whose policy allows no script, and one with a global `axe` of its own', () => {
    expect(find(scanned(scans.get('/strict-csp')), 'image-alt')?.count).toBe(1);
    expect(find(scanned(scans.get('/strict-csp')), 'button-name')?.count).toBe(1);
    expect(find(scanned(scans.get('/own-axe')), 'image-alt')?.count).toBe(1);
  });

  it('lists exactly what axe-core itself reports on each page, in every frame, with the same tags', async () => {
    for (const path of scannable) {
      const own = summary(scanned(scans.get(path)));
      expect(own.findings.length + own.passes.length).toBeGreaterThan(0);
      expect(own, path).toEqual(await axeDirectly(site.url(path)));
    }
  });
});

describe('pages rendered one after another in a lane', () => {
  it('renders each page as a first visit: nothing the page before left (cookies, storage, window.name) reaches it', async () => {
    const before = site.hits('/cached.css');
    const paths = ['/reads-state', '/leaves-state', '/reads-state', '/leaves-state', '/reads-state'];
    const scans: ScannedPage[] = [];
    for await (const scan of renderPages(
      paths.map((p) => site.url(p)),
      { browsers, concurrency: 1 },
    ))
      scans.push(scanned(scan));
    expect(scans.map((scan) => new URL(scan.url).pathname)).toEqual(paths);
    // A visit with nothing left behind: the same findings every time.
    const reads = scans.filter((scan) => scan.url.endsWith('/reads-state')).map(summary);
    expect(reads[1]).toEqual(reads[0]);
    expect(reads[2]).toEqual(reads[0]);
    expect(find(scans[2] as ScannedPage, 'image-alt')).toBeUndefined();
    // The same context served all five (its HTTP cache kept the stylesheet), reset between pages.
    expect(site.hits('/cached.css')).toBe(before + 1);
  });

  it('keeps a run’s contexts between its batches (runKey), never for another run', async () => {
    const batch = (runKey: string) =>
      (async () => {
        for await (const scan of renderPages([site.url('/reads-state')], {
          browsers,
          concurrency: 1,
          runKey,
        }))
          expect(scanned(scan).url).toBe(site.url('/reads-state'));
      })();
    const before = site.hits('/cached.css');
    await batch('run-a');
    await batch('run-a');
    expect(site.hits('/cached.css')).toBe(before + 1);
    await batch('run-b');
    expect(site.hits('/cached.css')).toBe(before + 2);
  });

  it('opens a new context after a page that hung, and scans the next page', async () => {
    const scans = await render(['/busy', '/clean'], { concurrency: 1, pageTimeLimitMs: 8_000 });
    expect(scans.get('/busy')).toMatchObject({ status: 'not-scanned' });
    expect(scanned(scans.get('/clean')).passes.length).toBeGreaterThan(0);
  });
});

describe('frames embedded on every page of a run', () => {
  it('reports each frame’s own findings on every page, and reuses none where the frame differs', async () => {
    const paths = ['/embed-a', '/embed-b', '/embed-c'];
    const scans: ScannedPage[] = [];
    varyingWidgetHits = 0;
    for await (const scan of renderPages(
      paths.map((p) => site.url(p)),
      { browsers, concurrency: 1, runKey: 'embeds' },
    ))
      scans.push(scanned(scan));
    const selectors = (scan: ScannedPage, rule: string) =>
      (find(scan, rule)?.nodes ?? []).map((node) => node.selector).sort();
    const [a, b, c] = scans as [ScannedPage, ScannedPage, ScannedPage];
    // The static widget: its missing alt on every page.
    for (const scan of scans) expect(selectors(scan, 'image-alt')).toContain(`#w${FRAME_SEPARATOR}img`);
    // Same markup, a style sheet changed by script on /embed-b alone.
    expect(selectors(a, 'color-contrast')).toEqual([]);
    expect(selectors(b, 'color-contrast')).toEqual([`#s${FRAME_SEPARATOR}p`]);
    expect(selectors(c, 'color-contrast')).toEqual([]);
    // Same URL, other markup every other time.
    expect(selectors(a, 'image-alt')).toContain(`#v${FRAME_SEPARATOR}img`);
    expect(selectors(b, 'image-alt')).not.toContain(`#v${FRAME_SEPARATOR}img`);
    expect(selectors(c, 'image-alt')).toContain(`#v${FRAME_SEPARATOR}img`);
    // And each page is what axe itself reports on it, every field kept.
    varyingWidgetHits = 0;
    expect(summary(a)).toEqual(await axeDirectly(site.url('/embed-a')));
    expect(summary(c)).toEqual(summary(a));
  });
});

describe('a consumer that stops early', () => {
  it('starts no new page once the consumer has stopped', async () => {
    const paths = ['/clean', '/target-size', '/violations', '/contrast-review'];
    const before = new Map(paths.map((p) => [p, site.hits(p)]));
    for await (const scan of renderPages(
      paths.map((p) => site.url(p)),
      { concurrency: 1 },
    )) {
      expect(scan.status).toBe('scanned');
      break;
    }
    // The first page gave the result; the second may have started as it came back; no later one.
    expect(site.hits('/clean')).toBe((before.get('/clean') ?? 0) + 1);
    expect(site.hits('/contrast-review')).toBe(before.get('/contrast-review'));
  });
});

describe('pages that cannot be scanned', () => {
  it('records a page that hangs loading or while checked with the time limit, and scans one whose tracker stalls', async () => {
    const scans = await render(['/hang', '/busy', '/stalled-tracker'], { pageTimeLimitMs: 8_000 });
    expect(scans.get('/hang')).toEqual({
      url: site.url('/hang'),
      status: 'not-scanned',
      reason: 'did not finish loading within 8 s',
    });
    // Its endless loop held the main thread when the time ran out (lib/a11y/engine/sandbox.ts).
    expect(scans.get('/busy')).toMatchObject({
      status: 'not-scanned',
      reason: expect.stringMatching(
        /^kept the browser busy for [2-8] s without a break \(an endless loop\?\) and was stopped$/,
      ),
    });
    expect(scanned(scans.get('/stalled-tracker')).passes).toContain('document-title');
  });

  it('records an off-site redirect with its target and an error status', async () => {
    const scans = await render(['/offsite', '/gone']);
    expect(scans.get('/offsite')).toMatchObject({
      status: 'not-scanned',
      reason: `redirected off the site to ${other.url('/landing')}`,
    });
    expect(scans.get('/gone')).toMatchObject({
      status: 'not-scanned',
      reason: 'answered HTTP 404 when rendered',
    });
  });

  it('records a renderer crash and scans the pages around it', async () => {
    const scans = await render(['/violations', '/crash-renderer', '/clean'], { concurrency: 1 });
    expect(scans.get('/crash-renderer')).toMatchObject({
      status: 'not-scanned',
      reason: "the page crashed the browser's renderer",
    });
    expect(scanned(scans.get('/clean')).passes.length).toBeGreaterThan(0);
  });

  it('restarts the browser after it crashes and scans the pages after it', async () => {
    launched = launched.slice(-1);
    const scans = await render(['/violations', '/crash-browser', '/clean', '/target-size'], {
      concurrency: 2,
    });
    expect(scans.get('/crash-browser')).toMatchObject({
      status: 'not-scanned',
      reason: 'the browser crashed while rendering the page (it was restarted for the next pages)',
    });
    for (const path of ['/violations', '/clean', '/target-size'])
      expect(scanned(scans.get(path)).url).toBe(site.url(path));
    expect(launched.length).toBeGreaterThan(1);
    // The crashing page's second try may be the last thing the pass did (the other pages are done
    // first when they render fast): the browser it took down is relaunched for the next pages.
    const after = await render(['/clean']);
    expect(scanned(after.get('/clean')).url).toBe(site.url('/clean'));
    expect(current().isConnected()).toBe(true);
  });

  it('refuses loopback pages outside development and tests', async () => {
    const scans: PageScan[] = [];
    for await (const scan of renderPages([site.url('/clean')], { browsers, allowPrivate: false }))
      scans.push(scan);
    expect(scans).toEqual([
      {
        url: site.url('/clean'),
        status: 'not-scanned',
        reason: expect.stringContaining('must not point at a loopback address (127.0.0.1)'),
      },
    ]);
  });
});

/**
 * The proxy's stand-in network: `private.example` resolves to the site's 127.0.0.1 (a public-looking
 * name with a private answer), `public.example` to a public address that is dialed at 127.0.0.2.
 * Chromium cannot resolve either name itself, so a page that loads at all went through the proxy.
 */
const PUBLIC_ADDRESS = '93.184.215.14';
const mappedNetwork: ProxyNetwork = {
  async lookup(hostname) {
    const answers: Record<string, string> = {
      'private.example': '127.0.0.1',
      'public.example': PUBLIC_ADDRESS,
    };
    const address = answers[hostname];
    if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return [{ address, family: 4 }];
  },
  connect: (address, port) => net.connect({ host: address === PUBLIC_ADDRESS ? '127.0.0.2' : address, port }),
};

describe("the network guard (every request through lib/net's proxy)", () => {
  let mapped: BrowserHolder;
  const privateUrl = (path: string) => `http://private.example:${site.port}${path}`;
  const publicUrl = (path: string) => `http://public.example:${other.port}${path}`;

  beforeAll(() => {
    mapped = new BrowserHolder(launchChromium, undefined, mappedNetwork);
    site.route('/pixel.png', { headers: { 'content-type': 'image/png' }, body: '' });
    site.route('/private-frame', page('<p>internal</p>'));
    other.route('/to-private', { status: 302, headers: { location: privateUrl('/clean') } });
    other.route(
      '/reaches-private',
      page(
        `<h1>Public</h1><img src="${privateUrl('/pixel.png')}" alt=""><iframe title="x" src="${privateUrl('/private-frame')}"></iframe>`,
      ),
    );
  });

  afterAll(async () => {
    await mapped?.close();
  });

  async function renderMapped(urls: string[], allowPrivate: boolean) {
    const scans = new Map<string, PageScan>();
    for await (const scan of renderPages(urls, { browsers: mapped, allowPrivate })) scans.set(scan.url, scan);
    return scans;
  }

  it('refuses a page whose public-looking name resolves to a loopback address, without reaching it', async () => {
    const before = site.hits('/clean');
    const scans = await renderMapped([privateUrl('/clean')], false);
    expect(scans.get(privateUrl('/clean'))).toEqual({
      url: privateUrl('/clean'),
      status: 'not-scanned',
      reason: `refused: ${privateUrl('/clean')} resolves to 127.0.0.1, ${NOT_PUBLIC_ADDRESS}`,
    });
    expect(site.hits('/clean')).toBe(before);
  });

  it('refuses a redirect hop to a private address', async () => {
    const before = site.hits('/clean');
    const scans = await renderMapped([publicUrl('/to-private')], false);
    expect(scans.get(publicUrl('/to-private'))).toMatchObject({
      status: 'not-scanned',
      reason: `refused: ${privateUrl('/clean')} resolves to 127.0.0.1, ${NOT_PUBLIC_ADDRESS}`,
    });
    expect(other.hits('/to-private')).toBeGreaterThan(0);
    expect(site.hits('/clean')).toBe(before);
  });

  it('scans a public page while its requests to private addresses fail, and loads them when private is allowed', async () => {
    const url = publicUrl('/reaches-private');
    const refused = await renderMapped([url], false);
    expect(scanned(refused.get(url)).passes).toContain('document-title');
    expect(site.hits('/pixel.png')).toBe(0);
    expect(site.hits('/private-frame')).toBe(0);

    const allowed = await renderMapped([url, privateUrl('/violations')], true);
    expect(scanned(allowed.get(url)).passes).toContain('document-title');
    expect(find(scanned(allowed.get(privateUrl('/violations'))), 'image-alt')?.count).toBe(2);
    expect(site.hits('/pixel.png')).toBeGreaterThan(0);
    expect(site.hits('/private-frame')).toBeGreaterThan(0);
  });

  it('fails closed for a context opened without a proxy session', async () => {
    const browser = await mapped.browser();
    const context = await browser.newContext();
    const before = site.hits('/clean');
    try {
      const p = await context.newPage();
      const outcome = await p.goto(site.url('/clean')).then(
        (response) => response?.status(),
        (err: Error) => err.message,
      );
      // The browser-wide proxy is the port that belongs to no session: 403 to everything.
      expect(outcome === 403 || String(outcome).includes('ERR_'), String(outcome)).toBe(true);
    } finally {
      await context.close();
    }
    expect(site.hits('/clean')).toBe(before);
  });
});
