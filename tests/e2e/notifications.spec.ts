import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { bothWidths, settled, tabTo } from './support/page';
import { snap } from './support/snap';

// One story: the org defaults, a failing test send, the limits, the secret, the log, a site's own.
test.describe.configure({ mode: 'serial' });

const HOST = 'notify.example.com';
let siteId = '';

test('a site to notify about', async ({ page }) => {
  const res = await page.request.post('/v1/sites', {
    data: {
      rootUrl: `https://${HOST}/`,
      scannerEnabled: false,
      seoEnabled: false,
      performanceEnabled: false,
    },
  });
  expect(res.status()).toBe(201);
  siteId = ((await res.json()) as { site: { id: string } }).site.id;
});

test('Notifications in the nav: the defaults, axe-clean at 1280 and 390 px', async ({ page }) => {
  await page.goto('/sites');
  await page
    .getByRole('navigation', { name: 'Dashboard' })
    .getByRole('link', { name: 'Notifications' })
    .click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  await expect(page.getByRole('form', { name: 'Default receivers' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Signing secret' })).toHaveValue(/^whsec_/);
  await bothWidths(page, 'notifications-empty', 'notification settings');
});

test('with the keyboard: over the limit, the summary takes focus and leads to the list', async ({ page }) => {
  type Saved = { settings: { uptimeRecipients: unknown[] } };
  // A new organization's owner receives uptime alerts from the start: what is there before is kept.
  const before = ((await (await page.request.get('/v1/notifications')).json()) as Saved).settings
    .uptimeRecipients;
  await page.goto('/notifications');
  await settled(page);
  const uptime = page.getByRole('group', { name: 'Uptime alerts' });
  const addresses = uptime.getByLabel('Other addresses');
  await tabTo(page, addresses, 60);
  await page.keyboard.type(Array.from({ length: 11 }, (_, i) => `p${i}@example.com`).join('\n'));
  await tabTo(page, page.getByRole('button', { name: 'Save notification settings' }), 80);
  await page.keyboard.press('Enter');
  const summary = page.getByRole('alert').filter({ hasText: 'There is a problem' });
  await expect(summary).toBeFocused();
  await expect(addresses).toHaveAttribute('aria-invalid', 'true');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(addresses).toBeFocused();
  await snap(page, 'notifications-errors');
  await expectNoAxeViolations(page, 'notification settings with errors');
  // Nothing was saved.
  const saved = (await (await page.request.get('/v1/notifications')).json()) as Saved;
  expect(saved.settings.uptimeRecipients).toEqual(before);
});

test('a webhook the service may not reach: Send test shows the reason; saving keeps member, address and hook', async ({
  page,
}) => {
  await page.goto('/notifications');
  await settled(page);
  const uptime = page.getByRole('group', { name: 'Uptime alerts' });
  await uptime.getByRole('button', { name: 'Add webhook' }).click();
  const url = uptime.getByLabel('Webhook 1 URL');
  await expect(url).toBeFocused();
  await page.keyboard.type('http://127.0.0.2:9/hook');
  await uptime.getByRole('button', { name: 'Send test to webhook 1' }).click();
  // The server runs as in production (`npm start`): a loopback hook is refused by the one URL check.
  await expect(uptime.getByText(/Test failed: .*must not point at a loopback address/)).toBeVisible();
  // Clicking Add webhook and editing a hook cleared nothing into the summary: no empty problem box.
  await expect(page.getByRole('heading', { name: 'There is a problem' })).toHaveCount(0);
  await url.fill('https://hooks.slack.com/services/T0/B0/x');
  await uptime.getByLabel('Other addresses').fill('ops@example.com');
  await uptime.getByRole('checkbox', { name: /owner@example.com/ }).check();
  await page.getByRole('button', { name: 'Save notification settings' }).click();
  await expect(page.getByText('Saved. The next notification goes to these receivers.')).toBeVisible();
  const saved = (await (await page.request.get('/v1/notifications')).json()) as {
    settings: { uptimeRecipients: Array<{ kind: string }>; uptimeWebhooks: unknown[] };
  };
  expect(saved.settings.uptimeRecipients.map((r) => r.kind)).toEqual(['user', 'email']);
  expect(saved.settings.uptimeWebhooks).toHaveLength(1);
});

test('a test email: to a member, delivered; to an unconfirmed outside address or a line that is no address, the reason', async ({
  page,
}) => {
  await page.goto('/notifications');
  await settled(page);
  const test = page.getByRole('group', { name: 'Send a test email' });
  const address = test.getByLabel('Test address');
  // The members and the addresses saved above, unsaved lines too.
  await page
    .getByRole('group', { name: 'Crawl summaries' })
    .getByLabel('Other addresses')
    .fill('not an address');
  // (Other specs may have added members before this one: each expected entry is looked for.)
  const options = address.getByRole('option');
  for (const entry of [/owner@example\.com/, 'ops@example.com', 'not an address']) {
    await expect(options.filter({ hasText: entry })).toHaveCount(1);
  }
  // An address outside the organization gets nothing before it confirmed (saving it sent the mail).
  await address.selectOption({ label: 'ops@example.com' });
  await test.getByRole('button', { name: 'Send test email' }).click();
  await expect(
    test.getByText(/^Test failed: ops@example\.com is not a member and has not confirmed/),
  ).toBeVisible();
  await address.selectOption({
    label: (await options.filter({ hasText: /owner@example\.com/ }).textContent()) ?? '',
  });
  await test.getByRole('button', { name: 'Send test email' }).click();
  // The e2e server mails through the local outbox, which accepts it.
  await expect(test.getByText('Test delivered: the mail service accepted it.')).toBeVisible();
  await address.selectOption('not an address');
  await test.getByRole('button', { name: 'Send test email' }).click();
  await expect(test.getByText(/^Test failed: .*must be an email address/)).toBeVisible();
  await bothWidths(page, 'notifications-test-email', 'Notifications with a test email');
});

test('the signing secret: reveal, rotate after a confirmation', async ({ page }) => {
  await page.goto('/notifications');
  await settled(page);
  const secret = page.getByRole('textbox', { name: 'Signing secret' });
  const before = await secret.inputValue();
  await expect(secret).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Reveal' }).click();
  await expect(secret).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Rotate', exact: true }).click();
  await page.getByRole('button', { name: 'Rotate the secret now' }).click();
  await expect(page.getByText(/previous one still signs for 24 hours/)).toBeVisible();
  await expect(secret).not.toHaveValue(before);
  await expect(page.getByText(/The previous secret signs until/)).toBeVisible();
});

test('the delivery log: empty state, filters, axe-clean at 1280 and 390 px', async ({ page }) => {
  await page.goto('/notifications');
  await page.getByRole('link', { name: 'Delivery log' }).click();
  await expect(page).toHaveURL(/\/notifications\/deliveries$/);
  await settled(page);
  await expect(page.getByRole('search', { name: 'Filter deliveries' })).toBeVisible();
  await bothWidths(page, 'deliveries', 'delivery log');
  await page.getByLabel('Kind').selectOption('crawl-summary');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/kind=crawl-summary/);
  await expect(page.getByLabel('Kind')).toHaveValue('crawl-summary');
  await expect(
    page
      .getByText('No deliveries match these filters')
      .or(page.getByRole('list', { name: 'Notification deliveries, newest first' })),
  ).toBeVisible();
});

test("a site's own receivers without the defaults, then back to the defaults", async ({ page }) => {
  await page.goto(`/sites/${siteId}/settings`);
  await settled(page);
  const section = page.getByRole('region', { name: 'Notifications' });
  await expect(section.getByText(/notifies the organization's/)).toBeVisible();
  await bothWidths(page, 'site-notifications', 'site settings with notifications');
  await section.getByRole('button', { name: 'Set receivers for this site' }).click();
  await section.getByRole('checkbox', { name: /Also notify/ }).uncheck();
  await section
    .getByRole('group', { name: 'Crawl summaries' })
    .getByLabel('Other addresses')
    .fill('site@example.com');
  await section.getByRole('button', { name: 'Save notification settings' }).click();
  await expect(section.getByText(/^Saved\./)).toBeVisible();
  const own = (await (await page.request.get(`/v1/sites/${siteId}/notifications`)).json()) as {
    overridden: boolean;
    settings: { includeOrgDefaults: boolean };
  };
  expect(own).toMatchObject({ overridden: true, settings: { includeOrgDefaults: false } });
  await bothWidths(page, 'site-notifications-own', 'site with its own receivers');
  await section.getByRole('button', { name: "Use the organization's defaults" }).click();
  await section.getByRole('button', { name: "Remove this site's own receivers" }).click();
  await expect(
    section.getByRole('status').filter({ hasText: /now uses the organization's default/ }),
  ).toBeFocused();
  const back = (await (await page.request.get(`/v1/sites/${siteId}/notifications`)).json()) as {
    overridden: boolean;
  };
  expect(back.overridden).toBe(false);
});
