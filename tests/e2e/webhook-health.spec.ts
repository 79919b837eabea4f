import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { settled, tabTo } from './support/page';
import { snap } from './support/snap';

/*
 * A webhook receiver that keeps failing, as an owner sees it (issue 23 item 2): a real HTTP server
 * on loopback (127.0.0.9, an address playwright.config.ts lets the server reach) answers 500 to
 * everything. Two monitors of a new site probe it, go down, and alert their webhook on it; the
 * delivery job's attempts fail until the receiver's circuit opens (3 in a row: the two alerts, then
 * the first retry a minute later). The notifications page's "Webhook health" then shows it open,
 * axe-clean at 1280 and 390 px, and leads by keyboard to the deliveries it holds.
 */
test.describe.configure({ mode: 'serial' });

const HOST = '127.0.0.9';
let server: Server;
let origin = '';
let hookCalls = 0;

test.beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/hook') hookCalls++;
    req.resume();
    res.writeHead(500, { 'content-type': 'text/plain' }).end('receiver broken');
  });
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  origin = `http://${HOST}:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function bothWidths(page: Page, name: string, label: string) {
  await settled(page);
  await snap(page, name);
  await expectNoAxeViolations(page, label);
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, `${name}-390`);
  await expectNoAxeViolations(page, `${label} at 390 px`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 900 });
}

type Receivers = { receivers: { kind: string; url: string; health: { circuit: string } }[] };

test('a receiver answering 500 fails until its circuit opens; Webhook health shows it, by keyboard to its deliveries', async ({
  page,
}) => {
  test.setTimeout(300_000);
  // A site and two monitors more, whatever the story before used up (this spec runs last).
  const billing = await page.request.patch('/v1/billing', { data: { overageEnabled: true } });
  expect(billing.status(), await billing.text()).toBe(200);
  const site = await page.request.post('/v1/sites', {
    data: {
      rootUrl: 'https://webhook-health.example.com/',
      scannerEnabled: false,
      seoEnabled: false,
      performanceEnabled: false,
    },
  });
  expect(site.status()).toBe(201);
  const siteId = ((await site.json()) as { site: { id: string } }).site.id;
  for (const name of ['Broken home', 'Broken API']) {
    const monitor = await page.request.post(`/v1/sites/${siteId}/uptime/monitors`, {
      data: {
        url: `${origin}/${name.toLowerCase().replace(' ', '-')}`,
        name,
        alertWebhooks: [{ kind: 'http', url: `${origin}/hook` }],
      },
    });
    expect(monitor.status(), await monitor.text()).toBe(201);
  }

  // The monitors' down alerts are delivered, fail, and are retried: the third failure opens it.
  const circuit = async () => {
    const res = await page.request.get('/v1/notifications/receivers');
    const { receivers } = (await res.json()) as Receivers;
    return receivers.find((r) => r.url.startsWith(origin))?.health.circuit ?? 'not sent to yet';
  };
  await expect.poll(circuit, { timeout: 240_000, intervals: [2_000] }).toBe('open');
  expect(hookCalls).toBeGreaterThanOrEqual(3);

  await page.goto('/notifications');
  await settled(page);
  const health = page.getByRole('region', { name: 'Webhook health' });
  const row = health.getByRole('row').filter({ hasText: origin });
  await expect(row).toContainText('Circuit open');
  await expect(row).toContainText(
    /\d+ failed attempts in a row: nothing is sent until .*, then one trial delivery\./,
  );
  await expect(row).toContainText(/HTTP 500|500/);
  await bothWidths(page, 'notifications-webhook-health', 'Webhook health with an open circuit');

  // By keyboard, from the section to the deliveries the open circuit holds.
  const waiting = health.getByRole('link', { name: 'see the waiting deliveries in the delivery log' });
  await tabTo(page, waiting, 150);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/notifications\/deliveries\?state=pending$/);
  await settled(page);
  await expect(page.getByLabel('State')).toHaveValue('pending');
  // The deliveries the paused webhook holds, waiting with their retry, and nothing else.
  const table = page.getByRole('table', { name: 'Notification deliveries, newest first' });
  await expect(
    table
      .getByRole('row')
      .filter({ hasText: origin })
      .filter({ hasText: /Circuit (open|half-open)/ }),
  ).toHaveCount(2);
  // The outcome cell starts with the state: only pending ones are listed.
  await expect(table.getByRole('cell', { name: /^pending / }).first()).toBeVisible();
  await expect(table.getByRole('cell', { name: /^(sent|cancelled|failed|sending) / })).toHaveCount(0);
});
