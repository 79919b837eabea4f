import { type Cookie, expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { settled } from './support/page';
import { signInThroughForm } from './support/sign-in';

/*
 * Defects a new user met on a first walk through the dashboard (2026-11-24), each held here. A user
 * of their own, so the organization (its name "walker's sites", its sites and keys) is theirs alone
 * whatever the other specs did to the owner's.
 */

test.describe.configure({ mode: 'serial' });
test.use({
  storageState: { cookies: [], origins: [] },
  extraHTTPHeaders: { 'x-forwarded-for': '203.0.113.41' },
});

const WALKER = 'walker@example.com';
const SITE_HOST = 'walk.example.com';

/** Registers the walker's site unless an earlier test did; ends on the sites list. */
async function registerOnce(page: Page): Promise<void> {
  await page.goto('/sites');
  await settled(page);
  if (await page.getByRole('link', { name: SITE_HOST, exact: true }).count()) return;
  await page.getByLabel('Root URL').fill(`https://${SITE_HOST}/`);
  await page.getByRole('button', { name: 'Register site' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Registered ${SITE_HOST}.` })).toBeVisible();
}

/** The walker's site's Settings tab, reached as a person would: from the sites list. */
async function openSiteSettings(page: Page): Promise<void> {
  await registerOnce(page);
  await page.getByRole('link', { name: SITE_HOST, exact: true }).click();
  await page
    .getByRole('navigation', { name: 'Site sections' })
    .getByRole('link', { name: 'Settings' })
    .click();
}

// One sign-in for the file (each sign-in mails a code, and sign-ins are rate limited per address).
let walkerCookies: Cookie[] = [];

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage({ extraHTTPHeaders: { 'x-forwarded-for': '203.0.113.41' } });
  await page.goto('/sign-in');
  await signInThroughForm(page, WALKER);
  await expect(page).toHaveURL(/\/sites$/);
  walkerCookies = (await page.context().storageState()).cookies;
  await page.close();
});

test.beforeEach(async ({ context }) => {
  await context.addCookies(walkerCookies);
});

test("the notifications header names the organization's sites once, not \"walker's sites's sites\"", async ({
  page,
}) => {
  await page.goto('/notifications');
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  await expect(
    page.getByText("Who hears about this organization's sites: by email and in chat."),
  ).toBeVisible();
  await expect(page.getByText("sites's sites")).toHaveCount(0);
});

test('the sites header does not repeat the organization\'s name ("monitored by walker\'s sites")', async ({
  page,
}) => {
  await page.goto('/sites');
  await expect(page.getByRole('heading', { level: 1, name: 'Sites' })).toBeVisible();
  await expect(page.getByText('Websites this organization monitors.')).toBeVisible();
  await expect(page.getByText("monitored by walker's sites")).toHaveCount(0);
});

test("a key limited to sites with none ticked says how to get out, in the dashboard's words", async ({
  page,
}) => {
  await registerOnce(page);
  await page.goto('/keys');
  await settled(page);
  await page.getByLabel('Name', { exact: true }).fill('Scoped to nothing');
  await page.getByLabel('Limit to specific sites').check();
  await page.getByRole('button', { name: 'Create key' }).click();

  const choice = page.getByRole('group', { name: 'Sites this key can access' });
  await expect(choice).toHaveAccessibleDescription(
    'Sites need at least one tick, or untick “Limit to specific sites” for a key that sees every site.',
  );
  await expect(page.getByText('omit it')).toHaveCount(0);
  // The focus goes where the answer is: the first site to tick.
  await expect(choice.getByRole('checkbox', { name: SITE_HOST })).toBeFocused();
  // Nothing was created.
  await expect(page.getByText('No API keys')).toBeVisible();
  await expectNoAxeViolations(page, 'API keys, scoped key without sites');
});

test('site settings keep "Delete site" last, below the site\'s notification receivers', async ({ page }) => {
  await openSiteSettings(page);
  await expect(page.getByRole('heading', { name: 'Delete site' })).toBeVisible();
  const headings = await page.locator('main h2').allTextContents();
  expect(headings.indexOf('Notifications')).toBeGreaterThan(-1);
  expect(headings.indexOf('Delete site')).toBe(headings.length - 1);
  await expectNoAxeViolations(page, 'site settings');
});

test('a bare host typed as the root URL registers as https', async ({ page }) => {
  await page.goto('/sites');
  await page.getByLabel('Root URL').fill('bare.example.com');
  await page.getByRole('button', { name: 'Register site' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Registered bare.example.com.' })).toBeVisible();
  await expect(page.getByRole('row', { name: /bare\.example\.com/ })).toContainText(
    'https://bare.example.com/',
  );
});

test("a bare host typed as the site settings' root URL saves as https, as the register form reads it", async ({
  page,
}) => {
  await openSiteSettings(page);
  const rootUrl = page.getByLabel('Root URL');
  await rootUrl.fill(`${SITE_HOST}/`);
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved.')).toBeVisible();
  await expect(rootUrl).toHaveValue(`https://${SITE_HOST}/`);
});
