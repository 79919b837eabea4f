import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { settled } from './support/page';
import { snap } from './support/snap';

/*
 * Billing you can trust (issue 24 item 9): the subscription is on the page, the overage prices are
 * shown, and turning overage on asks first in a modal dialog with the prices and the month's bill
 * before and after, by keyboard as by mouse. Leaves overage off, as it found it.
 */

test.describe.configure({ mode: 'serial' });

const overageOn = async (page: Page): Promise<boolean> =>
  (await (await page.request.get('/v1/billing')).json()).overageEnabled;

async function openBilling(page: Page) {
  await page.goto('/billing');
  await settled(page);
  const toggle = page.getByRole('switch', { name: 'Overage billing' });
  // A run that stopped half-way may have left it on: off needs no confirmation.
  if ((await toggle.getAttribute('aria-checked')) === 'true') {
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
  }
  return toggle;
}

test('billing shows the subscription, the prices and a bill that starts from the subscription', async ({
  page,
}) => {
  await openBilling(page);
  const subscription = page.getByRole('region', { name: 'Subscription' });
  await expect(subscription).toContainText('Standard');
  await expect(subscription).toContainText('$49.00 a month');
  await expect(subscription).toContainText('3 sites');
  const overage = page.getByRole('region', { name: 'Overage' });
  await expect(overage.getByRole('heading', { name: 'Overage prices' })).toBeVisible();
  await expect(overage).toContainText('$10.00 per site a month');
  await expect(overage).toContainText('$1.00 per 1,000 pages');
  await expect(overage).toContainText('$5.00 per 1,000 pages');
  await expect(overage).toContainText('$2.00 per monitor a month');
  const bill = page.getByRole('table', { name: /Projected bill for/ });
  await expect(bill.getByRole('row', { name: /Standard plan subscription/ })).toContainText('$49.00');
  await expect(bill.getByRole('row', { name: /Total/ })).toContainText('$49.00');
  await expect(page.getByText('Nothing beyond your subscription')).toHaveCount(0);
  await expectNoAxeViolations(page, 'billing');
  await snap(page, 'billing-subscription-1280');
});

test('turning overage on asks first: Escape and Cancel change nothing, focus returns to the switch', async ({
  page,
}) => {
  const toggle = await openBilling(page);
  await toggle.focus();
  await page.keyboard.press('Space');
  const dialog = page.getByRole('dialog', { name: 'Turn overage billing on?' });
  await expect(dialog).toBeVisible();
  // Focus starts on the way back, so a stray Enter changes nothing.
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expect(dialog).toContainText('$10.00 per site a month');
  await expect(dialog).toContainText('$5.00 per 1,000 pages');
  await expect(dialog.getByText('Now', { exact: true })).toBeVisible();
  await expect(dialog.getByText('With overage on', { exact: true })).toBeVisible();
  await expect(dialog).toContainText('$49.00');
  await expectNoAxeViolations(page, 'billing: overage confirmation');
  await snap(page, 'billing-confirm-1280');

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(toggle).toBeFocused();
  await expect(toggle).toHaveAttribute('aria-checked', 'false');

  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Enter'); // on Cancel
  await expect(dialog).toBeHidden();
  await expect(toggle).toBeFocused();
  expect(await overageOn(page)).toBe(false);
});

test('confirming turns overage on, says so, and turning it off needs no question', async ({ page }) => {
  const toggle = await openBilling(page);
  await toggle.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Turn overage billing on?' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  // Tab stays inside the modal: the next stop is the action, not the page behind.
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Turn overage on' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await expect(toggle).toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: 'Overage billing is on.' })).toBeVisible();
  expect(await overageOn(page)).toBe(true);

  await page.keyboard.press('Space');
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Overage billing is off.' })).toBeVisible();
  expect(await overageOn(page)).toBe(false);
});

test('at 390 px the page and the confirmation fit the screen and stay accessible', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const toggle = await openBilling(page);
  await expectNoAxeViolations(page, 'billing (390 px)');
  await snap(page, 'billing-390');
  await toggle.click();
  const dialog = page.getByRole('dialog', { name: 'Turn overage billing on?' });
  await expect(dialog).toBeVisible();
  const box = await dialog.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  await expectNoAxeViolations(page, 'billing: overage confirmation (390 px)');
  await snap(page, 'billing-confirm-390');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(toggle).toBeFocused();
  expect(await overageOn(page)).toBe(false);
});
