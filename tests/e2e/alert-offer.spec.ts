import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { bothWidths, settled, tabTo } from './support/page';
import { invitationLinkFor } from './support/run';
import { signInThroughForm } from './support/sign-in';

/*
 * Issue 24 item 1: a new admin is offered the organization's alerts (not added), answers with one
 * keyboard press, and focus lands on what happened; a kind nobody receives is warned about on the
 * notifications page and on the monitor page, and the monitor form says who hears about an outage.
 * The owner's settings and members are put back as they were at the end, for the specs after this.
 */
test.describe.configure({ mode: 'serial' });

const ADMIN = 'new-admin@example.com';
const HOST = 'alert-offer.example.com';
type Settings = Record<string, unknown> & { uptimeRecipients: Array<{ kind: string; userId?: string }> };

let adminContext: BrowserContext;
let admin: Page;
let before: Settings;
let siteId = '';

const settingsOf = async (page: Page) =>
  ((await (await page.request.get('/v1/notifications')).json()) as { settings: Settings }).settings;

test.beforeAll(async ({ browser }) => {
  adminContext = await browser.newContext({
    storageState: { cookies: [], origins: [] },
    extraHTTPHeaders: { 'x-forwarded-for': '203.0.113.24' },
  });
  admin = await adminContext.newPage();
});
test.afterAll(() => adminContext.close());

test('the owner invites an admin', async ({ page }) => {
  before = await settingsOf(page);
  await page.goto('/members');
  await page.getByLabel('Email address').fill(ADMIN);
  await page.getByLabel('Role').selectOption('admin');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Invitation sent to ${ADMIN}.` })).toBeVisible();
});

test('the new admin is offered alerts, not added; "Alert me" with the keyboard adds them and focus lands on the result', async () => {
  const link = await invitationLinkFor(ADMIN);
  await admin.goto(new URL(link).pathname);
  await signInThroughForm(admin, ADMIN);
  await expect(admin).toHaveURL(/\/sites$/);

  await admin.goto('/notifications');
  await settled(admin);
  const offer = admin.getByRole('region', { name: "Receive this organization's alerts?" });
  await expect(offer).toBeVisible();
  const uptime = admin.getByRole('group', { name: 'Uptime alerts' });
  const me = uptime.getByRole('checkbox', { name: new RegExp(ADMIN) });
  await expect(me).not.toBeChecked();
  expect((await settingsOf(admin)).uptimeRecipients).toEqual(before.uptimeRecipients);
  // The kinds nobody receives say so; uptime alerts reach the owner, so that group does not.
  await expect(
    admin
      .getByRole('group', { name: 'Search traffic alerts' })
      .getByText('Nobody receives search traffic alerts'),
  ).toBeVisible();
  await expect(uptime.getByText('Nobody receives uptime alerts')).toHaveCount(0);
  await bothWidths(admin, 'alert-offer', 'notifications with the alert offer');

  await tabTo(admin, offer.getByRole('button', { name: 'Alert me' }));
  await admin.keyboard.press('Enter');
  const result = admin.getByText('You now receive uptime and performance alerts');
  await expect(result).toBeVisible();
  await expect(admin.locator(':focus')).toContainText('You now receive uptime and performance alerts');
  await expect(offer).toHaveCount(0);
  await expect(me).toBeChecked();
  const after = await settingsOf(admin);
  expect(after.uptimeRecipients).toHaveLength(before.uptimeRecipients.length + 1);
  expect(after.perfAlertRecipients).toContainEqual(after.uptimeRecipients.at(-1));
  await bothWidths(admin, 'alert-offer-accepted', 'notifications after "Alert me"');

  // Answered: not offered again.
  await admin.reload();
  await settled(admin);
  await expect(admin.getByRole('group', { name: 'Uptime alerts' })).toBeVisible();
  await expect(admin.getByRole('region', { name: "Receive this organization's alerts?" })).toHaveCount(0);
});

test('nobody receives uptime alerts: warned on the notifications page and once on the monitor page; the form says who hears', async ({
  page,
}) => {
  const cleared = await page.request.patch('/v1/notifications', {
    data: { uptimeRecipients: [], uptimeWebhooks: [] },
  });
  expect(cleared.status()).toBe(200);
  await page.goto('/notifications');
  await settled(page);
  await expect(
    page.getByRole('group', { name: 'Uptime alerts' }).getByText('Nobody receives uptime alerts'),
  ).toBeVisible();

  const site = await page.request.post('/v1/sites', {
    data: {
      rootUrl: `https://${HOST}/`,
      scannerEnabled: false,
      seoEnabled: false,
      performanceEnabled: false,
    },
  });
  expect(site.status()).toBe(201);
  siteId = ((await site.json()) as { site: { id: string } }).site.id;
  expect((await page.request.patch(`/v1/sites/${siteId}`, { data: { uptimeEnabled: true } })).status()).toBe(
    200,
  );
  await page.goto(`/sites/${siteId}/uptime`);
  const form = page.getByRole('form', { name: 'New monitor' });
  await expect(form.getByText(/Who hears about an outage: the site's uptime receivers/)).toBeVisible();
  await expect(form.getByRole('link', { name: 'Notifications' })).toHaveAttribute('href', '/notifications');
  await expect(form.getByText(/alerts you/)).toHaveCount(0);
  await form.getByLabel('URL', { exact: true }).fill(`https://${HOST}/health`);
  await form.getByRole('button', { name: 'Create monitor' }).click();
  const created = page.getByRole('status').filter({ hasText: 'Monitor created' });
  await expect(created).toBeVisible();
  await created.getByRole('link', { name: 'Open its page' }).click();
  await expect(page).toHaveURL(new RegExp(`/sites/${siteId}/uptime/[0-9a-f-]{36}$`));
  const warning = page.getByText("Nobody receives this monitor's alerts");
  await expect(warning).toHaveCount(1);
  await bothWidths(page, 'monitor-nobody-alerted', 'monitor page, nobody receives its alerts');
});

test('the owner puts the settings, sites and members back as they were', async ({ page }) => {
  expect((await page.request.delete(`/v1/sites/${siteId}`)).status()).toBe(200);
  const { includeOrgDefaults: _ignored, ...lists } = before;
  const restored = await page.request.patch('/v1/notifications', { data: lists });
  expect(restored.status(), await restored.text()).toBe(200);
  const members = (await (await page.request.get('/v1/members')).json()) as {
    members: Array<{ id: string; email: string }>;
  };
  const added = members.members.find((m) => m.email === ADMIN);
  expect(added).toBeDefined();
  expect((await page.request.delete(`/v1/members/${added!.id}`)).status()).toBe(200);
});
