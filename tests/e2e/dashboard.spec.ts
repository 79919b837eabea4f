import { expect, request as playwrightRequest, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { settled } from './support/page';
import { invitationLinkFor } from './support/run';
import { signInThroughForm } from './support/sign-in';
import { snap } from './support/snap';

// One story against one server: each step builds on the state the previous one left.
test.describe.configure({ mode: 'serial' });

const SITE_HOST = 'www.example.com';
const TEAMMATE = 'teammate@example.com';

test('sites list starts empty with a call to action', async ({ page }) => {
  await page.goto('/sites');
  await expect(page.getByText('No sites yet')).toBeVisible();
  await expect(page.getByText('0 of 3')).toBeVisible();
  await snap(page, 'sites-empty');
  await expectNoAxeViolations(page, 'sites list (empty)');

  await page.getByRole('button', { name: 'Register your first site' }).click();
  await expect(page.getByLabel('Root URL')).toBeFocused();
});

test('a malformed root URL is refused with the message under the field', async ({ page }) => {
  await page.goto('/sites');
  await page.getByLabel('Root URL').fill('ftp://files.example.com');
  await page.getByRole('button', { name: 'Register site' }).click();
  const field = page.getByLabel('Root URL');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription(/must use http or https/);
});

test('register a site', async ({ page }) => {
  await page.goto('/sites');
  await page.getByLabel('Root URL').fill(`https://${SITE_HOST}/`);
  await page.getByLabel('Crawl cadence').selectOption({ label: 'Daily' });
  await page.getByRole('button', { name: 'Register site' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Registered ${SITE_HOST}.` })).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(SITE_HOST) });
  await expect(row).toContainText('Daily');
  await expect(page.getByText('1 of 3')).toBeVisible();
  await snap(page, 'sites-one');
  await expectNoAxeViolations(page, 'sites list (with a site)');
});

test('accessibility tab while the app is off explains it and leads to the settings', async ({ page }) => {
  await page.goto('/sites');
  await page.getByRole('link', { name: SITE_HOST }).click();
  await page
    .getByRole('navigation', { name: 'Site sections' })
    .getByRole('link', { name: 'Accessibility' })
    .click();
  await expect(page.getByRole('heading', { level: 2, name: 'Accessibility' })).toBeVisible();
  await expect(page.getByText('The Accessibility app is off for this site')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Turn it on in settings' })).toHaveAttribute(
    'href',
    /\/sites\/[0-9a-f-]{36}\/settings$/,
  );
  await snap(page, 'site-accessibility-off');
  await expectNoAxeViolations(page, 'site accessibility (app off)');
});

test('site page: overview, broken links, SEO and settings tabs', async ({ page }) => {
  await page.goto('/sites');
  await page.getByRole('link', { name: SITE_HOST }).click();
  await expect(page.getByRole('heading', { level: 1, name: SITE_HOST })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Run history' })).toBeVisible();
  await settled(page);
  await snap(page, 'site-overview');
  await expectNoAxeViolations(page, 'site overview');

  const tabs = page.getByRole('navigation', { name: 'Site sections' });
  await tabs.getByRole('link', { name: 'Broken links' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Broken links' })).toBeVisible();
  await settled(page);
  await snap(page, 'site-links');
  await expectNoAxeViolations(page, 'site broken links');

  await tabs.getByRole('link', { name: 'SEO' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'SEO' })).toBeVisible();
  await settled(page);
  await expectNoAxeViolations(page, 'site SEO');

  await tabs.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Crawl scope' })).toBeVisible();
  await expectNoAxeViolations(page, 'site settings');

  await page.getByLabel('Exclude paths').fill('/private/**\n/search*');
  await page.getByLabel('Strip query parameters').fill('utm_source');
  await page.getByRole('checkbox', { name: 'Accessibility' }).check();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await snap(page, 'site-settings');

  await page.reload();
  await expect(page.getByLabel('Exclude paths')).toHaveValue('/private/**\n/search*');
  await expect(page.getByRole('checkbox', { name: 'Accessibility' })).toBeChecked();
});

test('accessibility tab with the app on and no scan yet', async ({ page }) => {
  await page.goto('/sites');
  await page.getByRole('link', { name: SITE_HOST }).click();
  await page
    .getByRole('navigation', { name: 'Site sections' })
    .getByRole('link', { name: 'Accessibility' })
    .click();
  await expect(page.getByRole('heading', { level: 2, name: 'Accessibility' })).toBeVisible();
  // The e2e server cannot reach the site, so no render pass ever stores a page: the report is a 404.
  await expect(page.getByText('Not scanned yet')).toBeVisible();
  await settled(page);
  await snap(page, 'site-accessibility-empty');
  await expectNoAxeViolations(page, 'site accessibility (not scanned yet)');
});

test('create an API key, see its secret once, and call /v1/sites with it', async ({ page, baseURL }) => {
  await page.goto('/keys');
  await expect(page.getByText('No API keys')).toBeVisible();
  await expectNoAxeViolations(page, 'API keys (empty)');

  await page.getByLabel('Name').fill('e2e integration');
  await page.getByRole('button', { name: 'Create key' }).click();
  const secretField = page.getByLabel('Secret for e2e integration');
  await expect(secretField).toBeVisible();
  await expect(page.getByRole('heading', { name: /Key created: e2e integration/ })).toBeFocused();
  const secret = await secretField.inputValue();
  expect(secret.length).toBeGreaterThan(20);
  await expect(page.getByRole('row', { name: /e2e integration/ })).toBeVisible();
  await snap(page, 'keys-secret');
  await expectNoAxeViolations(page, 'API keys (secret shown)');

  // A fresh client with no cookies: only the key speaks for it.
  const api = await playwrightRequest.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const anonymous = await api.get('/v1/sites');
  expect(anonymous.status()).toBe(401);
  const withKey = await api.get('/v1/sites', { headers: { 'x-api-key': secret } });
  expect(withKey.status()).toBe(200);
  const body = (await withKey.json()) as { sites: Array<{ hostname: string }> };
  expect(body.sites.map((s) => s.hostname)).toEqual([SITE_HOST]);

  // Re-rolling rotates the secret: the old one stops working at once.
  await page.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('button', { name: 'Re-roll e2e integration' }).click();
  await expect(page.getByRole('heading', { name: /Key re-rolled/ })).toBeVisible();
  const rolled = await page.getByLabel('Secret for e2e integration').inputValue();
  expect(rolled).not.toBe(secret);
  expect((await api.get('/v1/sites', { headers: { 'x-api-key': secret } })).status()).toBe(401);
  expect((await api.get('/v1/sites', { headers: { 'x-api-key': rolled } })).status()).toBe(200);

  await page.getByRole('button', { name: 'Revoke e2e integration' }).click();
  await page.getByRole('button', { name: 'Revoke now e2e integration' }).click();
  await expect(page.getByText('No API keys')).toBeVisible();
  expect((await api.get('/v1/sites', { headers: { 'x-api-key': rolled } })).status()).toBe(401);
  await api.dispose();
});

test('members page lists the owner and sends an invitation', async ({ page }) => {
  await page.goto('/members');
  await expect(page.getByRole('row', { name: /owner@example\.com/ })).toContainText('(you)');
  await expectNoAxeViolations(page, 'members');

  await page.getByLabel('Email address').fill(TEAMMATE);
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Invitation sent to ${TEAMMATE}.` })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Pending invitations' })).toContainText(TEAMMATE);
  await snap(page, 'members');
  await expectNoAxeViolations(page, 'members (with an invitation)');
});

test('an invited person signs in from the link and joins as a member', async ({ browser }) => {
  const link = await invitationLinkFor(TEAMMATE);
  const context = await browser.newContext({
    storageState: { cookies: [], origins: [] },
    extraHTTPHeaders: { 'x-forwarded-for': '203.0.113.3' },
  });
  const page = await context.newPage();
  await page.goto(new URL(link).pathname);
  await expect(page.getByRole('heading', { level: 1, name: /^Join / })).toBeVisible();
  await expect(page.locator('main dl')).toContainText(/Role\s*member/i);
  await expect(page.getByLabel('Email address')).toHaveValue(TEAMMATE);
  await snap(page, 'invite');
  await expectNoAxeViolations(page, 'invitation page');

  await signInThroughForm(page, TEAMMATE);
  await expect(page).toHaveURL(/\/sites$/);
  // A member sees only granted sites (none yet) and no administration. The organization's site
  // count is said as the organization's, beside a list that is the member's (issue 24 item 11):
  // not "No sites yet" beside "1 of 3 included sites used".
  await expect(page.getByRole('heading', { level: 2, name: 'Sites shared with you' })).toBeVisible();
  await expect(page.getByText('No sites shared with you yet')).toBeVisible();
  await expect(page.getByText('Your organization has 1 site; none is shared with you.')).toBeVisible();
  await expect(page.getByText('Your organization uses 1 of 3 included sites')).toBeVisible();
  await expect(page.getByText('No sites yet')).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link')).toHaveText(['Sites']);
  await expectNoAxeViolations(page, 'sites list as a member');
  await context.close();
});

test('the owner grants the new member one site', async ({ page }) => {
  await page.goto('/members');
  await page.getByRole('button', { name: `Edit access for ${TEAMMATE}` }).click();
  await page.getByRole('checkbox', { name: SITE_HOST }).check();
  await page.getByRole('checkbox', { name: 'Can start crawls' }).check();
  await page.getByRole('button', { name: 'Save access' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Access for ${TEAMMATE} saved.` })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(TEAMMATE) })).toContainText('1 site');
  await expect(page.getByRole('row', { name: new RegExp(TEAMMATE) })).toContainText('Can crawl');
});

test('billing: overage toggle', async ({ page }) => {
  await page.goto('/billing');
  const toggle = page.getByRole('switch', { name: 'Overage billing' });
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await expectNoAxeViolations(page, 'billing');
  await toggle.click();
  // Turning overage on asks first (tests/e2e/billing.spec.ts walks the question itself).
  await page
    .getByRole('dialog', { name: 'Turn overage billing on?' })
    .getByRole('button', { name: 'Turn overage on' })
    .click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByRole('status').filter({ hasText: 'Overage billing is on.' })).toBeVisible();
  await snap(page, 'billing');
  await page.goto('/sites');
  await expect(page.getByText('1 of 3')).toBeVisible();
});

test('unknown pages and invisible sites are a 404', async ({ page }) => {
  const missing = await page.goto('/no-such-page');
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await snap(page, 'not-found');
  await expectNoAxeViolations(page, '404 page');

  // A site that does not exist (or is not the caller's) answers 404 inside the dashboard: its header,
  // one logo, its navigation, and no "Sign in" for someone who is signed in (issue 12).
  for (const path of ['/sites/00000000-0000-4000-8000-000000000000', '/sites/not-a-uuid/settings']) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Dashboard' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sitewatch' })).toHaveCount(1);
    await expect(page.getByRole('link', { name: 'Sign in' })).toHaveCount(0);
    await expect(page.getByRole('main').getByRole('link', { name: 'Go to sites' })).toBeVisible();
  }
  await snap(page, 'site-not-found');
  await expectNoAxeViolations(page, 'missing site (dashboard 404)');
});

test("the crawler's public page, linked from its user-agent, is accessible", async ({ page }) => {
  const res = await page.goto('/bot');
  expect(res?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'SitewatchBot' })).toBeVisible();
  await expectNoAxeViolations(page, 'bot page');
});

test('create an organization, then hit the organization limit and ask for more', async ({ page }) => {
  await page.goto('/organizations/new');
  await expectNoAxeViolations(page, 'create organization');
  await page.getByLabel('Organization name').fill('Second Org');
  await page.getByRole('button', { name: 'Create organization' }).click();
  await expect(page).toHaveURL(/\/sites\?created=1$/);
  await expect(page.getByRole('button', { name: /Organization: Second Org/ })).toBeVisible();
  await expect(page.getByText('No sites yet')).toBeVisible();

  // Two organizations is the default cap for an account.
  await page.goto('/organizations/new');
  await page.getByLabel('Organization name').fill('Third Org');
  await page.getByRole('button', { name: 'Create organization' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toContainText('maximum number of organizations');
  await page.getByRole('link', { name: 'Request a higher organization limit' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Organization limit' })).toBeVisible();
  await expect(page.getByText('Limit reached')).toBeVisible();
  await expectNoAxeViolations(page, 'organization limit request');
  await page.getByLabel('Organizations you need').fill('4');
  await page.getByLabel('Why do you need more?').fill('Separate workspaces for two agency clients.');
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText('Latest request: pending')).toBeVisible();
  // The form is gone with the request sent: the focus is on the request, not on the page's body.
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ''))
    .toContain('Latest request: pending');

  // Back to the first organization through the switcher.
  await page.getByRole('button', { name: /Organization: Second Org/ }).click();
  await page.getByRole('button', { name: /owner's sites/ }).click();
  await expect(page.getByRole('link', { name: SITE_HOST })).toBeVisible();
});
