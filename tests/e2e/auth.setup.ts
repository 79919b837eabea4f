import { expect, test as setup } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { ownerStatePath, signInCodeFor } from './support/run';

export const OWNER = 'owner@example.com';

setup('sign in with the code from the outbox', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to Sitewatch' })).toBeVisible();
  await expectNoAxeViolations(page, 'sign-in page');

  await page.getByLabel('Email address').fill(OWNER);
  await page.getByRole('button', { name: 'Email me a code' }).click();
  await expect(page.getByRole('status').filter({ hasText: `We sent a code to ${OWNER}` })).toBeVisible();
  await expectNoAxeViolations(page, 'sign-in page, code step');

  // A wrong code is refused with the message tied to the field.
  await page.getByLabel('Six-digit code').fill('000000');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByLabel('Six-digit code')).toHaveAttribute('aria-invalid', 'true');

  // The code survives one wrong attempt (three are allowed).
  await page.getByLabel('Six-digit code').fill(await signInCodeFor(OWNER));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/sites$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sites' })).toBeVisible();
  await page.context().storageState({ path: ownerStatePath() });
});
