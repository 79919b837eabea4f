import { expect, type Page, test } from '@playwright/test';
import { signedInAsOwnUser } from './support/own-user';
import { bothWidths, tabTo } from './support/page';
import { uptimeOnlySite } from './support/sites';

/*
 * Issue 26 items 5 and 6 in Chromium: a heartbeat monitor made with the keyboard shows its ping URL
 * and cron line in full once; a real ping (the URL the page showed) turns it up; its page masks the
 * URL, and rotating (after a confirmation) shows the new one, focused, the old one refused. An http
 * monitor's expectations (status codes, a keyword that must not appear) are saved from the form and
 * read back by its edit form. axe-clean at 1280 and 390 px.
 */
test.describe.configure({ mode: 'serial' });
signedInAsOwnUser('heartbeats@example.com', '203.0.113.71');

const HOST = 'heartbeats.example.com';
let siteId = '';
let firstPingUrl = '';

const pingUrlOn = async (page: Page) =>
  (await page.locator('code').filter({ hasText: '/ping/' }).first().textContent())?.trim() ?? '';

test('a site of its own, with only the Uptime app on', async ({ page }) => {
  siteId = await uptimeOnlySite(page.request, `https://${HOST}/`);
});

test('create a heartbeat with the keyboard: the ping URL and cron line are shown once, in full', async ({
  page,
}) => {
  await page.goto(`/sites/${siteId}/uptime`);
  const form = page.getByRole('form', { name: 'New monitor' });
  const kind = form.getByRole('radio', { name: 'A URL (probed)' });
  await tabTo(page, kind);
  await page.keyboard.press('ArrowRight');
  await expect(form.getByRole('radio', { name: 'A job that pings (heartbeat)' })).toBeChecked();
  await expect(form.getByLabel('URL', { exact: true })).toHaveCount(0);
  await page.keyboard.press('Tab');
  await expect(form.getByLabel('Name', { exact: true })).toBeFocused();
  await page.keyboard.type('Nightly backup');
  await page.keyboard.press('Tab');
  const period = form.getByLabel('Period (minutes)');
  await expect(period).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('0');
  await tabTo(page, form.getByRole('button', { name: 'Create monitor' }));
  await page.keyboard.press('Enter');
  // Checked before sending: the summary takes focus and names the field.
  await expect(form.getByText('There is a problem').locator('..')).toBeFocused();
  await expect(period).toHaveAccessibleDescription(/whole number of minutes from 1/);
  await period.fill('1440');
  await form.getByLabel('Grace (minutes)').fill('30');
  await form.getByRole('button', { name: 'Create monitor' }).press('Enter');

  const result = page.getByRole('status').filter({ hasText: 'Heartbeat monitor created: Nightly backup' });
  await expect(result).toBeFocused();
  await expect(result).toContainText('Copy the ping URL now');
  firstPingUrl = await pingUrlOn(page);
  expect(firstPingUrl).toMatch(/\/ping\/hb_[A-Za-z0-9_-]{43}$/);
  await expect(
    result.locator('code').filter({ hasText: `curl -fsS -m 10 --retry 3 ${firstPingUrl}` }),
  ).toBeVisible();
  await expect(result.getByRole('button', { name: 'Copy ping url' })).toBeVisible();
  await bothWidths(page, 'heartbeat-created', 'heartbeat just created, its ping URL shown');
});

test('a ping to the URL the page showed keeps it up: plain text OK', async ({ page }) => {
  await page.goto(`/sites/${siteId}/uptime`);
  const row = page
    .getByRole('list', { name: 'Monitors' })
    .getByRole('listitem')
    .filter({ hasText: 'Nightly backup' });
  await expect(row).toContainText('Waiting for the first ping');
  const res = await page.request.get(firstPingUrl.replace(/^https?:\/\/[^/]+/, ''));
  expect(res.status()).toBe(200);
  expect(await res.text()).toBe('OK\n');
  await page.reload();
  await expect(row).toContainText('Expected every 1 day, 30 minutes of grace');
  await expect(row).toContainText('Up');
  await expect(row).not.toContainText('none yet');
});

test('its page masks the URL; rotating shows the new one, focused, and the old one stops working', async ({
  page,
}) => {
  await page.goto(`/sites/${siteId}/uptime`);
  await page.getByRole('link', { name: 'Nightly backup', exact: true }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Nightly backup' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: 'Ping URL' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: 'Probes' })).toHaveCount(0);
  // Its facts are a heartbeat's (nothing probes it), not a probed URL's cadence and timeout.
  const facts = page.locator('dl').first();
  const fact = (term: string) => facts.locator('div').filter({ has: page.getByText(term, { exact: true }) });
  await expect(fact('Expected every').locator('dd')).toHaveText('1 day');
  await expect(fact('Grace').locator('dd')).toHaveText('30 minutes');
  await expect(fact('Late after').locator('dd')).toContainText('UTC');
  await expect(facts).not.toContainText('Timeout');
  const masked = await pingUrlOn(page);
  expect(masked).toMatch(/\/ping\/hb_.{4}…$/);
  expect(firstPingUrl.startsWith(masked.slice(0, -1))).toBe(true);
  await bothWidths(page, 'heartbeat-page', 'heartbeat monitor page');

  const rotate = page.getByRole('button', { name: 'Rotate ping URL' });
  await tabTo(page, rotate);
  await page.keyboard.press('Enter');
  await expect(page.getByText('The current ping URL stops working at once. Rotate it?')).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'Rotate now' }), 3);
  await page.keyboard.press('Enter');
  await expect(page.getByText('Copy the ping URL now')).toBeVisible();
  await expect(
    page.getByText('Copy the ping URL now').locator('xpath=ancestor::div[@tabindex="-1"]'),
  ).toBeFocused();
  const fresh = await pingUrlOn(page);
  expect(fresh).toMatch(/\/ping\/hb_[A-Za-z0-9_-]{43}$/);
  expect(fresh).not.toBe(firstPingUrl);
  await bothWidths(page, 'heartbeat-rotated', 'heartbeat ping URL rotated');
  const path = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');
  expect((await page.request.get(path(firstPingUrl))).status()).toBe(404);
  expect((await page.request.post(path(fresh))).status()).toBe(200);
});

test('an http monitor keeps its expectations: status codes and a keyword that must not appear', async ({
  page,
}) => {
  await page.goto(`/sites/${siteId}/uptime`);
  await page.getByRole('button', { name: 'Add monitor' }).click();
  const form = page.getByRole('form', { name: 'New monitor' });
  await form.getByLabel('URL', { exact: true }).fill(`https://${HOST}/health`);
  await form.getByLabel('Name (optional)').fill('Health with expectations');
  const statuses = form.getByLabel('Expected status codes');
  await statuses.fill('200-299, 6000');
  await form.getByRole('button', { name: 'Create monitor' }).click();
  await expect(statuses).toHaveAccessibleDescription(/“6000” is not one/);
  await statuses.fill('200-299, 401');
  await form.getByLabel('Keyword', { exact: true }).fill('Database error');
  await form.getByLabel('The keyword must').selectOption('absent');
  await bothWidths(page, 'http-expectations-form', 'monitor form with expectations');
  await form.getByRole('button', { name: 'Create monitor' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Monitor created: Health with expectations' }),
  ).toBeFocused();

  await page.getByRole('link', { name: 'Health with expectations', exact: true }).first().click();
  await page.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('form', { name: 'Edit monitor' });
  await expect(edit.getByLabel('Expected status codes')).toHaveValue('200-299, 401');
  await expect(edit.getByLabel('Keyword', { exact: true })).toHaveValue('Database error');
  await expect(edit.getByLabel('The keyword must')).toHaveValue('absent');
  await expect(edit.getByRole('radio')).toHaveCount(0);
});
