import { expect, type Locator, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe';
import { snap } from './snap';

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

/** Once settled: a screenshot and axe at 1280 px, then at 390 px (no sideways scrolling), back at 1280. */
export async function bothWidths(page: Page, name: string, label: string) {
  await settled(page);
  await snap(page, name);
  await expectNoAxeViolations(page, label);
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, `${name}-390`);
  await expectNoAxeViolations(page, `${label} at 390 px`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 900 });
}
