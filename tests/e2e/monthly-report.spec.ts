import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { snap } from './support/snap';

/*
 * Issue 15 item 6 and issue 24 item 7: the site overview's monthly report control. The month picker and the download
 * button work from the keyboard, the download is the PDF named after the site and month, and the
 * printable page shows the same report outside the dashboard's chrome. The signed-in owner of
 * auth.setup.ts registers a site of their own.
 */

test('downloads the monthly report as a PDF from the site overview, with the keyboard', async ({ page }) => {
  test.setTimeout(120_000);
  const created = await page.request.post('/v1/sites', {
    data: { rootUrl: 'https://monthly-report.example.com/', a11yEnabled: true },
  });
  expect(created.status(), await created.text()).toBe(201);
  const siteId = ((await created.json()) as { site: { id: string } }).site.id;

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/sites/${siteId}`);
    const section = page.getByRole('region', { name: 'Monthly report' });
    await expect(section.getByLabel('Month')).toBeVisible();
    await section.scrollIntoViewIfNeeded();
    await snap(page, `monthly-report-control-${width}`);
    await expectNoAxeViolations(page, `site overview with the monthly report control at ${width} px`);
  }

  const section = page.getByRole('region', { name: 'Monthly report' });
  // Registered just now: the month to date is the one report there is, offered and selected (issue
  // 24 item 7: only ended months were offered, twelve empty ones for a new site).
  await expect(
    section.getByText(/^This site was registered this month: its report so far covers the month to date\./),
  ).toBeVisible();
  const month = section.getByLabel('Month');
  await expect(month.locator('option')).toHaveCount(1);
  await expect(month.locator('option')).toHaveText(/^\w+ \d{4} \(month to date\)$/);
  const chosen = await month.inputValue();
  expect(chosen).toBe(new Date().toISOString().slice(0, 7));
  await month.focus();
  await page.keyboard.press('Tab');
  const download = section.getByRole('button', { name: 'Download monthly report (PDF)' });
  await expect(download).toBeFocused();
  const [file] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect(file.suggestedFilename()).toBe(`monthly-report.example.com-${chosen}.pdf`);
  const bytes = await (await file.createReadStream()).toArray();
  expect(Buffer.concat(bytes).subarray(0, 5).toString()).toBe('%PDF-');

  // The printable page: the same report, no dashboard navigation.
  await section.getByRole('button', { name: 'Open printable page' }).click();
  await expect(page).toHaveURL(new RegExp(`/sites/${siteId}/report\\?month=`));
  await expect(
    page.getByRole('heading', { level: 1, name: 'Monthly report: monthly-report.example.com' }),
  ).toBeVisible();
  await expect(page.getByRole('navigation')).toHaveCount(0);
  // Nothing measured yet: one short note, not a page per app saying so.
  await expect(page.getByText(/^Nothing was measured for this site in \w+ \d{4} so far\.$/)).toBeVisible();
  await expect(page.getByText(/^Broken links: no crawl completed in \w+ \d{4}\.$/)).toBeVisible();
  await expect(page.getByRole('heading', { level: 2 })).toHaveCount(0);
  await snap(page, 'monthly-report-print');
  await expectNoAxeViolations(page, 'monthly report print page');
});
