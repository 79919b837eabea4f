import { type Browser, expect, type Locator, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { signedInAsOwnUser } from './support/own-user';
import { bothWidths, settled, tabTo } from './support/page';
import { uptimeOnlySite } from './support/sites';
import { snap } from './support/snap';
import { publicVisitor, type VisitorOptions } from './support/visitor';

/*
 * Maintenance windows (issue 26 item 3) in Chromium: the Maintenance part of a site's Uptime tab
 * (the calendar list by state, the form by keyboard with its errors, End now, delete), and a public
 * status page announcing the windows. The site's monitors point at a host that does not resolve, so
 * they fail from their first round: inside the window that opened before them, no incident opens.
 */
test.describe.configure({ mode: 'serial' });
signedInAsOwnUser('maintenance@example.com', '203.0.113.72');

const HOST = 'maintenance-e2e.example';
const SLUG = 'e2e-maintenance';
let siteId = '';
const monitorIds: string[] = [];

/** A window's title as listed (its buttons repeat it for screen readers, out of sight). */
const windowTitle = (scope: Locator, title: string) =>
  scope.getByRole('paragraph').filter({ hasText: title });

/** A visitor to the public page, without JavaScript unless asked. */
const visitor = (browser: Browser, options: Omit<VisitorOptions, 'ip'> = {}) =>
  publicVisitor(browser, { ip: '203.0.113.41', ...options });

test('a site under maintenance since before its two monitors', async ({ page }) => {
  siteId = await uptimeOnlySite(page.request, `https://${HOST}/`);
  const now = Date.now();
  const window = await page.request.post(`/v1/sites/${siteId}/maintenance-windows`, {
    data: { title: 'Data centre move', startsAt: now, endsAt: now + 2 * 3_600_000 },
  });
  expect(window.status(), await window.text()).toBe(201);
  for (const [name, path] of [
    ['Storefront', '/shop'],
    ['Checkout', '/checkout'],
  ]) {
    const res = await page.request.post(`/v1/sites/${siteId}/uptime/monitors`, {
      data: { url: `https://${HOST}${path}`, name, cadenceSeconds: 3600 },
    });
    expect(res.status(), await res.text()).toBe(201);
    monitorIds.push(((await res.json()) as { monitor: { id: string } }).monitor.id);
  }
});

test('the Maintenance part lists the window under way; axe-clean at 1280 and 390 px', async ({ page }) => {
  await page.goto(`/sites/${siteId}/uptime`);
  const part = page.getByRole('region', { name: 'Maintenance' });
  await expect(part.getByRole('heading', { name: /Under way/ })).toBeVisible();
  await expect(windowTitle(part, 'Data centre move')).toBeVisible();
  await expect(part.getByText('Covers: All monitors of the site')).toBeVisible();
  await settled(page);
  await bothWidths(page, 'maintenance-under-way', 'uptime tab with maintenance under way');
});

test('schedule a window by keyboard: errors lead to their field, the result is announced', async ({
  page,
}) => {
  await page.goto(`/sites/${siteId}/uptime`);
  await settled(page);
  const title = page.getByLabel('What is the work?');
  await tabTo(page, title, 120);
  // Sent empty: the error is under the title, which keeps the focus.
  await page.getByRole('button', { name: 'Schedule maintenance' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Say what the work is')).toBeVisible();
  await expect(title).toBeFocused();
  await page.keyboard.type('Payment provider switch');
  // An end before the start: refused on the end, which takes the focus.
  const start = Date.now() + 26 * 3_600_000;
  const local = (ms: number) => new Date(ms).toISOString().slice(0, 16);
  await page.getByLabel('Starts (UTC)').fill(local(start));
  await page.getByLabel('Ends (UTC)').fill(local(start - 3_600_000));
  await page.getByRole('button', { name: 'Schedule maintenance' }).press('Enter');
  await expect(page.getByText('Must be after the start.')).toBeVisible();
  await expect(page.getByLabel('Ends (UTC)')).toBeFocused();
  await page.getByLabel('Ends (UTC)').fill(local(start + 90 * 60_000));
  // Only the checkout: untick "every monitor", tick it.
  await tabTo(page, page.getByLabel('Every monitor of this site'));
  await page.keyboard.press('Space');
  await tabTo(page, page.getByRole('checkbox', { name: 'Checkout' }));
  await page.keyboard.press('Space');
  await snap(page, 'maintenance-form');
  await tabTo(page, page.getByRole('button', { name: 'Schedule maintenance' }));
  await page.keyboard.press('Enter');
  const said = page
    .getByRole('status')
    .filter({ hasText: 'Maintenance "Payment provider switch" scheduled' });
  await expect(said).toBeVisible();
  await expect(said).toBeFocused();
  const part = page.getByRole('region', { name: 'Maintenance' });
  const upcoming = part.getByRole('region', { name: /Upcoming/ });
  await expect(windowTitle(upcoming, 'Payment provider switch')).toBeVisible();
  await expect(upcoming.getByText('Covers: Checkout')).toBeVisible();
  await bothWidths(page, 'maintenance-scheduled', 'uptime tab with maintenance scheduled');
});

test('the API refuses a window in the past, and its answer lands under the field', async ({ page }) => {
  await page.goto(`/sites/${siteId}/uptime`);
  await settled(page);
  await page.getByLabel('What is the work?').fill('Backfill');
  const local = (ms: number) => new Date(ms).toISOString().slice(0, 16);
  await page.getByLabel('Starts (UTC)').fill(local(Date.now() - 3 * 3_600_000));
  await page.getByLabel('Ends (UTC)').fill(local(Date.now() - 2 * 3_600_000));
  await page.getByRole('button', { name: 'Schedule maintenance' }).press('Enter');
  await expect(page.getByText(/must not be in the past/)).toBeVisible();
  await expect(page.getByLabel('Starts (UTC)')).toBeFocused();
});

test('a status page announces the windows and shows the monitors under maintenance', async ({
  page,
  browser,
}) => {
  const created = await page.request.post('/v1/status-pages', {
    data: { slug: SLUG, title: 'Maintenance E2E', monitorIds },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { context, page: visit } = await visitor(browser);
  await visit.goto(`/status/${SLUG}`);
  await expect(visit.getByRole('heading', { level: 2, name: 'Maintenance under way' })).toBeVisible();
  // Exactly: the overall status's region is named "Maintenance under way".
  const section = visit.getByRole('region', { name: 'Maintenance', exact: true });
  await expect(section.getByText('Data centre move')).toBeVisible();
  await expect(section.getByText('Under way')).toBeVisible();
  await expect(section.getByText('Payment provider switch')).toBeVisible();
  await expect(section.getByText('Scheduled')).toBeVisible();
  await expect(section.getByText('Affects Checkout.', { exact: false })).toBeVisible();
  await expect(visit.getByText('Under maintenance')).toHaveCount(2);
  // Failing since their first round, inside the window: no incident.
  await expect(visit.getByText('No incidents in the last 90 days.')).toBeVisible();
  await snap(visit, 'maintenance-status-page');
  // axe-core runs as a script: in a visitor with JavaScript, and the policy bypassed to inject it.
  for (const width of [1280, 390]) {
    const checked = await visitor(browser, { js: true, bypassCSP: true, width });
    await checked.page.goto(`/status/${SLUG}`);
    if (width === 390) await snap(checked.page, 'maintenance-status-page-390');
    await expectNoAxeViolations(checked.page, `status page with maintenance at ${width} px`);
    await checked.context.close();
  }
  const summary = (await (await visit.request.get(`/status/${SLUG}/summary.json`)).json()) as {
    status: string;
    maintenance: { title: string; state: string; monitors: { name: string }[] }[];
  };
  expect(summary.status).toBe('maintenance');
  expect(summary.maintenance.map((w) => [w.title, w.state, w.monitors.map((m) => m.name)])).toEqual([
    ['Data centre move', 'active', ['Storefront', 'Checkout']],
    ['Payment provider switch', 'upcoming', ['Checkout']],
  ]);
  const feed = await (await visit.request.get(`/status/${SLUG}/feed.atom`)).text();
  expect(feed).toContain('Maintenance (scheduled): Payment provider switch');
  await context.close();
});

test('End now and delete, by keyboard', async ({ page }) => {
  await page.goto(`/sites/${siteId}/uptime`);
  await settled(page);
  const part = page.getByRole('region', { name: 'Maintenance' });
  const endNow = part.getByRole('button', { name: 'End now Data centre move' });
  await tabTo(page, endNow, 150);
  await page.keyboard.press('Enter');
  const ended = page.getByRole('status').filter({ hasText: 'Maintenance "Data centre move" ended' });
  await expect(ended).toBeFocused();
  await expect(windowTitle(part.getByRole('region', { name: /Past/ }), 'Data centre move')).toBeVisible();
  const remove = part.getByRole('button', { name: 'Delete Payment provider switch' });
  await tabTo(page, remove, 150);
  await page.keyboard.press('Enter');
  await expect(part.getByRole('button', { name: 'Delete now Payment provider switch' })).toBeFocused();
  await page.keyboard.press('Enter');
  const deleted = page
    .getByRole('status')
    .filter({ hasText: 'Maintenance "Payment provider switch" deleted' });
  await expect(deleted).toBeFocused();
  // No window of that name is listed (the status line that names it stays).
  await expect(part.getByRole('listitem').filter({ hasText: 'Payment provider switch' })).toHaveCount(0);
  await bothWidths(page, 'maintenance-past', 'uptime tab with past maintenance');
});
