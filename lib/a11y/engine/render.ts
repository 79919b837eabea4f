import { config } from '@/lib/config';
import { BrowserHolder } from './browser';
import { FrameCache } from './frame-cache';
import { Lane, lanePoolOf } from './lane';
import { notScanned, type PageOptions, RenderStopped, renderPage } from './render-page';
import type { PageScan } from './scan';
import { renderSlotsOf } from './slots';

/**
 * Pages rendered at once, each lane in its own context of the one browser. On a 2-core machine 4
 * keeps both cores busy while some pages wait on the network; more only queues work in the renderer.
 */
export const DEFAULT_RENDER_CONCURRENCY = 4;

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
  /**
   * The tenant the pages belong to: the browser's render slots (lib/a11y/engine/slots.ts) are shared
   * fairly between tenants. Default: the run key (each call its own share without one).
   */
  tenantKey?: string;
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
  // The browser's slots, shared fairly with other tenants' passes (lib/a11y/engine/slots.ts): a page waits
  // for one before its lane is taken and its clock starts.
  const slots = renderSlotsOf(browsers);
  const tenant = options.tenantKey ?? options.runKey ?? poolKey;
  // Lanes not rendering a page; a page takes one (or opens one), so a pass that gets fewer slots
  // than its concurrency opens no more contexts than it renders pages at once.
  const idle: Lane[] = [...parked];
  const worker = async () => {
    while (!abandoned && next < urls.length) {
      const release = await slots.acquire(tenant);
      const lane = idle.pop() ?? new Lane(browsers, allowPrivate);
      try {
        if (abandoned || next >= urls.length) break;
        const url = urls[next++] as string;
        done.push(await renderWithRetry(lane, url, { ...options, frames }, retries));
        wake?.();
      } finally {
        release();
        idle.push(lane);
      }
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
    // Open lanes are kept for the run's next batch (those the workers did not need included).
    const open = idle.filter((lane) => lane.isOpen);
    await Promise.all(idle.filter((lane) => !lane.isOpen || !pool).map((lane) => lane.discard()));
    pool?.park(poolKey, open);
    if (ownBrowser) await browsers.close();
  }
}

/**
 * A page whose browser went away while it rendered is tried once more on the relaunched browser:
 * with several pages in flight, only one of them crashed it. Retries run one at a time, so an
 * innocent page's second try never shares the browser with the culprit's; a page that takes the
 * browser down twice is recorded as the crash. A page whose lane did not open in time is tried
 * once more the same way: it never reached the browser, so the delay was not its doing.
 */
async function renderWithRetry(
  lane: Lane,
  url: string,
  options: PageOptions,
  retries: SerialQueue,
): Promise<PageScan> {
  const first = await renderPage(lane, url, options);
  if (!(first instanceof RenderStopped)) return first;
  if (first.left !== 'browser-lost' && first.left !== 'not-opened') return notScanned(url, first.reason);
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
