import { expect, type Page } from '@playwright/test';
import { lastSignInCodeFor, signInCodeFor } from './run';

/**
 * Signs in through the form with the code from the outbox; ends on the page the form leads to. The
 * code mailed before this sign-in (another spec's, or `previousCode`) is never the one typed.
 */
export async function signInThroughForm(
  page: Page,
  email: string,
  previousCode = lastSignInCodeFor(email),
): Promise<string> {
  const emailField = page.getByLabel('Email address');
  // The invitation page locks the address to the invited one.
  if (await emailField.isEditable()) await emailField.fill(email);
  else await expect(emailField).toHaveValue(email);
  await page.getByRole('button', { name: 'Email me a code' }).click();
  await expect(page.getByLabel('Six-digit code')).toBeFocused();
  const code = await signInCodeFor(email, previousCode);
  await page.getByLabel('Six-digit code').fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
  return code;
}
