/**
 * The render pass, browser side: each page URL is loaded in headless Chromium in a fresh context,
 * axe-core runs in every frame with the `runOnly` tags of `rules.ts`, and a `PageScan` comes out per
 * URL, in the order the pages finish. A page that hangs, crashes, redirects off the site or cannot
 * be loaded comes out `not-scanned` with its reason; nothing a page does fails the pass.
 *
 * Loading: `domcontentloaded` within the page's time limit, then `load` for at most
 * `LOAD_WAIT_MS`; axe then runs even if some subresource (a third-party tracker, a stalled image)
 * never finished. `networkidle` is never awaited: analytics beacons keep a page from ever idling.
 *
 * Network safety: the pages are written by strangers, so Chromium never touches the network
 * itself. Each page's context goes out through its own session of `lib/net`'s proxy (see
 * `lib/net/proxy.ts`), which resolves every host (redirect hops, frames, subresources, WebSockets
 * included), refuses private, loopback and link-local answers unless `ALLOW_PRIVATE_NETWORK`, and
 * connects to the address it checked. A page URL that is private as written is refused before any
 * browser work (`unreachableTargetReason`, the check the site's URL passed when saved); a
 * navigation the proxy refused comes out `refused: <url> resolves to <address>, ...`; refused
 * subresources simply fail, as they would for a visitor whose network blocks them.
 */
import type { RunOptions } from 'axe-core';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { config } from '@/lib/config';
import { type ProxySession, unreachableTargetReason } from '@/lib/net';
import { parseUrl } from '@/lib/net/url';
import { scannedPageFrom } from './axe-results';
import { analyzePage } from './axe-run';
import { BrowserHolder, renderUserAgent } from './browser';
import { AXE_RUN_ONLY_TAGS } from './rules';
import type { PageScan, UnscannedPage } from './scan';

/**
 * Pages rendered at once, each in its own context of the one browser. On a 2-core machine 4 keeps
 * both cores busy while some pages wait on the network; more only queues work in the renderer.
 */
export const DEFAULT_RENDER_CONCURRENCY = 4;

/**
 * Per page, load and axe together. A real page loads and is checked in a few seconds; 30 s leaves
 * room for a slow origin and a large DOM, and bounds what a hanging page costs the pass.
 */
export const PAGE_TIME_LIMIT_MS = 30_000;

/**
 * How long to wait for `load` once the DOM is ready. Past it the page is checked as it stands:
 * what is still loading then is almost always third-party (trackers, ads, chat widgets), and the
 * page's own markup, which axe checks, is already there.
 */
export const LOAD_WAIT_MS = 5_000;

/**
 * axe's options for every page. `resultTypes`: passes and inapplicable rules are kept as ids only
 * (axe-results.ts), so axe lists one element for them instead of building a selector and HTML
 * snippet for every element that passed, which was most of a large page's check; the rules run and
 * their verdicts are the same, and violations and needs-review keep every element. Selectors are
 * kept (example nodes carry them); `ancestry`, `xpath` and `elementRef` stay at axe's off.
 */
const AXE_OPTIONS = {
  runOnly: { type: 'tag', values: [...AXE_RUN_ONLY_TAGS] },
  resultTypes: ['violations', 'incomplete'],
} satisfies RunOptions;

export interface RenderOptions {
  /** Pages rendered at once. Default `DEFAULT_RENDER_CONCURRENCY`. */
  concurrency?: number;
  /** Default `PAGE_TIME_LIMIT_MS`. */
  pageTimeLimitMs?: number;
  /**
   * The browser to render with. Without one the pass launches its own and closes it at the end;
   * a worker rendering batch after batch passes its own to launch Chromium once.
   */
  browsers?: BrowserHolder;
  /** Let private and loopback hosts through. Default `config().ALLOW_PRIVATE_NETWORK`. */
  allowPrivate?: boolean;
}

/** Why a page's render stopped before axe's results came back. */
class RenderStopped extends Error {
  constructor(
    readonly reason: string,
    /** The browser itself went away: the page may be innocent and is worth one more try. */
    readonly browserLost = false,
  ) {
    super(reason);
  }
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** Yields one `PageScan` per URL, as pages finish. */
export async function* renderPages(
  urls: readonly string[],
  options: RenderOptions = {},
): AsyncGenerator<PageScan> {
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_RENDER_CONCURRENCY);
  const ownBrowser = !options.browsers;
  const browsers = options.browsers ?? new BrowserHolder();
  const done: PageScan[] = [];
  let wake: (() => void) | null = null;
  let next = 0;
  let abandoned = false;
  const retries = new SerialQueue();

  const worker = async () => {
    while (!abandoned && next < urls.length) {
      const url = urls[next++] as string;
      done.push(await renderWithRetry(browsers, url, options, retries));
      wake?.();
    }
  };
  const workers = Promise.all(Array.from({ length: Math.min(concurrency, urls.length) }, worker));
  let finished = false;
  void workers.finally(() => {
    finished = true;
    wake?.();
  });

  try {
    while (!finished || done.length > 0) {
      const scan = done.shift();
      if (scan) {
        yield scan;
        continue;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = null;
    }
    await workers;
  } finally {
    // A consumer that stops early: the pages in flight finish, no new one starts.
    abandoned = true;
    if (ownBrowser) await workers.finally(() => browsers.close());
  }
}

/**
 * A page whose browser went away while it rendered is tried once more on the relaunched browser:
 * with several pages in flight, only one of them crashed it. Retries run one at a time, so an
 * innocent page's second try never shares the browser with the culprit's; a page that takes the
 * browser down twice is recorded as the crash.
 */
async function renderWithRetry(
  browsers: BrowserHolder,
  url: string,
  options: RenderOptions,
  retries: SerialQueue,
): Promise<PageScan> {
  const first = await renderPage(browsers, url, options);
  if (!(first instanceof RenderStopped)) return first;
  if (!first.browserLost) return notScanned(url, first.reason);
  const second = await retries.run(() => renderPage(browsers, url, options));
  return second instanceof RenderStopped ? notScanned(url, second.reason) : second;
}

/** Runs tasks one after another, in the order they were queued. */
class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.catch(() => {});
    return result;
  }
}

function notScanned(url: string, reason: string): UnscannedPage {
  return { url, status: 'not-scanned', reason };
}

async function renderPage(
  browsers: BrowserHolder,
  url: string,
  options: RenderOptions,
): Promise<PageScan | RenderStopped> {
  const target = parseUrl(url);
  if (!target || (target.protocol !== 'http:' && target.protocol !== 'https:')) {
    return notScanned(url, 'not an http(s) URL');
  }
  const allowPrivate = options.allowPrivate ?? config().ALLOW_PRIVATE_NETWORK;
  const refused = unreachableTargetReason(target, { allowPrivate });
  if (refused) return notScanned(url, `refused: the page's address ${refused}`);

  const limitMs = options.pageTimeLimitMs ?? PAGE_TIME_LIMIT_MS;
  let phase: 'loading' | 'checking' = 'loading';
  let context: BrowserContext | null = null;
  let session: ProxySession | null = null;
  let stop: (reason: RenderStopped) => void = () => {};
  const stopped = new Promise<never>((_, reject) => {
    stop = reject;
  });
  const timer = setTimeout(() => {
    stop(
      new RenderStopped(
        phase === 'loading'
          ? `did not finish loading within ${seconds(limitMs)}`
          : `the accessibility checks did not finish within ${seconds(limitMs)}`,
      ),
    );
  }, limitMs);
  let browser: Browser | null = null;
  let settled = false;
  const onDisconnect = () =>
    stop(
      new RenderStopped(
        'the browser crashed while rendering the page (it was restarted for the next pages)',
        true,
      ),
    );

  const work = async () => {
    browser = await browsers.browser();
    browser.on('disconnected', onDisconnect);
    if (!browser.isConnected()) onDisconnect();
    session = await browsers.proxySession({ allowPrivate });
    const opened = await browser.newContext({
      userAgent: await renderUserAgent(browser),
      proxy: session.settings,
    });
    // The time limit may have struck while the context opened: nobody else would close it.
    if (settled) {
      await opened.close().catch(() => {});
      session.close();
      return null;
    }
    context = opened;
    const page = await context.newPage();
    // The main frame's latest request, redirect hops included: the one to explain a failed load with.
    let navigation = url;
    page.on('request', (request) => {
      if (isMainFrameNavigation(page, request)) navigation = request.url();
    });
    page.on('crash', () => stop(new RenderStopped("the page crashed the browser's renderer")));

    let response: Awaited<ReturnType<Page['goto']>>;
    try {
      response = await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 0 });
    } catch (err) {
      throw new RenderStopped(proxyFailure(session, navigation) ?? `could not be loaded (${firstLine(err)})`);
    }
    // A plain-http hop the proxy refused or could not reach answers with the proxy's 403 or 502,
    // which says more than where the hop was going.
    const failed =
      response && PROXY_STATUSES.has(response.status()) ? proxyFailure(session, response.url()) : null;
    if (failed) throw new RenderStopped(failed);
    checkStillOnSite(page, target);
    if (response && response.status() >= 400) {
      throw new RenderStopped(`answered HTTP ${response.status()} when rendered`);
    }
    await page.waitForLoadState('load', { timeout: LOAD_WAIT_MS }).catch(() => {});
    checkStillOnSite(page, target);

    phase = 'checking';
    const results = await analyzePage(page, AXE_OPTIONS);
    // A script may have navigated away while axe ran: the results would then be another page's.
    checkStillOnSite(page, target);
    return scannedPageFrom(url, results);
  };

  try {
    // `work` only answers null once the race is over, so the race never yields it.
    return (await Promise.race([work(), stopped])) as PageScan;
  } catch (err) {
    if (err instanceof RenderStopped) return err;
    // Anything else is the browser's side failing (a launch that did not start, a protocol error).
    return new RenderStopped(`could not be checked (${firstLine(err)})`);
  } finally {
    settled = true;
    clearTimeout(timer);
    stopped.catch(() => {});
    (browser as Browser | null)?.off('disconnected', onDisconnect);
    await (context as BrowserContext | null)?.close().catch(() => {});
    (session as ProxySession | null)?.close();
  }
}

/** Another hostname than the page's is another site: its results must not be filed as this page's. */
function checkStillOnSite(page: Page, target: URL): void {
  const now = parseUrl(page.url());
  if (now && now.hostname !== target.hostname) {
    throw new RenderStopped(`redirected off the site to ${now.href}`);
  }
}

/** The statuses the proxy answers a plain-http request it could not forward with. */
const PROXY_STATUSES = new Set([403, 502]);

/** Why the proxy did not let the page's request to `url` through, as a not-scanned reason. */
function proxyFailure(session: ProxySession | null, url: string): string | null {
  const failure = session?.failureFor(url);
  if (!failure) return null;
  return failure.refused ? `refused: ${url} ${failure.reason}` : `could not be loaded (${failure.reason})`;
}

function isMainFrameNavigation(page: Page, request: Request): boolean {
  try {
    return request.isNavigationRequest() && request.frame() === page.mainFrame();
  } catch {
    return false; // a service worker's request has no frame
  }
}

function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return (message.split('\n')[0] ?? message).trim();
}
