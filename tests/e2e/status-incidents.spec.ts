import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { signedInAsOwnUser } from './support/own-user';
import { bothWidths, tabTo } from './support/page';
import { uptimeOnlySite } from './support/sites';
import { statusPageCard } from './support/status-pages';
import { publicVisitor } from './support/visitor';

// One story (issue 26 item 2): a status page, a manual incident opened from the dashboard with the
// keyboard, updates posted on it up to its resolution, and the public page (no JavaScript) saying so.
test.describe.configure({ mode: 'serial' });
signedInAsOwnUser('status-incidents@example.com', '203.0.113.73');

const SLUG = 'e2e-incidents';
const TITLE = 'Incidents E2E';
/** The monitored API answers 200 (127.0.0.13 is in PRIVATE_NETWORKS of playwright.config.ts): the
 * only incident on the page is the one opened by hand, and the headline comes back when it closes. */
const HOST = '127.0.0.13';
let api: Server;
let root = '';

test.beforeAll(async () => {
  api = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
  await new Promise<void>((resolve) => api.listen(0, HOST, resolve));
  root = `http://${HOST}:${(api.address() as AddressInfo).port}/`;
});

test.afterAll(async () => {
  await new Promise((resolve) => api.close(resolve));
});

test('a page listing one monitor', async ({ page }) => {
  const siteId = await uptimeOnlySite(page.request, root);
  const monitor = await page.request.post(`/v1/sites/${siteId}/uptime/monitors`, {
    data: { url: `${root}api`, name: 'Public API', cadenceSeconds: 3600 },
  });
  expect(monitor.status(), await monitor.text()).toBe(201);
  const monitorId = ((await monitor.json()) as { monitor: { id: string } }).monitor.id;
  const made = await page.request.post('/v1/status-pages', {
    data: { slug: SLUG, title: TITLE, monitorIds: [monitorId] },
  });
  expect(made.status(), await made.text()).toBe(201);
});

test('open an incident and post updates with the keyboard; axe-clean at 1280 and 390 px', async ({
  page,
}) => {
  await page.goto('/status-pages');
  const card = statusPageCard(page, TITLE);
  const toggle = card.getByRole('button', { name: `Incidents of ${TITLE}` });
  await tabTo(page, toggle);
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(card.getByText('No incidents in the last 90 days.')).toBeVisible();
  await bothWidths(page, 'status-incidents-empty', 'status page incidents (none)');

  await tabTo(page, card.getByRole('button', { name: `Open incident on ${TITLE}` }));
  await page.keyboard.press('Enter');
  const form = card.getByRole('form', { name: `Open an incident on ${TITLE}` });
  await expect(form.getByLabel('Title')).toBeFocused();
  // An empty message is refused by the browser's own check first; the API's 422 would land on the field.
  await page.keyboard.type('Email delivery delayed');
  await page.keyboard.press('Tab');
  await expect(form.getByLabel('Impact')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(form.getByLabel('Impact')).toHaveValue('partial_outage');
  await tabTo(page, form.getByLabel('Message to visitors'));
  await page.keyboard.type('Our mail provider is slow.');
  await bothWidths(page, 'status-incidents-open-form', 'open incident form');
  await tabTo(page, form.getByRole('button', { name: 'Open incident' }));
  await page.keyboard.press('Enter');
  const opened = card.getByRole('status').filter({ hasText: 'Incident “Email delivery delayed” opened' });
  await expect(opened).toBeFocused();
  const incident = card.getByRole('listitem').filter({ hasText: 'Email delivery delayed' });
  await expect(incident).toContainText('Our mail provider is slow.');
  await expect(incident).toContainText('Ongoing');

  await tabTo(page, incident.getByRole('button', { name: 'Post update on Email delivery delayed' }));
  await page.keyboard.press('Enter');
  const update = incident.getByRole('form', { name: 'Post an update on Email delivery delayed' });
  await tabTo(page, update.getByLabel('Status'));
  await page.keyboard.press('ArrowDown');
  await expect(update.getByLabel('Status')).toHaveValue('identified');
  await tabTo(page, update.getByLabel('Message to visitors'));
  await page.keyboard.type('A queue is stuck.\n\nRestarting it now.');
  await bothWidths(page, 'status-incidents-update-form', 'post update form');
  await tabTo(page, update.getByRole('button', { name: 'Post update' }));
  await page.keyboard.press('Enter');
  await expect(
    card.getByRole('status').filter({ hasText: 'Update posted on “Email delivery delayed”: identified.' }),
  ).toBeFocused();
  await expect(
    incident.getByRole('list', { name: 'Updates, newest first' }).getByRole('listitem'),
  ).toHaveCount(2);
  await bothWidths(page, 'status-incidents-listed', 'status page incidents (one open)');
});

test('the public page shows the incident, its standing and updates without JavaScript', async ({
  browser,
}) => {
  const { context, page } = await publicVisitor(browser, { ip: '203.0.113.41' });
  // The page's fingerprint is held a second per process: the post shows within it.
  await expect(async () => {
    await page.goto(`/status/${SLUG}`);
    await expect(page.getByRole('heading', { level: 2, name: 'Partial outage' })).toBeVisible({
      timeout: 1000,
    });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByRole('heading', { level: 3, name: 'Email delivery delayed' })).toBeVisible();
  await expect(page.getByText('Identified · Partial outage')).toBeVisible();
  await expect(page.getByText('Restarting it now.')).toBeVisible();
  await context.close();
});

test('resolving it from the dashboard closes it and gives the headline back to the monitors', async ({
  page,
  browser,
}) => {
  await page.goto('/status-pages');
  const card = statusPageCard(page, TITLE);
  await card.getByRole('button', { name: `Incidents of ${TITLE}` }).click();
  const incident = card.getByRole('listitem').filter({ hasText: 'Email delivery delayed' });
  await incident.getByRole('button', { name: 'Post update on Email delivery delayed' }).click();
  const update = incident.getByRole('form', { name: 'Post an update on Email delivery delayed' });
  await update.getByLabel('Status').selectOption('resolved');
  await update.getByLabel('Message to visitors').fill('Mail flows again.');
  await update.getByRole('button', { name: 'Post update' }).click();
  await expect(incident).toContainText('Resolved');
  await expect(incident.getByText('Ongoing')).toHaveCount(0);

  const { context: visitor, page: publicPage } = await publicVisitor(browser, { ip: '203.0.113.42' });
  await expect(async () => {
    await publicPage.goto(`/status/${SLUG}`);
    await expect(publicPage.getByText('Mail flows again.')).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(publicPage.getByRole('heading', { level: 2, name: 'Partial outage' })).toHaveCount(0);
  await visitor.close();
});
