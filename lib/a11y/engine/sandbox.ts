/**
 * The render pass's sandbox: the bounds one page, written by a stranger, gets in the browser, so
 * that it can neither fill the server's disk or memory, hold a core, nor leave anything behind for
 * the pages after it. A page that crosses a bound is stopped and recorded `not scanned` with the
 * bound it crossed; what a page may do in moderation (one dialog, a popup, a few WebSockets) is
 * refused or closed and the page is still scanned, since ordinary sites do that too.
 *
 * | what the page does | what the sandbox does |
 * |---|---|
 * | starts a download (a `download` link, an attachment) | refused by Chromium (`acceptDownloads: false`, i.e. `Browser.setDownloadBehavior` `deny`): no byte reaches the disk; the page is stopped |
 * | registers a service worker | refused (`serviceWorkers: 'block'`); the lane's reset also clears the origin's workers |
 * | opens windows (`window.open`, `target=_blank` clicks) | each closed as it opens; past `MAX_POPUPS` the page is stopped |
 * | opens dialogs (`alert`, `confirm`, `prompt`) | each dismissed; past `MAX_DIALOGS` the page is stopped |
 * | opens WebSockets | allowed (chat widgets, live figures), closed with the page; past `MAX_WEBSOCKETS` the page is stopped |
 * | navigates itself to another document | stopped: what axe would check is not the page asked for |
 * | holds its main thread without a break (an endless loop, the layout of a million elements) | stopped after `SCRIPT_BUSY_LIMIT_MS` without an answer from its main thread, its script terminated (`Runtime.terminateExecution`) and its context closed |
 * | builds a huge DOM | not checked past `MAX_PAGE_ELEMENTS` elements |
 * | allocates memory | each renderer is killed past `RENDERER_MEMORY_LIMIT_BYTES` of resident memory (`MemoryWatch`), and V8's heap (with the array buffers it accounts) is capped above that by a flag (`V8_HEAP_LIMIT_MB`), a backstop |
 *
 * Time: the page's own limit (`PAGE_TIME_LIMIT_MS` in render-page.ts) bounds loading and checking
 * together; the script limit above is tighter, so an endless loop costs 15 s of a core, not 30.
 */
import { readFileSync } from 'node:fs';
import type { Browser, CDPSession, Dialog, Download, Page, WebSocket } from 'playwright-core';

/** Windows a page may open (each is closed at once) before it is stopped. */
export const MAX_POPUPS = 3;
/** Dialogs a page may open (each is dismissed) before it is stopped. */
export const MAX_DIALOGS = 3;
/** WebSockets a page may open before it is stopped: live widgets open one or two. */
export const MAX_WEBSOCKETS = 16;
/**
 * Elements in the top document above which axe is not run. axe's time grows with the DOM: about a
 * second per 10,000 elements on one core here, so past this a page could not be checked within its
 * time limit on a busy machine anyway. Real pages rarely pass 15,000; the bound stops pages built to
 * exhaust the checker (a script that appends a million nodes).
 */
export const MAX_PAGE_ELEMENTS = 50_000;
/**
 * Time a page's main thread may go without answering the DevTools protocol (which it answers
 * between tasks) while it loads. Real pages' longest tasks take a few hundred milliseconds; wall
 * time on a machine whose cores are shared stretches them (the layout of 60,000 paragraphs took
 * over 10 s on a loaded 2-core machine), so the bound is generous: 15 s without a break is an
 * endless loop or a page built to hold a core.
 */
export const SCRIPT_BUSY_LIMIT_MS = 15_000;
/** How often the page's main thread is asked whether it is free while it loads. */
const HEARTBEAT_MS = 500;

/**
 * Resident memory one renderer process may hold. A lane's renderer sits near 200 MB on ordinary
 * pages (lib/a11y/engine/lane.ts collects its garbage above 64 MB of heap); axe on a large page adds a few
 * hundred MB. With four lanes, four renderers at this bound and the browser stay under the 3 GB a
 * Chromium function gets on Vercel.
 */
export const RENDERER_MEMORY_LIMIT_BYTES = 640 * 1024 * 1024;
/**
 * V8's old-generation heap per renderer, a backstop for platforms where `MemoryWatch` cannot read
 * process memory: past it V8 stops the renderer (out of memory). V8 counts the array buffers it
 * hands out against about this much too (a page writing 64 MB buffers crashed at 615 MB resident
 * with 768 here). Far above the resident bound, so that the watch acts first even when a busy
 * event loop delays its poll, and the page's reason names the bound.
 */
export const V8_HEAP_LIMIT_MB = 2048;
/** How often `MemoryWatch` reads the renderers' memory while pages render. */
export const MEMORY_POLL_MS = 100;

/** Playwright's options for a render context: no downloads, no service workers. */
export const SANDBOX_CONTEXT_OPTIONS = {
  acceptDownloads: false,
  serviceWorkers: 'block',
} as const;

/**
 * The reason of a page that held its main thread for `ms`: its scripts (an endless loop) or the
 * work they made (the layout of a million elements).
 */
export function scriptsBusy(ms: number): string {
  return `kept the browser busy for ${Math.round(ms / 1000)} s without a break (an endless loop?) and was stopped`;
}

/** A bound a page crossed: the `not scanned` reason in plain words. */
export class SandboxViolation extends Error {}

/**
 * The watch over one page's render: counts what the page does and calls `stop` with the bound it
 * crossed. `start` when the page begins loading, `loaded` once the document asked for has loaded
 * (a navigation after that is the page leaving), `dispose` when the page has its outcome.
 */
export class PageGuard {
  private popups = 0;
  private dialogs = 0;
  private sockets = 0;
  private loadedDocument = false;
  private heartbeat: NodeJS.Timeout | undefined;
  private probeSentAt: number | null = null;
  private disposed = false;

  constructor(
    private readonly page: Page,
    private readonly session: CDPSession,
    private readonly stop: (violation: SandboxViolation, stuck: boolean) => void,
  ) {
    page.on('download', this.onDownload);
    page.on('dialog', this.onDialog);
    page.on('websocket', this.onWebSocket);
    page.context().on('page', this.onPopup);
  }

  /** The page asked for has committed: from now on its main thread must keep answering. */
  watchScripts(): void {
    if (this.heartbeat || this.disposed) return;
    this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_MS);
    this.heartbeat.unref();
    this.beat();
  }

  /**
   * Resolves once the page's main thread answers (the heartbeat stops then: what runs next is
   * axe, whose own time the page's time limit bounds).
   */
  async scriptsSettled(): Promise<void> {
    await this.session.send('Runtime.evaluate', { expression: '0' });
    clearInterval(this.heartbeat);
    this.probeSentAt = null;
  }

  /** The document asked for has loaded: another main-frame navigation is the page leaving it. */
  loaded(): void {
    this.loadedDocument = true;
  }

  /** A main-frame navigation request (redirect hops of the first load included) to `url`. */
  navigating(url: string): void {
    if (this.loadedDocument)
      this.violate(`navigated away by itself (to ${url}); a page that sends its visitors on is not checked`);
  }

  dispose(): void {
    this.disposed = true;
    clearInterval(this.heartbeat);
    this.page.off('download', this.onDownload);
    this.page.off('dialog', this.onDialog);
    this.page.off('websocket', this.onWebSocket);
    this.page.context().off('page', this.onPopup);
  }

  /** How long the page's main thread has not answered (0 when it is not being watched or is free). */
  busyFor(): number {
    return this.probeSentAt === null ? 0 : Date.now() - this.probeSentAt;
  }

  private beat(): void {
    if (this.disposed) return;
    const now = Date.now();
    if (this.probeSentAt !== null) {
      if (now - this.probeSentAt > SCRIPT_BUSY_LIMIT_MS)
        this.violate(scriptsBusy(now - this.probeSentAt), true);
      return;
    }
    this.probeSentAt = now;
    // Any answer, an error included (a document replaced meanwhile), means the thread was free.
    const answered = () => {
      this.probeSentAt = null;
    };
    this.session.send('Runtime.evaluate', { expression: '0' }).then(answered, answered);
  }

  private violate(reason: string, stuck = false): void {
    if (!this.disposed) this.stop(new SandboxViolation(reason), stuck);
  }

  private readonly onDownload = (download: Download) => {
    // Chromium has already refused it (the context's download behaviour is `deny`).
    void download.cancel().catch(() => {});
    this.violate(`started a download (${download.url()}); the render pass refuses downloads`);
  };

  private readonly onDialog = (dialog: Dialog) => {
    void dialog.dismiss().catch(() => {});
    if (++this.dialogs > MAX_DIALOGS)
      this.violate(`opened more than ${MAX_DIALOGS} dialogs (alert, confirm or prompt)`, true);
  };

  private readonly onPopup = (popup: Page) => {
    if (popup === this.page) return;
    void popup.close().catch(() => {});
    if (++this.popups > MAX_POPUPS) this.violate(`opened more than ${MAX_POPUPS} windows`, true);
  };

  private readonly onWebSocket = (_socket: WebSocket) => {
    if (++this.sockets > MAX_WEBSOCKETS) this.violate(`opened more than ${MAX_WEBSOCKETS} WebSockets`, true);
  };
}

/**
 * Stops a page's scripts at once (an endless loop included; the renderer answers this between two
 * statements, not between tasks), so closing its context does not wait on a busy renderer.
 */
export async function terminateScripts(session: CDPSession): Promise<void> {
  // A crashed renderer never answers: the context is closed after a short wait either way.
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, TERMINATE_WAIT_MS);
  });
  await Promise.race([session.send('Runtime.terminateExecution').catch(() => {}), waited]);
  clearTimeout(timer);
}

/** How long `terminateScripts` waits for the renderer's answer. */
const TERMINATE_WAIT_MS = 500;

/**
 * Kills any renderer process of a browser whose resident memory passes the bound, while pages
 * render (`watch` / its release), and remembers when it did, so the page whose renderer crashed can
 * say why. Reads `/proc/<pid>/status` (Linux, as on Vercel); elsewhere it finds no figures and V8's
 * heap flag remains the only bound.
 *
 * The bound is checked every `MEMORY_POLL_MS`: a page can overshoot it by what it allocates in that
 * time (measured in tests/integration/a11y-sandbox.test.ts).
 */
export class MemoryWatch {
  private users = 0;
  private timer: NodeJS.Timeout | undefined;
  private session: Promise<CDPSession> | null = null;
  private polling = false;
  private readonly kills: { pid: number; at: number; bytes: number; claimed: boolean }[] = [];

  constructor(
    private readonly browser: Browser,
    private readonly limitBytes: number = RENDERER_MEMORY_LIMIT_BYTES,
  ) {}

  /** Starts watching (if not already) for one render; call the answer when that render ends. */
  watch(): () => void {
    this.users += 1;
    if (!this.timer) {
      this.timer = setInterval(() => void this.poll(), MEMORY_POLL_MS);
      this.timer.unref();
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.users -= 1;
      if (this.users === 0) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    };
  }

  /**
   * The resident size of a renderer this watch killed since `since` (ms) that no crashed page has
   * claimed yet, now claimed; null if none. A page whose renderer crashed claims the kill, so the
   * reason holds however late the crash is reported on a busy machine.
   */
  claimKill(since: number): number | null {
    const kill = this.kills.find((k) => !k.claimed && k.at >= since);
    if (!kill) return null;
    kill.claimed = true;
    return kill.bytes;
  }

  private async poll(): Promise<void> {
    if (this.polling || !this.browser.isConnected()) return;
    this.polling = true;
    try {
      this.session ??= this.browser.newBrowserCDPSession();
      const { processInfo } = await (await this.session).send('SystemInfo.getProcessInfo');
      for (const { type, id } of processInfo) {
        if (type !== 'renderer') continue;
        const bytes = residentBytes(id);
        if (bytes === null || bytes <= this.limitBytes) continue;
        try {
          process.kill(id, 'SIGKILL');
          this.kills.push({ pid: id, at: Date.now(), bytes, claimed: false });
          if (this.kills.length > 32) this.kills.shift();
        } catch {
          // Gone already.
        }
      }
    } catch {
      this.session = null; // the browser went away; the next poll finds it disconnected
    } finally {
      this.polling = false;
    }
  }
}

/** Resident memory of a process (`VmRSS`, in kB whatever the page size), or null where there is none to read. */
export function residentBytes(pid: number): number | null {
  try {
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
}
