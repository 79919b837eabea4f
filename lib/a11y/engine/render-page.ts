/**
 * One page rendered in a lane: loaded within its time limit (`domcontentloaded`, then `load` for at
 * most `LOAD_WAIT_MS`), kept on its site, bounded by the sandbox, checked by axe in every frame,
 * and turned into a `PageScan`, or stopped with the reason and how the lane was left
 * (`RenderStopped`). The pass around it (lanes, slots, retries) is `render.ts`.
 */
import type { RunOptions } from 'axe-core';
import type { Browser, CDPSession, Page, Request } from 'playwright-core';
import { type ProxySession, unreachableTargetReason } from '@/lib/net';
import { parseUrl } from '@/lib/net/url';
import { AXE_RUN_ONLY_TAGS } from '../report/rules';
import { scannedPageFrom } from './axe-results';
import type { FrameCache } from './frame-cache';
import type { Lane } from './lane';
import {
  MAX_PAGE_ELEMENTS,
  PageGuard,
  RENDERER_MEMORY_LIMIT_BYTES,
  scriptsBusy,
  terminateScripts,
} from './sandbox';
import type { PageScan, UnscannedPage } from './scan';

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

/** What one page's render needs: its time limit and the run's cache of frame results. */
export interface PageOptions {
  /** Default `PAGE_TIME_LIMIT_MS`. */
  pageTimeLimitMs?: number;
  /** The run's cache of frame results (lib/a11y/engine/frame-cache.ts). */
  frames: FrameCache;
}

/** Why a page's render stopped before axe's results came back. */
export class RenderStopped extends Error {
  constructor(
    readonly reason: string,
    /**
     * How the lane was left: `answered` when the page answered with something not to check (an
     * error status, a redirect off the site, a refused or failed navigation) and the tab is in a
     * known state, so the lane is reset for the next page as after any page; `stuck` when the page
     * hung or crashed, so the lane's context is discarded; `browser-lost` when the browser itself
     * went away (the page may be innocent and is worth one more try); `not-opened` when the
     * browser did not open the lane's context and tab in time (the page was never loaded, so it
     * cannot be its fault: a browser busy with other pages, another tenant's among them), tried once
     * more on a new context as well.
     */
    readonly left: 'answered' | 'stuck' | 'browser-lost' | 'not-opened' = 'answered',
  ) {
    super(reason);
  }
}

/** A main thread silent this long when the page's time runs out is held by the page's scripts. */
const BUSY_AT_EXPIRY_MS = 2_000;

function megabytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

export function notScanned(url: string, reason: string): UnscannedPage {
  return { url, status: 'not-scanned', reason };
}

export async function renderPage(
  lane: Lane,
  url: string,
  options: PageOptions,
): Promise<PageScan | RenderStopped> {
  const target = parseUrl(url);
  if (!target || (target.protocol !== 'http:' && target.protocol !== 'https:')) {
    return notScanned(url, 'not an http(s) URL');
  }
  const refused = unreachableTargetReason(target, { allowPrivate: lane.allowPrivate });
  if (refused) return notScanned(url, `refused: the page's address ${refused}`);

  const limitMs = options.pageTimeLimitMs ?? PAGE_TIME_LIMIT_MS;
  const startedAt = Date.now();
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
  const expire = () => {
    // A main thread that has not answered for a while when time runs out: the page's scripts held it.
    const busy = guard?.busyFor() ?? 0;
    if (phase === 'opening') stop(new RenderStopped(expired.opening, 'not-opened'));
    else stop(new RenderStopped(busy >= BUSY_AT_EXPIRY_MS ? scriptsBusy(busy) : expired[phase], 'stuck'));
  };
  // The page's clock starts once its lane is open: opening a context (a lane's first page, or after
  // a crash) is the pass's own work, and has a limit of its own.
  let timer = setTimeout(expire, limitMs);
  let browser: Browser | null = null;
  let page: Page | null = null;
  let guard: PageGuard | null = null;
  let releaseMemoryWatch: (() => void) | null = null;
  /** The tab's DevTools session, to stop a stuck page's scripts with. */
  let tabSession: CDPSession | null = null;
  /** Origins of the documents the page loaded (frames included), whose storage is cleared after it. */
  const origins = new Set<string>();
  const browserLost = () =>
    new RenderStopped(
      'the browser crashed while rendering the page (it was restarted for the next pages)',
      'browser-lost',
    );
  const onDisconnect = () => stop(browserLost());
  const onCrash = () => {
    // The memory watch kills a renderer past its bound; the page whose renderer it was says so.
    const killed = browser && lane.memoryWatch(browser).claimKill(startedAt);
    stop(
      new RenderStopped(
        killed
          ? `used more than ${megabytes(RENDERER_MEMORY_LIMIT_BYTES)} of memory (${megabytes(killed)} when its renderer was stopped)`
          : "the page crashed the browser's renderer",
        'stuck',
      ),
    );
  };
  // The main frame's latest request, redirect hops included: the one to explain a failed load with.
  let navigation = url;
  const onRequest = (request: Request) => {
    if (!isNavigation(request)) return;
    const document = parseUrl(request.url());
    if (document?.protocol === 'http:' || document?.protocol === 'https:') origins.add(document.origin);
    if (request.frame() === page?.mainFrame()) {
      navigation = request.url();
      guard?.navigating(navigation);
    }
  };

  /** Set once the page has its outcome: a `work` still running past then must not touch the lane. */
  let settled = false;
  const work = async () => {
    browser = await lane.browser();
    browser.on('disconnected', onDisconnect);
    if (!browser.isConnected()) onDisconnect();
    if (settled) return null;
    releaseMemoryWatch = lane.memoryWatch(browser).watch();
    const { page: opened, axe, session } = await lane.open(browser);
    if (settled) return null;
    clearTimeout(timer);
    phase = 'loading';
    timer = setTimeout(expire, limitMs);
    page = opened;
    tabSession = axe.session;
    guard = new PageGuard(opened, axe.session, (violation, stuck) =>
      stop(new RenderStopped(violation.message, stuck ? 'stuck' : 'answered')),
    );
    opened.on('request', onRequest);
    opened.on('crash', onCrash);

    let response: Awaited<ReturnType<Page['goto']>>;
    try {
      // Committed is enough to judge the answer; the sandbox watches the page's scripts from then on.
      response = await opened.goto(url, { waitUntil: 'commit', timeout: 0 });
      guard.loaded();
      guard.watchScripts();
    } catch (err) {
      if (await disconnects(browser)) throw browserLost();
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
    await opened.waitForLoadState('domcontentloaded', { timeout: 0 });
    await opened.waitForLoadState('load', { timeout: LOAD_WAIT_MS }).catch(() => {});
    checkStillOnSite(opened, target);
    // The page's own scripts are done with the main thread before axe takes it.
    await guard.scriptsSettled();

    phase = 'checking';
    const elements = await axe.topElementCount();
    if (elements > MAX_PAGE_ELEMENTS) {
      throw new RenderStopped(
        `has ${elements.toLocaleString('en-US')} elements, more than the ${MAX_PAGE_ELEMENTS.toLocaleString('en-US')} the accessibility checks are run on`,
      );
    }
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
    // protocol error), or the browser gone before its `disconnected` event arrived.
    outcome =
      err instanceof RenderStopped
        ? err
        : (await disconnects(browser as Browser | null))
          ? browserLost()
          : new RenderStopped(`could not be checked (${firstLine(err)})`, 'stuck');
  } finally {
    settled = true;
    clearTimeout(timer);
    stopped.catch(() => {});
    (guard as PageGuard | null)?.dispose();
    (browser as Browser | null)?.off('disconnected', onDisconnect);
    (page as Page | null)?.off('request', onRequest).off('crash', onCrash);
  }
  // A page that answered leaves the lane to be reset for the next; one that hung or crashed may
  // have left it unusable (a renderer stuck in a script loop, a dead browser): its scripts are
  // stopped, the lane is discarded (its context closed, with every window, worker and socket the
  // page opened) and the next page opens a new context.
  const answered = !(outcome instanceof RenderStopped) || outcome.left === 'answered';
  if (!answered && tabSession) await terminateScripts(tabSession);
  if (!page || !answered || !(await lane.reset(origins))) await lane.discard();
  (releaseMemoryWatch as (() => void) | null)?.();
  return outcome;
}

/**
 * Whether `browser` has gone or goes within a moment: Playwright fails a page's pending calls as
 * soon as the browser's pipe breaks, a little before it reports the browser disconnected.
 */
async function disconnects(browser: Browser | null): Promise<boolean> {
  if (!browser) return false;
  if (!browser.isConnected()) return true;
  let timer: NodeJS.Timeout | undefined;
  let onGone = () => {};
  const gone = await Promise.race([
    new Promise<boolean>((resolve) => {
      onGone = () => resolve(true);
      browser.once('disconnected', onGone);
    }),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(!browser.isConnected()), DISCONNECT_WAIT_MS);
    }),
  ]);
  clearTimeout(timer);
  browser.off('disconnected', onGone);
  return gone;
}

/** How long a failed call waits to learn whether the browser went away. */
const DISCONNECT_WAIT_MS = 500;

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
