/**
 * The render pass, browser side: each page URL is loaded in headless Chromium, axe-core runs in
 * every frame with the `runOnly` tags of `rules.ts`, and a `PageScan` comes out per URL, in the
 * order the pages finish. A page that hangs, crashes, redirects off the site or cannot be loaded
 * comes out `not-scanned` with its reason; nothing a page does fails the pass.
 *
 * Workers: `concurrency` lanes (lib/a11y/lane.ts), each a browser context with one tab in which
 * its pages render one after another, reset between pages so each renders as a first visit. The
 * lanes serve one call, or with `runKey` the calls of one run (its batches), never another run.
 *
 * Loading: `domcontentloaded` within the page's time limit, then `load` for at most
 * `LOAD_WAIT_MS`; axe then runs even if some subresource (a third-party tracker, a stalled image)
 * never finished. `networkidle` is never awaited: analytics beacons keep a page from ever idling.
 *
 * Network safety: the pages are written by strangers, so Chromium never touches the network
 * itself. Each lane's context goes out through its own session of `lib/net`'s proxy (see
 * `lib/net/proxy.ts`), which resolves every host (redirect hops, frames, subresources, WebSockets
 * included), refuses private, loopback and link-local answers unless `ALLOW_PRIVATE_NETWORK`, and
 * connects to the address it checked. A page URL that is private as written is refused before any
 * browser work (`unreachableTargetReason`, the check the site's URL passed when saved); a
 * navigation the proxy refused comes out `refused: <url> resolves to <address>, ...`; refused
 * subresources simply fail, as they would for a visitor whose network blocks them.
 */
import type { RunOptions } from 'axe-core';
import type { Browser, Page, Request } from 'playwright-core';
import { config } from '@/lib/config';
import { type ProxySession, unreachableTargetReason } from '@/lib/net';
import { parseUrl } from '@/lib/net/url';
import { scannedPageFrom } from './axe-results';
import { BrowserHolder } from './browser';
import { FrameCache } from './frame-cache';
import { Lane, lanePoolOf } from './lane';
import { AXE_RUN_ONLY_TAGS } from './rules';
import type { PageScan, UnscannedPage } from './scan';

/**
 * Pages rendered at once, each lane in its own context of the one browser. On a 2-core machine 4
 * keeps both cores busy while some pages wait on the network; more only queues work in the renderer.
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
  /**
   * The run these pages belong to (the pass's run id): the lanes are parked in `browsers`' pool
   * when the call ends and taken again by the next call with the same key, so the batches of one
   * run keep their contexts warm. Without it the lanes close with the call.
   */
  runKey?: string;
}

/** What one page's render needs besides the caller's options. */
interface PageOptions extends RenderOptions {
  /** The run's cache of frame results (lib/a11y/frame-cache.ts). */
  frames: FrameCache;
}

/** Why a page's render stopped before axe's results came back. */
class RenderStopped extends Error {
  constructor(
    readonly reason: string,
    /**
     * How the lane was left: `answered` when the page answered with something not to check (an
     * error status, a redirect off the site, a refused or failed navigation) and the tab is in a
     * known state, so the lane is reset for the next page as after any page; `stuck` when the page
     * hung or crashed, so the lane's context is discarded; `browser-lost` when the browser itself
     * went away (the page may be innocent and is worth one more try).
     */
    readonly left: 'answered' | 'stuck' | 'browser-lost' = 'answered',
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

  const allowPrivate = options.allowPrivate ?? config().ALLOW_PRIVATE_NETWORK;
  // A lane's proxy session carries `allowPrivate`: lanes are parked per run and per that setting.
  const pool = options.runKey && !ownBrowser ? lanePoolOf(browsers) : null;
  const poolKey = `${allowPrivate ? 'private' : 'public'} ${options.runKey}`;
  const parked = pool?.take(poolKey) ?? [];
  const frames = pool?.frameCache(poolKey) ?? new FrameCache();
  const kept: Lane[] = [];
  const worker = async () => {
    const lane = parked.pop() ?? new Lane(browsers, allowPrivate);
    try {
      while (!abandoned && next < urls.length) {
        const url = urls[next++] as string;
        done.push(await renderWithRetry(lane, url, { ...options, frames }, retries));
        wake?.();
      }
    } finally {
      if (pool && lane.isOpen) kept.push(lane);
      else await lane.discard();
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
    await workers.catch(() => {});
    // Lanes the workers did not need (a batch smaller than the last) are kept too.
    pool?.park(poolKey, [...kept, ...parked]);
    if (ownBrowser) await browsers.close();
  }
}

/**
 * A page whose browser went away while it rendered is tried once more on the relaunched browser:
 * with several pages in flight, only one of them crashed it. Retries run one at a time, so an
 * innocent page's second try never shares the browser with the culprit's; a page that takes the
 * browser down twice is recorded as the crash.
 */
async function renderWithRetry(
  lane: Lane,
  url: string,
  options: PageOptions,
  retries: SerialQueue,
): Promise<PageScan> {
  const first = await renderPage(lane, url, options);
  if (!(first instanceof RenderStopped)) return first;
  if (first.left !== 'browser-lost') return notScanned(url, first.reason);
  const second = await retries.run(() => renderPage(lane, url, options));
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

async function renderPage(lane: Lane, url: string, options: PageOptions): Promise<PageScan | RenderStopped> {
  const target = parseUrl(url);
  if (!target || (target.protocol !== 'http:' && target.protocol !== 'https:')) {
    return notScanned(url, 'not an http(s) URL');
  }
  const refused = unreachableTargetReason(target, { allowPrivate: lane.allowPrivate });
  if (refused) return notScanned(url, `refused: the page's address ${refused}`);

  const limitMs = options.pageTimeLimitMs ?? PAGE_TIME_LIMIT_MS;
  let phase: 'opening' | 'loading' | 'checking' = 'opening';
  let stop: (reason: RenderStopped) => void = () => {};
  const stopped = new Promise<never>((_, reject) => {
    stop = reject;
  });
  const expired = {
    opening: `the browser did not open a page within ${seconds(limitMs)}`,
    loading: `did not finish loading within ${seconds(limitMs)}`,
    checking: `the accessibility checks did not finish within ${seconds(limitMs)}`,
  };
  const expire = () => stop(new RenderStopped(expired[phase], 'stuck'));
  // The page's clock starts once its lane is open: opening a context (a lane's first page, or after
  // a crash) is the pass's own work, and has a limit of its own.
  let timer = setTimeout(expire, limitMs);
  let browser: Browser | null = null;
  let page: Page | null = null;
  /** Origins of the documents the page loaded (frames included), whose storage is cleared after it. */
  const origins = new Set<string>();
  const onDisconnect = () =>
    stop(
      new RenderStopped(
        'the browser crashed while rendering the page (it was restarted for the next pages)',
        'browser-lost',
      ),
    );
  const onCrash = () => stop(new RenderStopped("the page crashed the browser's renderer", 'stuck'));
  // The main frame's latest request, redirect hops included: the one to explain a failed load with.
  let navigation = url;
  const onRequest = (request: Request) => {
    if (!isNavigation(request)) return;
    const document = parseUrl(request.url());
    if (document?.protocol === 'http:' || document?.protocol === 'https:') origins.add(document.origin);
    if (request.frame() === page?.mainFrame()) navigation = request.url();
  };

  /** Set once the page has its outcome: a `work` still running past then must not touch the lane. */
  let settled = false;
  const work = async () => {
    browser = await lane.browser();
    browser.on('disconnected', onDisconnect);
    if (!browser.isConnected()) onDisconnect();
    if (settled) return null;
    const { page: opened, axe, session } = await lane.open(browser);
    if (settled) return null;
    clearTimeout(timer);
    phase = 'loading';
    timer = setTimeout(expire, limitMs);
    page = opened;
    opened.on('request', onRequest);
    opened.on('crash', onCrash);

    let response: Awaited<ReturnType<Page['goto']>>;
    try {
      response = await opened.goto(url, { waitUntil: 'domcontentloaded', timeout: 0 });
    } catch (err) {
      throw new RenderStopped(proxyFailure(session, navigation) ?? `could not be loaded (${firstLine(err)})`);
    }
    // A plain-http hop the proxy refused or could not reach answers with the proxy's 403 or 502,
    // which says more than where the hop was going.
    const failed =
      response && PROXY_STATUSES.has(response.status()) ? proxyFailure(session, response.url()) : null;
    if (failed) throw new RenderStopped(failed);
    checkStillOnSite(opened, target);
    if (response && response.status() >= 400) {
      throw new RenderStopped(`answered HTTP ${response.status()} when rendered`);
    }
    await opened.waitForLoadState('load', { timeout: LOAD_WAIT_MS }).catch(() => {});
    checkStillOnSite(opened, target);

    phase = 'checking';
    const results = await axe.analyze(AXE_OPTIONS, options.frames);
    // A script may have navigated away while axe ran: the results would then be another page's.
    checkStillOnSite(opened, target);
    return scannedPageFrom(url, results);
  };

  let outcome: PageScan | RenderStopped;
  try {
    // `work` only answers null once the race is over, so the race never yields it.
    outcome = (await Promise.race([work(), stopped])) as PageScan;
  } catch (err) {
    // Anything but a RenderStopped is the browser's side failing (a launch that did not start, a
    // protocol error).
    outcome =
      err instanceof RenderStopped
        ? err
        : new RenderStopped(`could not be checked (${firstLine(err)})`, 'stuck');
  } finally {
    settled = true;
    clearTimeout(timer);
    stopped.catch(() => {});
    (browser as Browser | null)?.off('disconnected', onDisconnect);
    (page as Page | null)?.off('request', onRequest).off('crash', onCrash);
  }
  // A page that answered leaves the lane to be reset for the next; one that hung or crashed may
  // have left it unusable (a renderer stuck in a script loop, a dead browser): the lane is
  // discarded and the next page opens a new context.
  const answered = !(outcome instanceof RenderStopped) || outcome.left === 'answered';
  if (!page || !answered || !(await lane.reset(origins))) await lane.discard();
  return outcome;
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

function isNavigation(request: Request): boolean {
  try {
    return request.isNavigationRequest() && Boolean(request.frame());
  } catch {
    return false; // a service worker's request has no frame
  }
}

function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return (message.split('\n')[0] ?? message).trim();
}
