import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Cookie, expect, type Locator, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { settled, tabTo } from './support/page';
import { signInThroughForm } from './support/sign-in';
import { snap } from './support/snap';

/*
 * Issue 24 items 6 and 11: after every action the focus lands on its result or its message, never
 * on the page's body, walked with the keyboard only; banners from an earlier action go with the next
 * one; a duplicate site is linked by name; the site's sections fold at 390 px. A user of their own
 * (their organization, sites and monitors are theirs alone), and a site of their own on 127.0.0.7,
 * which the e2e server may reach (PRIVATE_NETWORKS in playwright.config.ts), so its crawl and
 * accessibility scan have real findings to suppress.
 */

test.describe.configure({ mode: 'serial' });
const IP = '203.0.113.51';
test.use({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { 'x-forwarded-for': IP } });

const USER = 'focus@example.com';
const HOST = '127.0.0.7';

/** A small site with an image without alt text (axe's image-alt) and a health endpoint to probe. */
const HOME = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Focus test home</title></head><body><main><h1>Home</h1><img src="/logo.svg" width="40" height="40">
<p><a href="/about">About us</a></p></main></body></html>`;
const ABOUT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>About the focus site</title></head><body><main><h1>About</h1><p>Words.</p></main></body></html>`;
const LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40"/></svg>';

let site: Server;
let rootUrl = '';
let siteId = '';
let cookies: Cookie[] = [];

test.beforeAll(async ({ browser }) => {
  site = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const page = path === '/' ? HOME : path === '/about' ? ABOUT : null;
    if (page) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    else if (path === '/logo.svg') res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(LOGO);
    else if (path === '/health') res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => site.listen(0, HOST, resolve));
  rootUrl = `http://${HOST}:${(site.address() as AddressInfo).port}/`;

  const page = await browser.newPage({ extraHTTPHeaders: { 'x-forwarded-for': IP } });
  await page.goto('/sign-in');
  await signInThroughForm(page, USER);
  await expect(page).toHaveURL(/\/sites$/);
  cookies = (await page.context().storageState()).cookies;
  await page.close();
});

test.afterAll(async () => {
  await new Promise((resolve) => site.close(resolve));
});

test.beforeEach(async ({ context }) => {
  await context.addCookies(cookies);
});

/** Tabs to `target` (unless the focus is there already) and presses `key` on it: how each action below is taken. */
async function press(page: Page, target: Locator, key = 'Enter', max = 80): Promise<void> {
  if (!(await target.evaluate((el) => el === document.activeElement))) await tabTo(page, target, max);
  await page.keyboard.press(key);
}

/** Where the focus is must be `where`, and never the page's body. */
async function expectFocusOn(page: Page, where: Locator): Promise<void> {
  await expect(where).toBeFocused();
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(false);
}

const siteNav = (page: Page) => page.getByRole('navigation', { name: 'Site sections' });

test('registering: the result takes the focus; a duplicate is linked by its name, not its id', async ({
  page,
}) => {
  await page.goto('/sites');
  await settled(page);
  await press(page, page.getByLabel('Root URL'), 'End');
  await page.keyboard.type(rootUrl);
  await press(page, page.getByRole('checkbox', { name: 'Accessibility' }), 'Space');
  await press(page, page.getByRole('button', { name: 'Register site' }));
  const registered = page.getByRole('status').filter({ hasText: `Registered ${HOST}.` });
  await expectFocusOn(page, registered);
  siteId =
    (await registered.getByRole('link', { name: `Open ${HOST}` }).getAttribute('href'))?.split('/').at(-1) ??
    '';
  expect(siteId).toMatch(/^[0-9a-f-]{36}$/);

  // The same root URL again: refused under the field, which takes the focus; the error names the
  // existing site by its hostname and links to it, and the earlier "Registered" line is gone.
  await press(page, page.getByLabel('Root URL'), 'End', 20);
  await page.keyboard.type(rootUrl);
  await press(page, page.getByRole('button', { name: 'Register site' }));
  const field = page.getByLabel('Root URL');
  await expectFocusOn(page, field);
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription(new RegExp(`is already registered as ${HOST}`));
  await expect(registered).toHaveCount(0);
  const form = page.getByRole('form', { name: 'Register a site' });
  await expect(form).not.toContainText(siteId);
  const existing = form.getByRole('link', { name: HOST, exact: true });
  await expect(existing).toHaveAttribute('href', `/sites/${siteId}`);
  await snap(page, 'focus-duplicate-site');
  await expectNoAxeViolations(page, 'sites list, duplicate site error');
  await press(page, existing, 'Enter', 10);
  await expect(page.getByRole('heading', { level: 1, name: HOST })).toBeVisible();
});

test("at 390 px the site's sections fold into one button naming the current one; at 1280 they are a row", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/sites/${siteId}`);
  const nav = siteNav(page);
  const toggle = nav.getByRole('button', { name: 'Section: Overview' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(nav.getByRole('link', { name: 'History' })).toBeHidden();
  // Folded, the navigation is one line: the content starts right below it.
  const folded = await nav.boundingBox();
  expect(folded?.height ?? 0).toBeLessThan(70);
  await settled(page);
  await snap(page, 'focus-site-nav-390-folded');
  await expectNoAxeViolations(page, 'site overview at 390 px, sections folded');

  await press(page, toggle);
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(nav.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
  await snap(page, 'focus-site-nav-390-open');
  await expectNoAxeViolations(page, 'site overview at 390 px, sections open');
  // Escape folds it again and leaves the focus on the button.
  await page.keyboard.press('Tab');
  await expect(nav.getByRole('link', { name: 'Overview' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expectFocusOn(page, toggle);

  // Open, on to History with the keyboard: the new page names its section on the button, folded.
  await page.keyboard.press('Enter');
  await press(page, nav.getByRole('link', { name: 'History' }), 'Enter', 15);
  await expect(page).toHaveURL(new RegExp(`/sites/${siteId}/history$`));
  await expect(nav.getByRole('button', { name: 'Section: History' })).toHaveAttribute(
    'aria-expanded',
    'false',
  );

  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(nav.getByRole('button')).toBeHidden();
  await expect(nav.getByRole('link', { name: 'History' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Settings' })).toBeVisible();
  await snap(page, 'focus-site-nav-1280');
});

test("at 390 px an admin's dashboard menu folds into one button naming the current page", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/sites');
  const nav = page.getByRole('navigation', { name: 'Dashboard' });
  const toggle = nav.getByRole('button', { name: 'Menu: Sites' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(nav.getByRole('link', { name: 'Members' })).toBeHidden();
  // Seven entries wrapped into three rows here; folded, the menu is one line.
  expect((await nav.boundingBox())?.height ?? 0).toBeLessThan(70);
  await settled(page);
  await snap(page, 'focus-dashboard-menu-390-folded');
  await expectNoAxeViolations(page, 'sites at 390 px, menu folded');

  await press(page, toggle);
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(nav.getByRole('link', { name: 'Sites' })).toHaveAttribute('aria-current', 'page');
  await snap(page, 'focus-dashboard-menu-390-open');
  await expectNoAxeViolations(page, 'sites at 390 px, menu open');
  await page.keyboard.press('Tab');
  await expect(nav.getByRole('link', { name: 'Sites' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expectFocusOn(page, toggle);

  // On to Members with the keyboard: the new page names itself on the folded button.
  await page.keyboard.press('Enter');
  await press(page, nav.getByRole('link', { name: 'Members' }), 'Enter', 15);
  await expect(page).toHaveURL(/\/members$/);
  await expect(nav.getByRole('button', { name: 'Menu: Members' })).toHaveAttribute('aria-expanded', 'false');

  // From 640 px the menu is a list again and the button is gone.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(nav.getByRole('button')).toBeHidden();
  await expect(nav.getByRole('link', { name: 'Members' })).toHaveAttribute('aria-current', 'page');
});

test('the Accessibility tab: suppressing a finding and undoing it put the focus on what happened', async ({
  page,
}) => {
  test.setTimeout(300_000);
  // "Crawl now" with the keyboard: the button stays (busy while the crawl runs, never disabled), so
  // the focus stays on it and the status line says what happened. The accessibility scan follows.
  await page.goto(`/sites/${siteId}`);
  const crawlNow = page.locator('#crawl').getByRole('button', { name: /^(Crawl now|Crawling…)$/ });
  // The first, scheduled crawl of this small site may be running: it ends within seconds.
  await expect(crawlNow).toHaveText('Crawl now', { timeout: 120_000 });
  await press(page, crawlNow, 'Enter', 60);
  // Said in the status line: the start, then (as it goes) the crawl's and the scan's progress.
  await expect(
    page.getByRole('status').filter({
      hasText:
        /^(Crawl started|A crawl is already running|Crawl in progress|Crawl finished: .*|Accessibility scan (in progress|finished))\.$/,
    }),
  ).toHaveCount(1);
  await expectFocusOn(page, crawlNow);
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/v1/sites/${siteId}/a11y-report`);
        if (res.status() !== 200) return 0;
        const report = (await res.json()) as { issues: Array<{ rule: string }> };
        return report.issues.filter((i) => i.rule === 'image-alt').length;
      },
      { timeout: 240_000, intervals: [3_000] },
    )
    .toBeGreaterThan(0);

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.goto(`/sites/${siteId}/accessibility`);
    await settled(page);
    const suppress = page.getByRole('button', { name: 'Suppress image-alt', exact: true });
    await press(page, suppress, 'Enter', 120);
    // A rule is suppressed everywhere: said in words, no radio group of one option.
    const form = page.locator('form').filter({ hasText: 'Suppress image-alt' });
    await expect(form.getByRole('radio')).toHaveCount(0);
    await expect(form).toContainText('this rule everywhere on the site');
    await expectFocusOn(page, form.getByLabel('Reason'));
    await expectNoAxeViolations(page, `accessibility tab at ${width} px, suppress form open`);
    await page.keyboard.type('Decorative logo, reviewed.');
    await press(page, form.getByRole('button', { name: 'Suppress', exact: true }), 'Enter', 5);
    const suppressed = page.getByRole('status').filter({ hasText: 'Suppressed image-alt' });
    await expectFocusOn(page, suppressed);
    await snap(page, `focus-a11y-suppressed-${width}`);

    // The suppressions are the last of the report's tabs (one tab stop; End selects the last).
    await tabTo(page, page.getByRole('tab', { name: /^Issues/ }), 150);
    await page.keyboard.press('End');
    await expect(page.getByRole('tab', { name: /^Suppressions/ })).toHaveAttribute('aria-selected', 'true');
    const undo = page.getByRole('button', { name: 'Undo suppression of image-alt' });
    await press(page, undo, 'Enter', 20);
    await expectFocusOn(page, page.getByRole('button', { name: 'Remove suppression' }));
    await page.keyboard.press('Enter');
    const removed = page.getByRole('status').filter({ hasText: 'Suppression of image-alt removed' });
    await expectFocusOn(page, removed);
    await expect(page.getByText('No suppressions')).toBeVisible();
    await expectNoAxeViolations(page, `accessibility tab at ${width} px, after undoing`);
  }
});

test("a monitor's actions: each puts the focus on its form or its result, and the last result goes with the next action", async ({
  page,
}) => {
  await page.goto(`/sites/${siteId}/uptime`);
  const newMonitor = page.getByRole('form', { name: 'New monitor' });
  // No monitor yet: the form is open at once.
  await press(page, newMonitor.getByLabel('URL', { exact: true }), 'End');
  await page.keyboard.type(`${rootUrl}health`);
  await press(page, newMonitor.getByRole('button', { name: 'Create monitor' }), 'Enter', 20);
  const created = page.getByRole('status').filter({ hasText: 'Monitor created' });
  await expectFocusOn(page, created);

  // "Add monitor": the form opens with the focus in it, and the creation's line goes.
  const add = page.getByRole('button', { name: 'Add monitor' });
  await press(page, add, 'Enter', 10);
  // The form's first field: what the monitor watches (a URL, checked, or a heartbeat); Tab goes on to
  // the URL.
  await expectFocusOn(page, newMonitor.getByRole('radio', { name: 'A URL (probed)' }));
  await expect(created).toHaveCount(0);
  await page.keyboard.press('Tab');
  await expectFocusOn(page, newMonitor.getByLabel('URL', { exact: true }));
  // A refused URL: the summary takes the focus, with no stale "Monitor created" above it.
  await page.keyboard.type('not a url');
  await press(page, newMonitor.getByRole('button', { name: 'Create monitor' }), 'Enter', 20);
  await expectFocusOn(page, newMonitor.getByText('There is a problem').locator('..'));
  await expect(page.getByText('Monitor created')).toHaveCount(0);
  await expectNoAxeViolations(page, 'uptime tab, new monitor refused');
  await press(page, newMonitor.getByRole('button', { name: 'Cancel' }), 'Enter', 30);
  await expectFocusOn(page, add);

  // The monitor's own page: Edit opens the form on its first field; Cancel gives the focus back.
  const monitorLink = page
    .getByRole('list', { name: 'Monitors' })
    .locator(`a[href^="/sites/${siteId}/uptime/"]`);
  await press(page, monitorLink.first(), 'Enter', 40);
  const edit = page.getByRole('button', { name: 'Edit', exact: true });
  await press(page, edit, 'Enter', 60);
  const editForm = page.getByRole('form', { name: 'Edit monitor' });
  await expectFocusOn(page, editForm.getByLabel('URL', { exact: true }));
  await press(page, editForm.getByRole('button', { name: 'Cancel' }), 'Enter', 30);
  await expectFocusOn(page, edit);

  // Save: the form goes, its result takes the focus.
  await press(page, edit, 'Enter', 5);
  await press(page, editForm.getByLabel('Name (optional)'), 'End', 5);
  await page.keyboard.type('Health');
  await press(page, editForm.getByRole('button', { name: 'Save monitor' }), 'Enter', 30);
  const saved = page.getByText('Monitor saved.');
  await expect(saved).toBeVisible();
  expect(await page.evaluate(() => document.activeElement?.textContent ?? '')).toContain('Monitor saved.');

  // Edit again: the "saved" line goes, so it cannot stand above this form's errors.
  await press(page, edit, 'Enter', 60);
  await expect(saved).toHaveCount(0);
  await press(page, editForm.getByRole('button', { name: 'Cancel' }), 'Enter', 30);

  // Pause: the result takes the focus.
  await press(page, page.getByRole('button', { name: 'Pause', exact: true }), 'Enter', 5);
  await expect(page.getByText(/^Monitor paused/)).toBeVisible();
  expect(await page.evaluate(() => document.activeElement?.textContent ?? '')).toContain('Monitor paused');
  await expectNoAxeViolations(page, 'monitor page, paused');
});

test("a site's own receivers: opening the editor focuses it, cancelling gives the focus back", async ({
  page,
}) => {
  await page.goto(`/sites/${siteId}/settings`);
  await settled(page);
  const open = page.getByRole('button', { name: 'Set receivers for this site' });
  await press(page, open, 'Enter', 120);
  const form = page.getByRole('form', { name: "This site's receivers" });
  await expectFocusOn(
    page,
    form.getByRole('checkbox', { name: "Also notify the organization's default receivers" }),
  );
  const section = page.locator('#notifications');
  await expectNoAxeViolations(page, 'site settings, own receivers open');
  // Cancel sits above the form: Shift+Tab reaches it from the form's first control.
  const cancel = section.getByRole('button', { name: 'Cancel' });
  for (let i = 0; i < 5 && !(await cancel.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('Shift+Tab');
  }
  await expect(cancel).toBeFocused();
  await page.keyboard.press('Enter');
  await expectFocusOn(page, open);
});

test('inviting someone who is a member already: the focus goes to the address, whose error it reads', async ({
  page,
}) => {
  await page.goto('/members');
  await settled(page);
  await press(page, page.getByLabel('Email address'), 'End');
  await page.keyboard.type(USER);
  await press(page, page.getByRole('button', { name: 'Send invitation' }), 'Enter', 5);
  const email = page.getByLabel('Email address');
  await expectFocusOn(page, email);
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toHaveAccessibleDescription(/member/i);
  await expectNoAxeViolations(page, 'members, invitation refused');
});
