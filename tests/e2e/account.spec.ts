import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { tabTo } from './support/page';
import { signInThroughForm } from './support/sign-in';
import { snap } from './support/snap';

/*
 * The account page: one person signed in on a laptop and a phone (two browser contexts, each from an
 * address of its own: sign-in codes are rate-limited per address). The address signs in nowhere
 * else in the suite, so its code limit is this spec's alone.
 */
test.describe.configure({ mode: 'serial' });

const EMAIL = 'account-owner@example.com';
const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

let laptopContext: BrowserContext;
let phoneContext: BrowserContext;
let laptop: Page;
let phone: Page;

test.beforeAll(async ({ browser }) => {
  laptopContext = await browser.newContext({
    storageState: { cookies: [], origins: [] },
    extraHTTPHeaders: { 'x-forwarded-for': '203.0.113.60' },
  });
  phoneContext = await browser.newContext({
    storageState: { cookies: [], origins: [] },
    extraHTTPHeaders: { 'x-forwarded-for': '203.0.113.61' },
    userAgent: PHONE_UA,
  });
  laptop = await laptopContext.newPage();
  phone = await phoneContext.newPage();
});
test.afterAll(async () => {
  await laptopContext.close();
  await phoneContext.close();
});

async function signIn(page: Page): Promise<void> {
  await page.goto('/sign-in');
  await signInThroughForm(page, EMAIL);
  await expect(page).toHaveURL(/\/sites$/);
}

const sessionItems = (page: Page) => page.locator('#sessions li');

test('the header links to the account page, which lists both sessions, this one marked', async () => {
  await signIn(laptop);
  await signIn(phone);

  const account = laptop.getByRole('link', { name: `Account: ${EMAIL}` });
  await account.click();
  await expect(laptop).toHaveURL(/\/account$/);
  await expect(laptop.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  await expect(account).toHaveAttribute('aria-current', 'page');
  await expect(laptop.getByLabel('Email address')).toHaveValue(EMAIL);
  await expect(laptop.getByLabel('Email address')).not.toBeEditable();

  await expect(sessionItems(laptop)).toHaveCount(2);
  await expect(sessionItems(laptop).first()).toContainText('Chrome on Linux');
  await expect(sessionItems(laptop).first()).toContainText('This device');
  await expect(sessionItems(laptop).nth(1)).toContainText('Safari on iOS');
  await expect(sessionItems(laptop).nth(1)).toContainText('IP address 203.0.113.61');
  await expect(sessionItems(laptop).nth(1)).not.toContainText('This device');
  // This device has no sign-out of its own here (the header's Sign out is that).
  await expect(sessionItems(laptop).first().getByRole('button')).toHaveCount(0);

  // Organizations: the personal one, owner, current.
  const orgs = laptop.locator('#organizations li');
  await expect(orgs).toHaveCount(1);
  await expect(orgs.first()).toContainText('Your role: owner');
  await expect(orgs.first()).toContainText('Current organization');

  await laptop.setViewportSize({ width: 1280, height: 900 });
  await snap(laptop, 'account-1280');
  await expectNoAxeViolations(laptop, 'account page at 1280');
});

test('signing out the other session with the keyboard signs that browser out', async () => {
  const signOut = laptop.getByRole('button', { name: /^Sign out Safari on iOS/ });
  await tabTo(laptop, signOut);
  await laptop.keyboard.press('Enter');
  // The question in place names the device: its first button is gone, the danger one has focus.
  const confirm = laptop.getByRole('button', { name: 'Sign out Safari on iOS', exact: true });
  await expect(confirm).toBeFocused();
  await laptop.keyboard.press('Enter');

  const said = laptop.getByRole('status').filter({ hasText: 'Signed out Safari on iOS.' });
  await expect(said).toBeVisible();
  await expect(said).toBeFocused();
  await expect(sessionItems(laptop)).toHaveCount(1);
  await expect(laptop.getByText('You are not signed in anywhere else.')).toBeVisible();
  await expect(laptop.getByRole('button', { name: 'Sign out of all other sessions' })).toHaveCount(0);

  // The phone's cookie no longer works: its next navigation lands on sign-in.
  await phone.goto('/sites');
  await expect(phone).toHaveURL(/\/sign-in/);
  // The laptop is still signed in.
  await laptop.reload();
  await expect(sessionItems(laptop)).toHaveCount(1);
});

test('"Sign out of all other sessions" signs every other browser out', async () => {
  await signIn(phone);
  await laptop.reload();
  await expect(sessionItems(laptop)).toHaveCount(2);
  await laptop.getByRole('button', { name: 'Sign out of all other sessions' }).click();
  await laptop.getByRole('button', { name: 'Sign out the other session' }).click();
  await expect(
    laptop.getByRole('status').filter({ hasText: 'Signed out of all other sessions.' }),
  ).toBeVisible();
  await expect(sessionItems(laptop)).toHaveCount(1);
  await phone.goto('/account');
  await expect(phone).toHaveURL(/\/sign-in/);
});

test('a new display name shows in the header', async () => {
  await laptop.getByLabel('Display name').fill('Ada Lovelace');
  await laptop.getByRole('button', { name: 'Save name' }).click();
  await expect(laptop.getByRole('status').filter({ hasText: 'Name saved.' })).toBeVisible();
  await expect(laptop.getByRole('link', { name: 'Account: Ada Lovelace' })).toBeVisible();
  await laptop.goto('/sites');
  await expect(laptop.getByRole('link', { name: 'Account: Ada Lovelace' })).toContainText('Ada Lovelace');

  // Too long for the field: the browser stops typing at the limit, the server refuses the rest.
  await laptop.goto('/account');
  await expect(laptop.getByLabel('Display name')).toHaveValue('Ada Lovelace');
  await expect(laptop.getByLabel('Display name')).toHaveAttribute('maxlength', '80');
});

test('the organizations list gives the role in each and switches to another', async () => {
  await laptop.goto('/organizations/new');
  await laptop.getByLabel('Organization name').fill('Ada Consulting');
  await laptop.getByRole('button', { name: 'Create organization' }).click();
  await expect(laptop).toHaveURL(/\/sites\?created=1$/);
  // The form is gone with its page: the list says what happened, where the focus lands.
  await expect(
    laptop.getByRole('status').filter({ hasText: 'Created Ada Consulting: register its first site below.' }),
  ).toBeFocused();

  await laptop.goto('/account');
  const orgs = laptop.locator('#organizations li');
  await expect(orgs).toHaveCount(2);
  await expect(orgs.filter({ hasText: 'Ada Consulting' })).toContainText('Current organization');
  await expect(orgs.filter({ hasText: 'Ada Consulting' })).toHaveAttribute('aria-current', 'true');
  await laptop.getByRole('button', { name: "Switch to account-owner's sites" }).click();
  await expect(laptop).toHaveURL(/\/sites\?switched=1$/);
  await expect(
    laptop.getByRole('status').filter({ hasText: "Switched to account-owner's sites." }),
  ).toBeFocused();
  await expect(laptop.getByRole('button', { name: /^Organization:/ })).toHaveAccessibleName(
    "Organization: account-owner's sites",
  );
});

test('the account page at 390 px: nothing runs off the side, axe clean', async () => {
  await laptop.setViewportSize({ width: 390, height: 844 });
  await laptop.goto('/account');
  await expect(sessionItems(laptop)).toHaveCount(1);
  // The name hides behind an icon at this width; the link keeps its accessible name.
  await expect(laptop.getByRole('link', { name: 'Account: Ada Lovelace' })).toBeVisible();
  const overflow = await laptop.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await snap(laptop, 'account-390');
  await expectNoAxeViolations(laptop, 'account page at 390');
});
