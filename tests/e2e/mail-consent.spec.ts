import { expect, type Locator, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { settled, tabTo } from './support/page';
import { linkMailedTo } from './support/run';
import { snap } from './support/snap';

/*
 * Mail that protects its sender, as an owner and an outside address live it (issue 23 item 4): an
 * address the owner adds is pending in the settings until it confirms through the link of the mail
 * it got (read from the server's outbox, as the person would read their inbox); a second mail to it
 * within the confirmation limits is refused, and the row says so; the confirm page, then the row
 * reads confirmed; the unsubscribe link of a mail it then receives, the unsubscribe page, and the
 * row says what it unsubscribed from, with a way to subscribe it again by keyboard.
 */
test.describe.configure({ mode: 'serial' });

const GUEST = 'guest@consent-e2e.example';
const WAITING = 'waiting@consent-e2e.example';

async function bothWidths(page: Page, name: string, label: string) {
  await settled(page);
  await snap(page, name);
  await expectNoAxeViolations(page, label);
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, `${name}-390`);
  await expectNoAxeViolations(page, `${label} at 390 px`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The address's row in the settings' "Mail addresses" table (the 1280 px layout). */
function addressRow(page: Page, email: string): Locator {
  return page
    .getByRole('region', { name: 'Mail addresses' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: email, exact: true }) });
}

test('an outside address added to a list is pending; another mail within the limits is refused on its row', async ({
  page,
}) => {
  await page.goto('/notifications');
  await settled(page);
  const addresses = page.getByRole('group', { name: 'Uptime alerts' }).getByLabel('Other addresses');
  const before = (await addresses.inputValue()).trim();
  await addresses.fill([before, GUEST, WAITING].filter(Boolean).join('\n'));
  await page.getByRole('button', { name: 'Save notification settings' }).click();
  await expect(page.getByText('Saved. The next notification goes to these receivers.')).toBeVisible();

  const guest = addressRow(page, GUEST);
  await expect(guest).toContainText('Pending confirmation');
  await expect(guest).toContainText(/Confirmation mailed .*; its link works until/);
  await expect(guest.getByRole('cell').nth(2)).toHaveText('Nothing');

  // The confirmation went out when the list was saved: another one now is within the 10-minute wait.
  const waiting = addressRow(page, WAITING);
  await waiting.getByRole('button', { name: `Resend confirmation to ${WAITING}` }).click();
  await expect(waiting).toContainText(
    /confirmation mail not sent: the limit of confirmation mails was reached; it can be sent again after/,
  );
  await expect(page.getByRole('status').filter({ hasText: `Not sent to ${WAITING}` })).toBeVisible();
  await expect(waiting).toContainText('Pending confirmation');
  await bothWidths(page, 'notifications-addresses-pending', 'notification settings with pending addresses');
});

test('the confirmation link: the confirm page, then the settings read confirmed', async ({ page }) => {
  const link = await linkMailedTo(GUEST, 'Please confirm', '/confirm/');
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Confirm notifications' })).toBeVisible();
  await expect(page.getByText(GUEST)).toBeVisible();
  await bothWidths(page, 'confirm-page', 'the confirm page');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(
    page.getByText('Confirmed. This address now receives the notifications it was added to.'),
  ).toBeVisible();
  await snap(page, 'confirm-page-done');

  await page.goto('/notifications');
  await settled(page);
  const guest = addressRow(page, GUEST);
  await expect(guest).toContainText('Confirmed');
  await expect(guest).toContainText(/Since /);
  await expect(guest.getByRole('button', { name: /Resend confirmation/ })).toHaveCount(0);
  // The other one still waits.
  await expect(addressRow(page, WAITING)).toContainText('Pending confirmation');
});

test('the unsubscribe link of a mail: the unsubscribe page, then the settings say what it stopped', async ({
  page,
}) => {
  // A test mail, like every mail to it, carries the one-click unsubscribe (a test's topic is "all").
  await page.goto('/notifications');
  await settled(page);
  const testMail = page.getByRole('group', { name: 'Send a test email' });
  await testMail.getByLabel('Test address').selectOption({ label: GUEST });
  await testMail.getByRole('button', { name: 'Send test email' }).click();
  await expect(testMail.getByText('Test delivered: the mail service accepted it.')).toBeVisible();

  const link = await linkMailedTo(GUEST, '', '/unsubscribe/');
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Unsubscribe' })).toBeVisible();
  await bothWidths(page, 'unsubscribe-page', 'the unsubscribe page');
  await page.getByRole('button', { name: 'Unsubscribe from all notifications' }).click();
  await expect(
    page.getByText(
      'Unsubscribed from all notifications: this organization no longer sends them to this address.',
    ),
  ).toBeVisible();
  await snap(page, 'unsubscribe-page-done');

  await page.goto('/notifications');
  await settled(page);
  const guest = addressRow(page, GUEST);
  await expect(guest).toContainText('Confirmed');
  await expect(guest.getByRole('cell').nth(2)).toContainText(/All notifications\s*since /);
  await bothWidths(page, 'notifications-addresses-unsubscribed', 'notification settings with an unsubscribe');

  // By keyboard: subscribe it again; an outside address is asked to confirm again first.
  const again = guest.getByRole('button', { name: `Subscribe again: ${GUEST} to all notifications` });
  await tabTo(page, again, 120);
  await page.keyboard.press('Enter');
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: `${GUEST} is subscribed to all notifications again once it confirms` }),
  ).toBeVisible();
  await expect(guest.getByRole('cell').nth(2)).toHaveText('Nothing');
  await expect(guest).toContainText(/Pending confirmation|Not confirmed/);
});
