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
 * Network safety: Chromium resolves names itself, so `lib/net`'s address check cannot sit under
 * it. Every request the page makes goes through `context.route`, which refuses hosts that are
 * private as written (IP literals in private, loopback, link-local... ranges and private names, the
 * check `unreachableTargetReason` makes; `ALLOW_PRIVATE_NETWORK` lets them through). Remaining gap:
 * a public name whose DNS answer is a private address is not caught, and neither is a redirect a
 * routed request follows (Playwright does not route redirect hops). Follow-up: pin Chromium's
 * resolution with `--host-resolver-rules` fed from `lib/net`'s guarded lookup, or send the browser
 * through a local proxy that connects with `lib/net`.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { config } from '@/lib/config';
import { unreachableTargetReason } from '@/lib/net';
import { parseUrl } from '@/lib/net/url';
import { scannedPageFrom } from './axe-results';
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
    const opened = await browser.newContext({ userAgent: await renderUserAgent(browser) });
    // The time limit may have struck while the context opened: nobody else would close it.
    if (settled) {
      await opened.close().catch(() => {});
      return null;
    }
    context = opened;
    const blocked = new Map<string, string>();
    await context.route('**/*', (route) => guardRequest(route, allowPrivate, blocked));
    const page = await context.newPage();
    page.on('crash', () => stop(new RenderStopped("the page crashed the browser's renderer")));

    let response: Awaited<ReturnType<Page['goto']>>;
    try {
      response = await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 0 });
    } catch (err) {
      const reason = blocked.get(url) ?? blocked.values().next().value;
      throw new RenderStopped(reason ? `refused: ${reason}` : `could not be loaded (${firstLine(err)})`);
    }
    checkStillOnSite(page, target);
    if (response && response.status() >= 400) {
      throw new RenderStopped(`answered HTTP ${response.status()} when rendered`);
    }
    await page.waitForLoadState('load', { timeout: LOAD_WAIT_MS }).catch(() => {});
    checkStillOnSite(page, target);

    phase = 'checking';
    const results = await new AxeBuilder({ page }).withTags([...AXE_RUN_ONLY_TAGS]).analyze();
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
  }
}

/** Another hostname than the page's is another site: its results must not be filed as this page's. */
function checkStillOnSite(page: Page, target: URL): void {
  const now = parseUrl(page.url());
  if (now && now.hostname !== target.hostname) {
    throw new RenderStopped(`redirected off the site to ${now.href}`);
  }
}

/** Refuses requests to hosts that are private as written; remembers why, by URL. */
async function guardRequest(
  route: Route,
  allowPrivate: boolean,
  blocked: Map<string, string>,
): Promise<void> {
  const url = parseUrl(route.request().url());
  const reason =
    url && (url.protocol === 'http:' || url.protocol === 'https:')
      ? unreachableTargetReason(url, { allowPrivate })
      : null;
  if (!reason) {
    await route.continue().catch(() => {});
    return;
  }
  if (route.request().isNavigationRequest()) blocked.set(route.request().url(), `${url?.href} ${reason}`);
  await route.abort('blockedbyclient').catch(() => {});
}

function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return (message.split('\n')[0] ?? message).trim();
}
