import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { settled, tabTo } from './support/page';
import { uptimeOnlySite } from './support/sites';
import { snap } from './support/snap';

// One story on a site of its own: each step builds on the state the previous one left.
test.describe.configure({ mode: 'serial' });

const HOST = 'status.example.com';
let siteId = '';

const siteNav = (page: Page) => page.getByRole('navigation', { name: 'Site sections' });

test('a site of its own, with only the Uptime app on', async ({ page }) => {
  // No crawl app: the e2e server cannot reach the site, and nothing here needs a crawl.
  siteId = await uptimeOnlySite(page.request, `https://${HOST}/`);
});

test('the Uptime tab: empty state with the create form, axe-clean at 1280 and 390 px', async ({ page }) => {
  await page.goto(`/sites/${siteId}`);
  await siteNav(page).getByRole('link', { name: 'Uptime' }).click();
  await expect(page).toHaveURL(new RegExp(`/sites/${siteId}/uptime$`));
  await expect(siteNav(page).getByRole('link', { name: 'Uptime' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { level: 2, name: 'Uptime' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Add your first monitor' })).toBeVisible();
  await expect(page.getByRole('form', { name: 'New monitor' })).toBeVisible();
  await settled(page);
  await snap(page, 'uptime-empty');
  await expectNoAxeViolations(page, 'uptime tab (no monitor)');
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, 'uptime-empty-390');
  await expectNoAxeViolations(page, 'uptime tab (no monitor) at 390 px');
});

test('create a monitor with the keyboard: the error summary takes focus and leads to the field', async ({
  page,
}) => {
  await page.goto(`/sites/${siteId}/uptime`);
  const url = page.getByLabel('URL', { exact: true });
  await tabTo(page, url);
  await page.keyboard.type(`https://${HOST}/health`);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Name (optional)')).toBeFocused();
  await page.keyboard.type('Status page');
  await page.keyboard.press('Tab');
  const interval = page.getByLabel('Check interval');
  await expect(interval).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(interval).toHaveValue('300');
  await page.keyboard.press('Tab');
  const timeout = page.getByLabel('Timeout (seconds)');
  await expect(timeout).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('45');

  // A webhook row: its URL field takes focus when added.
  await tabTo(page, page.getByRole('button', { name: 'Add webhook' }), 8);
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Webhook 1 URL')).toBeFocused();
  await page.keyboard.type('https://hooks.slack.com/services/T0/B0/x');

  await tabTo(page, page.getByRole('button', { name: 'Create monitor' }), 4);
  await page.keyboard.press('Enter');
  const summary = page.getByText('There is a problem').locator('..');
  await expect(summary).toBeFocused();
  const link = summary.getByRole('link', { name: 'Timeout must be a whole number of seconds from 1 to 30' });
  await expect(link).toBeVisible();
  await expect(timeout).toHaveAttribute('aria-invalid', 'true');
  await expect(timeout).toHaveAccessibleDescription(/must be a whole number of seconds from 1 to 30/);
  await snap(page, 'uptime-form-errors');
  await expectNoAxeViolations(page, 'uptime create form with errors');

  await page.keyboard.press('Tab');
  await expect(link).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(timeout).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('15');
  await page.keyboard.press('Enter');

  const result = page.getByRole('status').filter({ hasText: 'Monitor created: Status page.' });
  await expect(result).toBeVisible();
  await expect(result).toBeFocused();
  await expect(
    page.getByRole('list', { name: 'Monitors' }).getByRole('heading', { name: 'Status page' }),
  ).toBeVisible();
});

test('a URL the service may not reach is refused by the API, the message under the field', async ({
  page,
}) => {
  await page.goto(`/sites/${siteId}/uptime`);
  await page.getByRole('button', { name: 'Add monitor' }).click();
  const form = page.getByRole('form', { name: 'New monitor' });
  await form.getByLabel('URL', { exact: true }).fill('http://127.0.0.1:8080/health');
  await form.getByRole('button', { name: 'Create monitor' }).click();
  const url = form.getByLabel('URL', { exact: true });
  await expect(url).toHaveAttribute('aria-invalid', 'true');
  await expect(url).toHaveAccessibleDescription(/loopback/);
  await expect(form.getByText('There is a problem').locator('..')).toBeFocused();
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('button', { name: 'Add monitor' })).toBeFocused();
});

test('the list shows the status in words, the 24-hour bar and the latency; axe-clean', async ({ page }) => {
  await page.goto(`/sites/${siteId}/uptime`);
  const row = page
    .getByRole('list', { name: 'Monitors' })
    .getByRole('listitem')
    .filter({ hasText: 'Status page' });
  await expect(
    row.getByRole('list', { name: /Status page: health per hour over the last 24 hours/ }),
  ).toBeVisible();
  await expect(row.getByRole('list', { name: /health per hour/ }).getByRole('listitem')).toHaveCount(24);
  await expect(row).toContainText('Every 5 minutes');
  await expect(row).toContainText(/Up|Degraded|Down|Not checked yet/);
  await settled(page);
  await snap(page, 'uptime-list');
  await expectNoAxeViolations(page, 'uptime tab (one monitor)');
});

test('the monitor page: regions, uptime, latency, incidents; pause and resume move focus to the result', async ({
  page,
}) => {
  await page.goto(`/sites/${siteId}/uptime`);
  await page.getByRole('link', { name: 'Status page', exact: true }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Status page' })).toBeVisible();
  await expect(siteNav(page).getByRole('link', { name: 'Uptime' })).toHaveAttribute('aria-current', 'page');
  // The e2e server probes from itself (no hosted regions): probes, not continents (issue 24 item 3).
  for (const name of ['Probes', 'Uptime', 'Latency by probe', 'Incidents in the last 90 days']) {
    await expect(page.getByRole('heading', { level: 3, name })).toBeVisible();
  }
  await expect(
    page.getByRole('list', { name: 'Latest result of each probe' }).getByRole('listitem'),
  ).toHaveCount(4);
  await expect(page.getByText(/All four probes run from this server \(one location\)/)).toBeVisible();
  await expect(page.getByRole('main').getByText(/North America|Europe|Asia|Oceania/)).toHaveCount(0);
  const uptime = page.getByRole('region', { name: 'Uptime' });
  for (const range of ['24 hours', '7 days', '30 days', '90 days']) {
    await expect(uptime.getByRole('term').filter({ hasText: range })).toBeVisible();
    await expect(page.getByRole('radio', { name: range })).toBeVisible();
  }
  await settled(page);
  await snap(page, 'uptime-monitor');
  await expectNoAxeViolations(page, 'uptime monitor page');

  await page.getByRole('radio', { name: '7 days' }).check();
  await page.getByRole('radio', { name: 'p50 (median)' }).check();
  await expectNoAxeViolations(page, 'uptime monitor page (7 days, p50)');

  await page.getByRole('button', { name: 'Pause' }).click();
  const paused = page.getByRole('status').filter({ hasText: 'Monitor paused' });
  await expect(paused).toBeVisible();
  await expect(paused.locator('xpath=..')).toBeFocused();
  await expect(page.getByText('Paused', { exact: true }).first()).toBeVisible();

  // Paused, and the site's Uptime app turned off too: the notice says Resume alone will not probe.
  const setApp = async (uptimeEnabled: boolean) =>
    expect((await page.request.patch(`/v1/sites/${siteId}`, { data: { uptimeEnabled } })).status()).toBe(200);
  await setApp(false);
  try {
    await page.reload();
    await expect(
      page.getByText("The site's Uptime app is also off, so resumed it stays stopped"),
    ).toBeVisible();
    await settled(page);
    await snap(page, 'uptime-monitor-paused-app-off');
    await expectNoAxeViolations(page, 'uptime monitor page (paused, app off)');
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect(
      page
        .getByRole('status')
        .filter({ hasText: 'Monitor resumed; it probes again once the Uptime app is on.' }),
    ).toBeVisible();
  } finally {
    await setApp(true);
  }
  await page.reload();
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Monitor paused' })).toBeVisible();
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Monitor resumed: all four probes check it now.' }),
  ).toBeVisible();
});

test('the monitor page polls its live state only while the browser tab is visible', async ({ page }) => {
  await page.goto(`/sites/${siteId}/uptime`);
  await page.getByRole('link', { name: 'Status page', exact: true }).click();
  await expect(page.getByRole('heading', { level: 3, name: 'Probes' })).toBeVisible();
  let polls = 0;
  page.on('request', (request) => {
    if (request.url().endsWith('/live')) polls += 1;
  });
  const setVisibility = (state: 'hidden' | 'visible') =>
    page.evaluate((value) => {
      Object.defineProperty(document, 'visibilityState', { value, configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    }, state);

  await expect.poll(() => polls, { timeout: 25_000 }).toBeGreaterThan(0);
  await setVisibility('hidden');
  polls = 0;
  // Longer than the 10 s poll interval: nothing is asked while hidden.
  await page.waitForTimeout(12_000);
  expect(polls).toBe(0);
  await setVisibility('visible');
  // Shown again, it catches up at once.
  await expect.poll(() => polls, { timeout: 5_000 }).toBeGreaterThan(0);
});

test('edit a monitor: the form opens in place and saving moves focus to the result', async ({ page }) => {
  await page.goto(`/sites/${siteId}/uptime`);
  await page.getByRole('link', { name: 'Status page', exact: true }).click();
  await page.getByRole('button', { name: 'Edit' }).click();
  const form = page.getByRole('form', { name: 'Edit monitor' });
  await expect(form.getByLabel('Timeout (seconds)')).toHaveValue('15');
  await expect(form.getByLabel('Webhook 1 URL')).toHaveValue('https://hooks.slack.com/services/T0/B0/x');
  await expectNoAxeViolations(page, 'uptime edit form');
  await form.getByLabel('Name (optional)').fill('Status page (edited)');
  await form.getByRole('button', { name: 'Save monitor' }).click();
  const saved = page.getByRole('status').filter({ hasText: 'Monitor saved.' });
  await expect(saved).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Status page (edited)' })).toBeVisible();
});

test('with the Uptime app off the tab leaves the nav and the page says so, linking to settings', async ({
  page,
}) => {
  const res = await page.request.patch(`/v1/sites/${siteId}`, { data: { uptimeEnabled: false } });
  expect(res.status()).toBe(200);
  await page.goto(`/sites/${siteId}`);
  await expect(siteNav(page).getByRole('link', { name: 'Accessibility' })).toBeVisible();
  await expect(siteNav(page).getByRole('link', { name: 'Uptime' })).toHaveCount(0);

  await page.goto(`/sites/${siteId}/uptime`);
  await expect(page.getByText('The Uptime app is off for this site')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Turn it on in settings' })).toHaveAttribute(
    'href',
    `/sites/${siteId}/settings`,
  );
  // The monitors and their history are kept, stopped.
  await expect(page.getByRole('list', { name: 'Monitors' })).toContainText('Stopped: the Uptime app is off');
  await settled(page);
  await snap(page, 'uptime-app-off');
  await expectNoAxeViolations(page, 'uptime tab (app off)');
  expect((await page.request.patch(`/v1/sites/${siteId}`, { data: { uptimeEnabled: true } })).status()).toBe(
    200,
  );
});

test('delete a monitor after confirming: the list says so, with focus on it', async ({ page }) => {
  await page.goto(`/sites/${siteId}/uptime`);
  await page.getByRole('link', { name: 'Status page (edited)' }).click();
  await expect(page).toHaveTitle(/^Status page \(edited\) · Uptime · status\.example\.com/);
  const monitorPath = new URL(page.url()).pathname;
  await page.getByRole('button', { name: 'Delete monitor' }).click();
  const confirm = page.getByRole('button', { name: 'Delete it and its history' });
  await expect(confirm).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/sites/${siteId}/uptime\\?deleted=`));
  const result = page.getByRole('status').filter({ hasText: 'Monitor Status page (edited) deleted' });
  await expect(result).toBeVisible();
  await expect(result).toBeFocused();
  await expect(page.getByRole('heading', { name: 'Add your first monitor' })).toBeVisible();

  // A deleted monitor, and a malformed id, are the 404 page.
  await page.goto(monitorPath);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await page.goto(`/sites/${siteId}/uptime/not-a-uuid`);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  // The site goes too, freeing its slot for the other stories.
  expect((await page.request.delete(`/v1/sites/${siteId}`)).status()).toBeLessThan(300);
});
