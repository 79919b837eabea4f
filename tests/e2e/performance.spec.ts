import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { settled, tabTo } from './support/page';
import { snap } from './support/snap';

/*
 * The Performance tab on the production server's defaults: no CrUX API key (CRUX_API_KEY unset),
 * and lib/net refuses loopback, so no CrUX stand-in can be reached from here. What this server can
 * show is covered here: "not configured" (never a zero), and the app turned off. The data states
 * (verdict, bands, trends, the device switch, Sync now, no-data) are read against
 * tests/support/google.ts in tests/integration/dashboard-performance-view.test.ts and looked at on a dev server.
 */
test.describe.configure({ mode: 'serial' });

const HOST = 'perf-tab.example.com';
let siteId = '';

const siteNav = (page: Page) => page.getByRole('navigation', { name: 'Site sections' });

test('a site of its own with the Performance app on (no crawl app: nothing here needs a crawl)', async ({
  page,
}) => {
  const res = await page.request.post('/v1/sites', {
    data: { rootUrl: `https://${HOST}/`, scannerEnabled: false, seoEnabled: false, performanceEnabled: true },
  });
  expect(res.status()).toBe(201);
  siteId = ((await res.json()) as { site: { id: string } }).site.id;
});

test('without a CrUX key the tab says field data is not configured, offers no sync and shows no figures; axe-clean at 1280 and 390 px', async ({
  page,
}) => {
  await page.goto(`/sites/${siteId}`);
  const tab = siteNav(page).getByRole('link', { name: 'Performance' });
  await tabTo(page, tab);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/sites/${siteId}/performance$`));
  await expect(tab).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { level: 2, name: 'Performance' })).toBeVisible();
  await expect(page.getByText('Field data is not configured for this installation')).toBeVisible();
  await expect(page.getByText(/CRUX_API_KEY/)).toBeVisible();
  await expect(page.getByRole('button', { name: /Sync/ })).toHaveCount(0);
  // An empty state, not a report of zeros.
  await expect(page.getByRole('radiogroup')).toHaveCount(0);
  await expect(page.getByRole('main')).not.toContainText(/\b0 ms\b|Passes|Fails/);
  // The API agrees: no data to show, and nothing to sync with.
  const report = await page.request.get(`/v1/sites/${siteId}/fielddata`);
  expect(report.status()).toBe(404);
  expect(((await report.json()) as { error: string }).error).toContain('CRUX_API_KEY');
  expect((await page.request.post(`/v1/sites/${siteId}/fielddata/sync`)).status()).toBe(409);
  await settled(page);
  await snap(page, 'performance-not-configured');
  await expectNoAxeViolations(page, 'performance tab (not configured)');
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, 'performance-not-configured-390');
  await expectNoAxeViolations(page, 'performance tab (not configured) at 390 px');
});

test('with the app off the tab says so and leads to the settings by keyboard', async ({ page }) => {
  const off = await page.request.patch(`/v1/sites/${siteId}`, { data: { performanceEnabled: false } });
  expect(off.status()).toBe(200);
  await page.goto(`/sites/${siteId}/performance`);
  await expect(page.getByText('The Performance app is off for this site')).toBeVisible();
  await expect(page.getByText('Field data is not configured')).toHaveCount(0);
  await settled(page);
  await snap(page, 'performance-off');
  await expectNoAxeViolations(page, 'performance tab (app off)');
  const link = page.getByRole('link', { name: 'Turn it on in settings' });
  await tabTo(page, link);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/sites/${siteId}/settings$`));
});
