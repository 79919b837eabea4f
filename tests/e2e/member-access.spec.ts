import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { signInThroughForm } from './support/sign-in';
import { snap } from './support/snap';

/*
 * What the teammate of dashboard.spec.ts sees of the owner's site they were granted, and the dashboard's
 * 404 for pages nobody may open (issue 12). Runs after dashboard.spec.ts on the same server: the
 * teammate is a member of the owner's organization with www.example.com granted, and has an
 * organization of their own from their first sign-in.
 */
test.describe.configure({ mode: 'serial' });

const SITE_HOST = 'www.example.com';
const TEAMMATE = 'teammate@example.com';
const UNKNOWN_RUN = '00000000-0000-4000-8000-000000000000';

let teammate: BrowserContext;
let member: Page;
/** The granted site's page, e.g. /sites/<uuid>. */
let sitePath = '';

test.beforeAll(async ({ browser }) => {
  teammate = await browser.newContext({
    storageState: { cookies: [], origins: [] },
    extraHTTPHeaders: { 'x-forwarded-for': '203.0.113.4' },
  });
  member = await teammate.newPage();
});
test.afterAll(() => teammate.close());

/**
 * Opens `path` and checks the dashboard's own 404: the status of the navigation itself (a not-found
 * page streamed after a loading state would answer 200), inside the dashboard's layout (one logo,
 * its navigation, no "Sign in" for someone signed in), axe clean.
 */
async function expectDashboardNotFound(page: Page, path: string): Promise<void> {
  const res = await page.goto(path);
  expect(res?.status(), `HTTP status of ${path}`).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sitewatch' })).toHaveCount(1);
  await expect(page.getByRole('link', { name: 'Sign in' })).toHaveCount(0);
  await expect(page.getByRole('main').getByRole('link', { name: 'Go to sites' })).toBeVisible();
  await expectNoAxeViolations(page, `dashboard 404 at ${path}`);
}

test("a later sign-in starts where the teammate last was, the owner's organization, with the granted site listed", async ({
  page,
}) => {
  await page.goto('/sites');
  sitePath = (await page.getByRole('link', { name: SITE_HOST }).getAttribute('href')) ?? '';
  expect(sitePath).toMatch(/^\/sites\/[0-9a-f-]{36}$/);

  await member.goto('/sign-in');
  await signInThroughForm(member, TEAMMATE);
  await expect(member).toHaveURL(/\/sites$/);
  // Accepting the invitation made the owner's organization active: a new session resumes there,
  // not in the (older) organization the teammate got at their first sign-in.
  const switcher = member.getByRole('button', { name: /^Organization:/ });
  await expect(switcher).toHaveAccessibleName("Organization: owner's sites");
  await expect(member.getByText('Websites this organization monitors.')).toBeVisible();
  // The list is the owner's organization's as this member sees it: the granted site, no register form.
  await expect(member.getByRole('link', { name: SITE_HOST })).toBeVisible();
  await expect(member.getByLabel('Root URL')).toHaveCount(0);
  await snap(member, 'sites-member-resumed');
  await expectNoAxeViolations(member, 'sites list as a member, resumed organization');

  // Their own organization is a switch away, empty, and the switch back shows the granted site again.
  await switcher.click();
  await member.getByRole('button', { name: "teammate's sites" }).click();
  await expect(switcher).toHaveAccessibleName("Organization: teammate's sites");
  await expect(member.getByText('No sites yet')).toBeVisible();
  await switcher.click();
  await member.getByRole('button', { name: "owner's sites" }).click();
  await expect(switcher).toHaveAccessibleName("Organization: owner's sites");
  await expect(member.getByRole('link', { name: SITE_HOST })).toBeVisible();
});

test("a member opening the granted site's Settings gets the dashboard's 404", async () => {
  expect((await member.goto(sitePath))?.status()).toBe(200);
  await expect(member.getByRole('heading', { level: 1, name: SITE_HOST })).toBeVisible();
  const tabs = member.getByRole('navigation', { name: 'Site sections' });
  await expect(tabs.getByRole('link', { name: 'History' })).toBeVisible();
  await expect(tabs.getByRole('link', { name: 'Settings' })).toHaveCount(0);

  await expectDashboardNotFound(member, `${sitePath}/settings`);
  await snap(member, 'site-settings-member-not-found');
});

test('an unknown run under History, and its report pages, are the dashboard 404 for anyone', async ({
  page,
}) => {
  for (const sub of ['', '/seo', '/pages']) {
    await expectDashboardNotFound(page, `${sitePath}/history/${UNKNOWN_RUN}${sub}`);
    await expectDashboardNotFound(member, `${sitePath}/history/${UNKNOWN_RUN}${sub}`);
  }
  await snap(page, 'site-run-not-found');
});
