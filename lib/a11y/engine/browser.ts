/**
 * The render pass's Chromium: `playwright-core` driving the binary shipped in `@sparticuz/chromium`
 * (or `CHROMIUM_PATH`), one browser per worker, relaunched when it goes away, and the `lib/net`
 * proxy all its traffic goes through (see `lib/net/proxy.ts`).
 *
 * Both packages are imported at first launch, never at module load: this module sits in the job
 * graph that every server process evaluates, and on Vercel only the functions that render or print
 * ship Chromium's files (next.config.ts); loading playwright-core elsewhere would only slow a cold
 * start (and fail where its files were not traced).
 */
import type { Browser } from 'playwright-core';
import { config } from '@/lib/config';
import { BrowserProxy, type ProxyNetwork, type ProxySession, systemNetwork, userAgent } from '@/lib/net';
import { MemoryWatch, V8_HEAP_LIMIT_MB } from './sandbox';

/**
 * @sparticuz/chromium's flags are tuned for one page per Lambda: `--single-process` puts every
 * renderer in the browser process (several contexts fall over, and one page's crash would take the
 * whole pass down), and `--disable-web-security` would let pages do what real visitors' browsers
 * refuse, so what axe sees would not be the page people get.
 */
const DROPPED_ARGS = new Set(['--single-process', '--disable-web-security']);

/**
 * Flags added for a renderer of pages nobody looks at and that each live a second or two; they
 * change what Chromium spends CPU on, not what a page does or what axe reads (the parity test
 * compares the render pass with AxeBuilder on the same flags).
 *
 * - `--disable-gpu-compositing`: @sparticuz's flags composite every frame through SwiftShader (GL
 *   emulated on the CPU) in the browser process, which cost more CPU per page than loading the
 *   page (about 70 ms); software compositing draws the same pixels without the GL emulation. WebGL
 *   and GPU canvas stay available to pages (a map that needs WebGL still renders).
 * - `--js-flags=--no-opt,--no-maglev`: V8's optimizing compilers recompile hot functions on
 *   background threads, which pays off for code that runs for minutes. Here every document runs
 *   briefly and gets axe afresh (a new context, new type feedback), so Maglev recompiled axe's hot
 *   functions for every page, about 50 ms of CPU per page that the page's own few hundred
 *   milliseconds never earned back; the interpreter and the baseline compiler run the same code.
 * - `--max-old-space-size`: each renderer's V8 heap capped (lib/a11y/engine/sandbox.ts), in the same
 *   flag, since Chromium reads only one `--js-flags`.
 */
const ADDED_ARGS = [
  '--disable-gpu-compositing',
  `--js-flags=--no-opt,--no-maglev,--max-old-space-size=${V8_HEAP_LIMIT_MB}`,
];

/** The binary and flags the render pass launches (the accessibility benchmark gives pa11y-ci the same). */
export async function chromiumLaunchOptions(): Promise<{ executablePath: string; args: string[] }> {
  const { default: chromium } = await import('@sparticuz/chromium');
  const executablePath = config().CHROMIUM_PATH || (await chromium.executablePath());
  return {
    executablePath,
    args: [...chromium.args.filter((arg) => !DROPPED_ARGS.has(arg)), ...ADDED_ARGS],
  };
}

/**
 * WebRTC sends UDP (STUN, TURN, peer traffic) past any HTTP proxy; a page could aim it at private
 * addresses. This policy keeps WebRTC to proxied TCP, which the proxy's CONNECT rules cover.
 */
const NETWORK_ARGS = ['--force-webrtc-ip-handling-policy=disable_non_proxied_udp'];

export interface LaunchOptions {
  /**
   * The proxy server for the whole browser. Each render context names its own proxy session (a
   * port of its own); this browser-wide setting is the proxy's port that belongs to no session and
   * refuses everything, so a context opened without a session fails closed instead of reaching the
   * network directly.
   */
  proxy?: string;
}

export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  const { executablePath, args } = await chromiumLaunchOptions();
  // `<-loopback>`: Chromium otherwise sends localhost and 127.0.0.1 around any proxy.
  const proxy = options.proxy ? { server: options.proxy, bypass: '<-loopback>' } : undefined;
  const { chromium: playwright } = await import('playwright-core');
  return playwright.launch({
    executablePath,
    args: [...args, ...NETWORK_ARGS],
    headless: true,
    proxy,
  });
}

const userAgents = new WeakMap<Browser, Promise<string>>();

/**
 * Chromium's own user agent with the crawler's bot token after it: sites that recognise
 * SitewatchBot (allow lists, robots rules, logs) see the render pass as the same visitor, and the
 * Chrome part keeps them serving the page real browsers get.
 */
export function renderUserAgent(browser: Browser): Promise<string> {
  let value = userAgents.get(browser);
  if (!value) {
    value = browser
      .newBrowserCDPSession()
      .then((session) => session.send('Browser.getVersion'))
      .then((version) => `${version.userAgent} ${userAgent()}`);
    userAgents.set(browser, value);
  }
  return value;
}

/**
 * Hands out a connected browser, launching one on first use and again after the last one
 * disconnected (crashed or killed). Concurrent callers during a launch share it. Also owns the
 * proxy the browser's contexts go out through; it outlives browser crashes and closes with the holder.
 */
export class BrowserHolder {
  private launching: Promise<Browser> | null = null;
  private proxy: Promise<BrowserProxy> | null = null;
  private readonly memoryWatches = new WeakMap<Browser, MemoryWatch>();

  constructor(
    private readonly launch: (options: LaunchOptions) => Promise<Browser> = launchChromium,
    /** Called with each browser launched (the tests reach the browser's CDP session through it). */
    private readonly onLaunch?: (browser: Browser) => void,
    /** How the proxy resolves and connects; tests map names to loopback servers with it. */
    private readonly network: ProxyNetwork = systemNetwork,
  ) {}

  private startedProxy(): Promise<BrowserProxy> {
    if (!this.proxy) {
      const starting = BrowserProxy.start(this.network);
      this.proxy = starting;
      starting.catch(() => {
        if (this.proxy === starting) this.proxy = null;
      });
    }
    return this.proxy;
  }

  /**
   * A proxy session for one browser context (its own port on 127.0.0.1): pass its `settings` as the
   * context's `proxy`, read its failures to explain a navigation, close it with the context.
   */
  async proxySession(options: { allowPrivate: boolean }): Promise<ProxySession> {
    return (await this.startedProxy()).session(options);
  }

  /** The watch over `browser`'s renderers' memory (lib/a11y/engine/sandbox.ts). */
  memoryWatch(browser: Browser): MemoryWatch {
    let watch = this.memoryWatches.get(browser);
    if (!watch) {
      watch = new MemoryWatch(browser);
      this.memoryWatches.set(browser, watch);
    }
    return watch;
  }

  async browser(): Promise<Browser> {
    const launching = this.launching;
    if (launching) {
      const current = await launching.catch(() => null);
      if (current?.isConnected()) return current;
      // Another caller saw the same dead browser first and is launching its successor.
      if (this.launching !== launching) return this.browser();
    }
    this.launching = this.startedProxy()
      .then((proxy) => this.launch({ proxy: proxy.url }))
      .then((browser) => {
        this.onLaunch?.(browser);
        return browser;
      });
    return this.launching;
  }

  async close(): Promise<void> {
    const launching = this.launching;
    const proxy = this.proxy;
    this.launching = null;
    this.proxy = null;
    const browser = await launching?.catch(() => null);
    if (browser?.isConnected()) await browser.close();
    await (await proxy?.catch(() => null))?.close();
  }
}
