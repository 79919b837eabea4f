import { type Browser, expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { tabTo } from './support/page';
import { uptimeOnlySite } from './support/sites';
import { snap } from './support/snap';
import { statusPageCard } from './support/status-pages';
import { publicVisitor, type VisitorOptions } from './support/visitor';

// One story: a site with two monitors, a public page listing one of them, then the dashboard page.
test.describe.configure({ mode: 'serial' });

const SLUG = 'e2e-status';
let siteId = '';
const monitorIds: string[] = [];

/** A visitor to the public page, without JavaScript unless asked. */
const visitor = (browser: Browser, options: Omit<VisitorOptions, 'ip'> = {}) =>
  publicVisitor(browser, { ip: '203.0.113.40', ...options });

test('a site with two monitors', async ({ page }) => {
  siteId = await uptimeOnlySite(page.request, 'https://statuspage-e2e.example/');
  for (const [name, path] of [
    ['Storefront', '/shop'],
    ['Back office', '/secret-back-office'],
  ]) {
    const res = await page.request.post(`/v1/sites/${siteId}/uptime/monitors`, {
      data: { url: `https://statuspage-e2e.example${path}`, name, cadenceSeconds: 3600 },
    });
    expect(res.status(), await res.text()).toBe(201);
    monitorIds.push(((await res.json()) as { monitor: { id: string } }).monitor.id);
  }
});

test('the Status pages page: nav entry, empty state; axe-clean at 1280 and 390 px', async ({ page }) => {
  await page.goto('/sites');
  await page
    .getByRole('navigation', { name: 'Dashboard' })
    .getByRole('link', { name: 'Status pages' })
    .click();
  await expect(page).toHaveURL(/\/status-pages$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Status pages' })).toBeVisible();
  await expect(page.getByText('No status pages yet', { exact: true })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Storefront' })).toBeVisible();
  await snap(page, 'status-pages-empty');
  await expectNoAxeViolations(page, 'status pages (none yet)');
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, 'status-pages-empty-390');
  await expectNoAxeViolations(page, 'status pages (none yet) at 390 px');
});

test('publish a page with the keyboard: the slug follows the title, errors lead to their field', async ({
  page,
}) => {
  await page.goto('/status-pages');
  await page.getByRole('button', { name: 'Create your first status page' }).click();
  const title = page.getByLabel('Title');
  await expect(title).toBeFocused();
  await page.keyboard.type('Statuspage E2E');
  await page.keyboard.press('Tab');
  const slug = page.getByLabel('Address');
  await expect(slug).toBeFocused();
  await expect(slug).toHaveValue('statuspage-e2e');
  // A reserved word: the API's message lands under the field, which takes the focus.
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('admin');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Our shop, live');
  await tabTo(page, page.getByRole('checkbox', { name: 'Storefront' }));
  await page.keyboard.press('Space');
  await tabTo(page, page.getByRole('button', { name: 'Publish status page' }));
  await page.keyboard.press('Enter');
  await expect(slug).toBeFocused();
  await expect(slug).toHaveAttribute('aria-invalid', 'true');
  await expect(slug).toHaveAccessibleDescription(/reserved/);
  await expectNoAxeViolations(page, 'status page form with an error');
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('e2e-status');
  await page.keyboard.press('Enter');
  const result = page.getByRole('status').filter({ hasText: 'Status page "Statuspage E2E" published' });
  await expect(result).toBeFocused();
  const card = statusPageCard(page, 'Statuspage E2E');
  await expect(card.getByRole('link', { name: /\/status\/e2e-status/ })).toBeVisible();
  await expect(card).toContainText('1 monitor: Storefront');
  // The form starts over for the next page.
  await expect(page.getByLabel('Title')).toHaveValue('');
  await expect(page.getByRole('checkbox', { name: 'Storefront' })).not.toBeChecked();
  await expect(card.getByLabel('Badge embed snippet for Statuspage E2E')).toHaveValue(
    /^<a href="http:\/\/localhost:\d+\/status\/e2e-status"><img src="http:\/\/localhost:\d+\/status\/e2e-status\/badge\.svg" alt="Statuspage E2E: status"><\/a>$/,
  );
  await snap(page, 'status-pages-list');
  await expectNoAxeViolations(page, 'status pages (one)');
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, 'status-pages-list-390');
  await expectNoAxeViolations(page, 'status pages (one) at 390 px');
});

test('the public page works without JavaScript: bars show their day on keyboard focus and on hover', async ({
  browser,
}) => {
  const { context, page } = await visitor(browser);
  const res = await page.goto(`/status/${SLUG}`);
  expect(res?.status()).toBe(200);
  expect(res?.headers()['set-cookie']).toBeUndefined();
  expect(res?.headers()['content-security-policy']).toMatch(/^default-src 'none'/);
  await expect(page.getByRole('heading', { level: 1, name: 'Statuspage E2E' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: 'Storefront', exact: true })).toBeVisible();
  await expect(page.getByText('Back office')).toHaveCount(0);
  await expect(page.getByText('secret-back-office')).toHaveCount(0);
  const bars = page
    .getByRole('list', { name: /Storefront: daily uptime, last 90 days/ })
    .getByRole('listitem');
  await expect(bars).toHaveCount(90);

  // Keyboard: the skip link, then the first day; the last day (today) by Shift+Tab from the next stop.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to incidents' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(bars.first()).toBeFocused();
  const tip = bars.first().locator('span');
  expect((await tip.boundingBox())?.width ?? 0).toBeGreaterThan(40);
  for (let i = 0; i < 89; i++) await page.keyboard.press('Tab');
  await expect(bars.last()).toBeFocused();
  await expect(bars.last()).toContainText(/uptime|Not monitored/);
  expect((await bars.last().locator('span').boundingBox())?.width ?? 0).toBeGreaterThan(40);
  await snap(page, 'status-public-focus');

  // Hover: a day in the middle shows its figure; the others stay hidden.
  await page.mouse.move(0, 0);
  await page.keyboard.press('Escape');
  await bars.nth(45).hover();
  expect((await bars.nth(45).locator('span').boundingBox())?.width ?? 0).toBeGreaterThan(40);
  expect((await bars.nth(10).locator('span').boundingBox())?.width ?? 0).toBeLessThanOrEqual(1);
  expect(await context.cookies()).toEqual([]);
  await context.close();
});

test('the policy allows no script: one injected into the page does not run', async ({ browser }) => {
  const { context, page } = await visitor(browser, { js: true });
  await page.goto(`/status/${SLUG}`);
  const ran = await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.injected = true';
    document.head.append(script);
    return (window as unknown as { injected?: boolean }).injected === true;
  });
  expect(ran).toBe(false);
  await context.close();
});

for (const dark of [false, true]) {
  for (const width of [1280, 390]) {
    const label = `${dark ? 'dark' : 'light'} ${width}`;
    test(`the public page is axe-clean, ${label}`, async ({ browser }) => {
      const { context, page } = await visitor(browser, { dark, width, bypassCSP: true, js: true });
      await page.goto(`/status/${SLUG}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await snap(page, `status-public-${dark ? 'dark' : 'light'}-${width}`);
      await expectNoAxeViolations(page, `status page, ${label}`);
      await context.close();
    });
  }
}

test('a visitor subscribes without JavaScript, by keyboard; the answer says only to check the inbox', async ({
  browser,
}) => {
  const { context, page } = await visitor(browser);
  await page.goto(`/status/${SLUG}`);
  const form = page.getByRole('region', { name: 'Get updates by email' });
  await form.getByLabel('Email address').fill('visitor@subscriber-e2e.example');
  await form.getByLabel('Email address').press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Check your inbox' })).toBeVisible();
  expect(await context.cookies()).toEqual([]);
  await page.getByRole('link', { name: 'Back to the status page' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Statuspage E2E' })).toBeVisible();
  await context.close();

  // The answer page: axe-clean, in the dark scheme at 390 px as well.
  for (const [dark, width] of [
    [false, 1280],
    [true, 390],
  ] as const) {
    const look = await visitor(browser, { dark, width, bypassCSP: true, js: true });
    await look.page.goto(`/status/${SLUG}`);
    await look.page.getByLabel('Email address').fill('another@subscriber-e2e.example');
    await look.page.getByRole('button', { name: 'Subscribe' }).click();
    await expect(look.page.getByRole('heading', { level: 1, name: 'Check your inbox' })).toBeVisible();
    await snap(look.page, `status-subscribed-${dark ? 'dark' : 'light'}-${width}`);
    await expectNoAxeViolations(look.page, `subscription answer, ${dark ? 'dark' : 'light'} ${width}`);
    await look.context.close();
  }
});

test('an unknown slug is a 404 page; the feed, JSON and badge answer with their types', async ({
  browser,
}) => {
  const { context, page } = await visitor(browser);
  const missing = await page.goto('/status/nobody-published-this');
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'No status page here' })).toBeVisible();
  for (const [file, type] of [
    ['summary.json', 'application/json'],
    ['feed.atom', 'application/atom+xml'],
    ['badge.svg', 'image/svg+xml'],
  ]) {
    const res = await page.request.get(`/status/${SLUG}/${file}`);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain(type);
  }
  await context.close();
});

test('edit from the list: the form takes the page, saving says so; then delete it with a confirmation', async ({
  page,
  browser,
}) => {
  await page.goto('/status-pages');
  const card = statusPageCard(page, 'Statuspage E2E');
  // Two visitors subscribed above; neither confirmed, so neither counts.
  await expect(card).toContainText('0 email subscribers');
  await card.getByRole('button', { name: 'Edit Statuspage E2E' }).click();
  await expect(page.getByRole('heading', { name: 'Edit “Statuspage E2E”' })).toBeVisible();
  const title = page.getByLabel('Title');
  await expect(title).toBeFocused();
  await title.fill('Statuspage E2E renamed');
  await page.getByRole('checkbox', { name: 'Show monitor URLs' }).check();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'saved' })).toBeFocused();
  const { context, page: visitorPage } = await visitor(browser);
  await visitorPage.goto(`/status/${SLUG}`);
  await expect(visitorPage.getByRole('heading', { level: 1, name: 'Statuspage E2E renamed' })).toBeVisible();
  await expect(visitorPage.getByText('https://statuspage-e2e.example/shop')).toBeVisible();

  const renamed = statusPageCard(page, 'renamed');
  await renamed.getByRole('button', { name: 'Delete Statuspage E2E renamed' }).click();
  await page.getByRole('button', { name: 'Delete now Statuspage E2E renamed' }).press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'deleted' })).toBeFocused();
  await expect(page.getByText('No status pages yet', { exact: true })).toBeVisible();
  // A server remembers a page's fingerprint for up to a second (lib/statuspages/cache.ts): the page
  // is gone within that bound, not necessarily at once. Asked without rendering (a navigation on a
  // loaded machine took 6 s, mostly Chromium's own), and with room for that load.
  await expect
    .poll(async () => (await visitorPage.request.get(`/status/${SLUG}`)).status(), { timeout: 15_000 })
    .toBe(404);
  await context.close();
});
