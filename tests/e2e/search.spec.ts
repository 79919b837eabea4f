import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { settled, tabTo } from './support/page';
import { snap } from './support/snap';

/*
 * The Search tab on the production server's defaults: no Google OAuth client (GOOGLE_CLIENT_ID
 * unset), so the connection is `configured: false`, and lib/net refuses loopback, so no Google
 * stand-in can be reached from here. Connecting, choosing a property, the traffic and disconnecting
 * are exercised on a dev server against tests/support/google.ts, and the tab's read in
 * tests/integration/dashboard-search.test.ts.
 */
test.describe.configure({ mode: 'serial' });

const HOST = 'search-tab.example.com';
let siteId = '';

const siteNav = (page: Page) => page.getByRole('navigation', { name: 'Site sections' });

test('a site of its own with the SEO app on (no crawl app: nothing here needs a crawl)', async ({ page }) => {
  const res = await page.request.post('/v1/sites', {
    data: { rootUrl: `https://${HOST}/`, scannerEnabled: false, seoEnabled: true, performanceEnabled: false },
  });
  expect(res.status()).toBe(201);
  siteId = ((await res.json()) as { site: { id: string } }).site.id;
});

test('without a Google client on the server the tab says so plainly, with no Connect button; axe-clean at 1280 and 390 px', async ({
  page,
}) => {
  await page.goto(`/sites/${siteId}`);
  const tab = siteNav(page).getByRole('link', { name: 'Search' });
  await tabTo(page, tab);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/sites/${siteId}/search$`));
  await expect(tab).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { level: 2, name: 'Search', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Connect Google Search Console' })).toBeVisible();
  await expect(
    page.getByRole('status').filter({ hasText: 'Search Console is not set up on this server' }),
  ).toContainText('GOOGLE_CLIENT_ID');
  await expect(page.getByRole('button', { name: /Connect/ })).toHaveCount(0);
  // The API agrees: nothing to connect to.
  const connection = await page.request.get(`/v1/sites/${siteId}/search`);
  expect(await connection.json()).toMatchObject({ configured: false, status: null });
  expect((await page.request.post(`/v1/sites/${siteId}/search/connect`)).status()).toBe(409);
  await settled(page);
  await snap(page, 'search-not-configured');
  await expectNoAxeViolations(page, 'search tab (not configured)');
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, 'search-not-configured-390');
  await expectNoAxeViolations(page, 'search tab (not configured) at 390 px');
});

test("Google's refusal, sent back by the callback, is announced and takes the focus", async ({ page }) => {
  await page.goto(`/sites/${siteId}/search?error=access_denied`);
  const alert = page.getByRole('alert').filter({ hasText: 'Not connected' });
  await expect(alert).toContainText('Access was not granted on Google’s screen');
  await expect(alert).toBeFocused();
  await snap(page, 'search-callback-error');
  await expectNoAxeViolations(page, 'search tab (callback error)');

  // An error code the callback never sends still reads as plain words, not the code.
  await page.goto(`/sites/${siteId}/search?error=toString`);
  await expect(page.getByRole('alert').filter({ hasText: 'Not connected' })).toContainText(
    'The connection to Google did not complete. Try again.',
  );
});

test('with the SEO app off the tab says so and links to the settings, by keyboard', async ({ page }) => {
  const res = await page.request.patch(`/v1/sites/${siteId}`, { data: { seoEnabled: false } });
  expect(res.status()).toBe(200);
  await page.goto(`/sites/${siteId}/search`);
  await expect(page.getByText('The SEO app is off for this site')).toBeVisible();
  const settings = page.getByRole('main').getByRole('link', { name: 'Turn it on in settings' });
  await tabTo(page, settings);
  await snap(page, 'search-seo-off');
  await expectNoAxeViolations(page, 'search tab (SEO app off)');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/sites/${siteId}/settings$`));
});
