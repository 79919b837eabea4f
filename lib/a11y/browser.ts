/**
 * The render pass's Chromium: `playwright-core` driving the binary shipped in `@sparticuz/chromium`
 * (or `CHROMIUM_PATH`), one browser per worker, relaunched when it goes away.
 */
import chromium from '@sparticuz/chromium';
import { type Browser, chromium as playwright } from 'playwright-core';
import { config } from '@/lib/config';
import { userAgent } from '@/lib/net';

/**
 * @sparticuz/chromium's flags are tuned for one page per Lambda: `--single-process` puts every
 * renderer in the browser process (several contexts fall over, and one page's crash would take the
 * whole pass down), and `--disable-web-security` would let pages do what real visitors' browsers
 * refuse, so what axe sees would not be the page people get.
 */
const DROPPED_ARGS = new Set(['--single-process', '--disable-web-security']);

/** The binary and flags the render pass launches (the accessibility benchmark gives pa11y-ci the same). */
export async function chromiumLaunchOptions(): Promise<{ executablePath: string; args: string[] }> {
  const executablePath = config().CHROMIUM_PATH || (await chromium.executablePath());
  return { executablePath, args: chromium.args.filter((arg) => !DROPPED_ARGS.has(arg)) };
}

export async function launchChromium(): Promise<Browser> {
  return playwright.launch({ ...(await chromiumLaunchOptions()), headless: true });
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
 * disconnected (crashed or killed). Concurrent callers during a launch share it.
 */
export class BrowserHolder {
  private launching: Promise<Browser> | null = null;

  constructor(
    private readonly launch: () => Promise<Browser> = launchChromium,
    /** Called with each browser launched (the tests reach the browser's CDP session through it). */
    private readonly onLaunch?: (browser: Browser) => void,
  ) {}

  async browser(): Promise<Browser> {
    const launching = this.launching;
    if (launching) {
      const current = await launching.catch(() => null);
      if (current?.isConnected()) return current;
      // Another caller saw the same dead browser first and is launching its successor.
      if (this.launching !== launching) return this.browser();
    }
    this.launching = this.launch().then((browser) => {
      this.onLaunch?.(browser);
      return browser;
    });
    return this.launching;
  }

  async close(): Promise<void> {
    const launching = this.launching;
    this.launching = null;
    const browser = await launching?.catch(() => null);
    if (browser?.isConnected()) await browser.close();
  }
}
