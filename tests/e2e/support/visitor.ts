import type { Browser, BrowserContext, Page } from '@playwright/test';

export interface VisitorOptions {
  /** The visitor's client address (each spec its own: the public pages are rate limited per address). */
  ip: string;
  /** Off by default: a public status page must not need JavaScript. */
  js?: boolean;
  dark?: boolean;
  width?: number;
  /** Only to inject axe-core (which needs `js` too), which the page's policy rightly refuses. */
  bypassCSP?: boolean;
}

/**
 * A visitor to the public pages: signed out (the project's storage state would otherwise bring the
 * signed-in person's session cookie), from an address of their own, without JavaScript unless asked.
 */
export async function publicVisitor(
  browser: Browser,
  { ip, js = false, dark = false, width = 1280, bypassCSP = false }: VisitorOptions,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    storageState: { cookies: [], origins: [] },
    javaScriptEnabled: js,
    colorScheme: dark ? 'dark' : 'light',
    viewport: { width, height: 900 },
    bypassCSP,
    extraHTTPHeaders: { 'x-forwarded-for': ip },
  });
  return { context, page: await context.newPage() };
}
