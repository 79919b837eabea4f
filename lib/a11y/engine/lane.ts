/**
 * A render lane: one worker's browser context with one tab, in which the worker renders its pages
 * one after another, and the pool that keeps a run's lanes open from one batch to the next.
 *
 * Why one tab for many pages: a context and a tab per page paid, for every page, a new renderer
 * process and everything warm in the last one (axe's compiled code, fonts, style caches), the page
 * setup of Playwright and Chromium, a proxy session, and the site's shared stylesheets, scripts and
 * images fetched again (the HTTP cache lives in the context). That was most of the pass's CPU
 * beside axe itself.
 *
 * Scope: a lane serves the pages of one run only (one site, one tenant). `renderPages` opens its
 * lanes for one call; with a run key they are parked in the worker's pool between the batches of
 * that run and closed after `LANE_IDLE_MS` without one. A lane is never handed to another run.
 *
 * Pages must not see each other. After a page rendered to the end, `reset` stops its scripts (so
 * nothing it does on the way out, in `pagehide`, `unload` or a timer, reaches the next page),
 * clears the tab's session storage for every origin it loaded a document from, leaves it for
 * `about:blank`, clears those origins' storage (local storage, IndexedDB, service workers, cache
 * storage) and every cookie, empties `window.name`, closes any popup, and collects the renderer's
 * garbage when its heap has grown (`COLLECT_ABOVE_BYTES`). The next page renders as
 * a first visit, as in a context of its own: a consent banner, a "shown once per session" dialog
 * or a service worker left by the page before would change what axe sees, and the findings would
 * depend on the order of the pages. What stays is the HTTP cache, as for any visitor. A page that
 * hung, crashed or failed midway is not reset but discarded with its context (a renderer stuck in
 * a script loop would hold the next page too); the next page opens a new one.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ProxySession } from '@/lib/net';
import { AxeTab } from './axe-run';
import { type BrowserHolder, renderUserAgent } from './browser';
import { FrameCache } from './frame-cache';
import { type MemoryWatch, SANDBOX_CONTEXT_OPTIONS } from './sandbox';

/** How long a run's parked lanes wait for its next batch before they are closed. */
export const LANE_IDLE_MS = 30_000;

/** Runs whose lanes a worker keeps parked at once; a run beyond them closes the oldest's. */
const MAX_PARKED_RUNS = 2;

/**
 * JavaScript heap of a lane's renderer above which `reset` collects its garbage. Each page leaves
 * its documents behind, with axe's world in each of them, and V8 left alone lets the heap grow to
 * several hundred MB before it collects them (600 MB of renderer on the benchmark's pages). At
 * `about:blank`, with almost nothing live, a full collection costs about 25 ms; this threshold
 * has one run every few pages and keeps the renderer near 200 MB.
 */
const COLLECT_ABOVE_BYTES = 64 * 1024 * 1024;

/** Time for `reset`; past it the lane is discarded instead. */
const RESET_LIMIT_MS = 5_000;

export interface OpenLane {
  browser: Browser;
  context: BrowserContext;
  /** The tab the lane renders every page in. */
  page: Page;
  axe: AxeTab;
  /** The context's own port of the proxy: it lives and closes with the context. */
  session: ProxySession;
}

export class Lane {
  private current: OpenLane | null = null;
  private opening: Promise<OpenLane> | null = null;

  constructor(
    private readonly browsers: BrowserHolder,
    readonly allowPrivate: boolean,
  ) {}

  /** The browser to render on: the holder's, relaunched if the last one went away. */
  browser(): Promise<Browser> {
    return this.browsers.browser();
  }

  /** The watch over `browser`'s renderers' memory (lib/a11y/engine/sandbox.ts). */
  memoryWatch(browser: Browser): MemoryWatch {
    return this.browsers.memoryWatch(browser);
  }

  /** Whether the lane holds an open context (worth parking for the run's next batch). */
  get isOpen(): boolean {
    return this.current?.browser.isConnected() ?? false;
  }

  /** The lane's context and tab on `browser`, opened if the lane has none there. */
  async open(browser: Browser): Promise<OpenLane> {
    if (this.current?.browser === browser) return this.current;
    await this.discard();
    const opening = this.create(browser);
    this.opening = opening;
    const opened = await opening;
    if (this.opening !== opening) {
      // Discarded while opening (the page's time limit struck): nobody else would close it.
      await closeLane(opened);
      throw new Error('the lane was discarded while its browser context opened');
    }
    this.opening = null;
    this.current = opened;
    return opened;
  }

  private async create(browser: Browser): Promise<OpenLane> {
    const session = await this.browsers.proxySession({ allowPrivate: this.allowPrivate });
    let context: BrowserContext | null = null;
    try {
      context = await browser.newContext({
        ...SANDBOX_CONTEXT_OPTIONS,
        userAgent: await renderUserAgent(browser),
        proxy: session.settings,
      });
      const page = await context.newPage();
      return { browser, context, page, axe: await AxeTab.attach(page), session };
    } catch (err) {
      await context?.close().catch(() => {});
      session.close();
      throw err;
    }
  }

  /**
   * Readies the lane for its next page after the current one rendered to the end (see the module
   * comment). `origins`: those of the documents the page loaded, frames included. False when that
   * failed; the lane is then discarded.
   */
  async reset(origins: ReadonlySet<string>): Promise<boolean> {
    const lane = this.current;
    if (!lane) return false;
    const { session } = lane.axe;
    const storageOf = (origin: string) => ({ storageId: { securityOrigin: origin, isLocalStorage: false } });
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('reset timed out')), RESET_LIMIT_MS);
    });
    // Four steps, each sent as one batch (a session's messages are handled in order), so a reset
    // costs four round trips whatever the number of origins.
    const reset = async () => {
      // The page's scripts stop. Session storage belongs to the tab and outlives navigation;
      // DevTools clears it only while a document of its origin is shown (a frame that has gone
      // makes its call fail, harmlessly).
      await Promise.all([
        session.send('Emulation.setScriptExecutionDisabled', { value: true }),
        ...[...origins].map((origin) => session.send('DOMStorage.clear', storageOf(origin)).catch(() => {})),
      ]);
      // Leaving runs the page's `pagehide` and `unload` handlers: with scripts off, they write nothing.
      await lane.page.goto('about:blank', { waitUntil: 'commit' });
      const [, heap] = await Promise.all([
        session.send('Emulation.setScriptExecutionDisabled', { value: false }),
        session.send('Runtime.getHeapUsage'),
      ]);
      await Promise.all([
        ...[...origins].map((origin) =>
          session.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' }),
        ),
        lane.context.clearCookies(),
        session.send('Runtime.evaluate', { expression: 'window.name = ""' }),
        ...lane.context
          .pages()
          .filter((tab) => tab !== lane.page)
          .map((tab) => tab.close()),
        heap.usedSize > COLLECT_ABOVE_BYTES ? session.send('HeapProfiler.collectGarbage') : null,
      ]);
    };
    try {
      await Promise.race([reset(), limit]);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes the context and its proxy session; one still opening is closed by `open`. */
  async discard(): Promise<void> {
    const current = this.current;
    this.current = null;
    this.opening = null;
    if (current) await closeLane(current);
  }
}

async function closeLane({ context, session }: OpenLane): Promise<void> {
  await context.close().catch(() => {});
  session.close();
}

/** A worker's parked lanes, per run key, between the batches of a run. */
export class LanePool {
  private readonly parked = new Map<string, { lanes: Lane[]; timer: NodeJS.Timeout }>();
  /** Per run key, the run's cache of frame results: it goes when the run's lanes are closed. */
  private readonly frameCaches = new Map<string, FrameCache>();

  /** The frame cache of the run `key`, shared by its lanes from one batch to the next. */
  frameCache(key: string): FrameCache {
    let cache = this.frameCaches.get(key);
    if (!cache) {
      cache = new FrameCache();
      this.frameCaches.set(key, cache);
    }
    return cache;
  }

  /** The lanes parked under `key`, now the caller's (none if the run has none parked). */
  take(key: string): Lane[] {
    const entry = this.parked.get(key);
    if (!entry) return [];
    clearTimeout(entry.timer);
    this.parked.delete(key);
    return entry.lanes;
  }

  /** Keeps `lanes` for the next batch of the run `key`, for `LANE_IDLE_MS` at most. */
  park(key: string, lanes: Lane[]): void {
    if (lanes.length === 0 && !this.parked.has(key)) {
      this.frameCaches.delete(key);
      return;
    }
    const timer = setTimeout(() => void this.close(key), LANE_IDLE_MS);
    timer.unref();
    this.parked.set(key, { lanes: [...this.take(key), ...lanes], timer });
    for (const oldest of this.parked.keys()) {
      if (this.parked.size <= MAX_PARKED_RUNS) break;
      void this.close(oldest);
    }
  }

  private async close(key: string): Promise<void> {
    this.frameCaches.delete(key);
    await Promise.all(this.take(key).map((lane) => lane.discard()));
  }
}

const pools = new WeakMap<BrowserHolder, LanePool>();

/** The lane pool of a worker's browser. */
export function lanePoolOf(browsers: BrowserHolder): LanePool {
  let pool = pools.get(browsers);
  if (!pool) {
    pool = new LanePool();
    pools.set(browsers, pool);
  }
  return pool;
}
