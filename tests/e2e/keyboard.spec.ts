import { expect, test } from '@playwright/test';
import { tabTo } from './support/page';

test('the first Tab reaches the skip link, which moves focus to the main content', async ({ page }) => {
  await page.goto('/sites');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.locator('main#main')).toBeFocused();
});

test('register a site with the keyboard only', async ({ page }) => {
  await page.goto('/sites');
  const rootUrl = page.getByLabel('Root URL');
  await tabTo(page, rootUrl);
  await page.keyboard.type('https://docs.example.com');

  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Crawl cadence')).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(page.getByLabel('Crawl cadence')).toHaveValue('4320');

  const a11y = page.getByRole('checkbox', { name: 'Accessibility' });
  await tabTo(page, a11y, 5);
  await page.keyboard.press('Space');
  await expect(a11y).toBeChecked();

  await tabTo(page, page.getByRole('button', { name: 'Register site' }), 6);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Registered docs.example.com.' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'docs.example.com', exact: true })).toBeVisible();
  await expect(page.getByRole('row', { name: /docs\.example\.com/ })).toContainText('Accessibility');
});

test('the organization switcher opens, closes with Escape and returns focus', async ({ page }) => {
  await page.goto('/sites');
  const switcher = page.getByRole('button', { name: /^Organization:/ });
  await tabTo(page, switcher, 10);
  await page.keyboard.press('Enter');
  await expect(switcher).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('link', { name: 'Create organization' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(switcher).toHaveAttribute('aria-expanded', 'false');
  await expect(switcher).toBeFocused();
});
