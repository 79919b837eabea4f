import { expect, type Locator, type Page } from '@playwright/test';

/** Client-rendered data has arrived when no loading placeholder is left in main. */
export async function settled(page: Page): Promise<void> {
  await expect(page.locator('main [aria-hidden="true"].animate-pulse')).toHaveCount(0);
}

/** Presses Tab until `target` has focus; fails if it is not reachable in `max` presses. */
export async function tabTo(page: Page, target: Locator, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`could not reach ${target} with the Tab key`);
}
