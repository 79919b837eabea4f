import { type Cookie, expect, test } from '@playwright/test';
import { signInThroughForm } from './sign-in';

/**
 * The spec's tests run as a person of their own (`email`, signing in from `ip`), in an organization
 * of their own: the sites, monitors and pages they make count against nobody else's allowance, and
 * no other spec's sites show in theirs. Call at the top level of a spec file.
 */
export function signedInAsOwnUser(email: string, ip: string): void {
  let cookies: Cookie[] = [];
  test.use({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { 'x-forwarded-for': ip } });
  test.beforeAll(async ({ browser }) => {
    const page = await browser.newPage({ extraHTTPHeaders: { 'x-forwarded-for': ip } });
    await page.goto('/sign-in');
    await signInThroughForm(page, email);
    await expect(page).toHaveURL(/\/sites$/);
    cookies = (await page.context().storageState()).cookies;
    await page.close();
  });
  test.beforeEach(async ({ context }) => {
    await context.addCookies(cookies);
  });
}
