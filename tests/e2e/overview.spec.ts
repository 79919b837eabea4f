import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { latestRunState } from './support/sites';
import { snap } from './support/snap';

/*
 * Issue 12: the defects a new user hit around the crawl product, and the overview at a glance. Runs
 * after dashboard.spec.ts on the same server (the owner's organization, overage on, a teammate).
 * The e2e server reaches no website, so every crawl here fails fast: enough to see that a page
 * notices one, and what each page shows for the apps that are on.
 */
test.describe.configure({ mode: 'serial' });

const A11Y_HOST = 'a11y-only.example.com';
const SEO_HOST = 'seo-only.example.com';
let a11ySiteId = '';

async function registerThroughApi(page: Page, body: Record<string, unknown>): Promise<string> {
  const res = await page.request.post('/v1/sites', { data: body });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { site: { id: string } }).site.id;
}

test('an open site page notices a crawl it did not start, and shows only the apps that are on', async ({
  page,
}) => {
  test.setTimeout(180_000);
  // Accessibility only: its first crawl is due at once, and the scheduler (every minute) starts it.
  a11ySiteId = await registerThroughApi(page, {
    rootUrl: `https://${A11Y_HOST}/`,
    scannerEnabled: false,
    seoEnabled: false,
    a11yEnabled: true,
  });
  await page.clock.install();
  await page.goto(`/sites/${a11ySiteId}`);
  const crawl = page.locator('#crawl');
  // Almost always the page opens first. When the scheduler's minute falls between the registration
  // and the page, the crawl (which fails at once: the e2e server reaches no website) is over before
  // the page opens, and the page shows it from the start (seen once in CI).
  await expect(
    crawl.getByText(/^(This site has not been crawled yet\.|Latest crawl (failed|finished))/),
  ).toBeVisible();

  // The crawl starts and ends on the server, with nobody touching the page.
  await expect
    .poll(() => latestRunState(page, a11ySiteId), { timeout: 150_000, intervals: [2_000] })
    .toMatch(/^(completed|failed)$/);
  // The idle page looks again within half a minute: no reload.
  await page.clock.fastForward(31_000);
  await expect(crawl.getByText(/^Latest crawl (failed|finished)/)).toBeVisible({ timeout: 10_000 });
  const history = page.getByRole('table', { name: 'Run history, newest first' });
  await expect(history.getByRole('row').nth(1)).toBeVisible();

  // Only the Accessibility app is on: no broken-link or SEO figures anywhere on the overview.
  await expect(crawl.getByText('Accessibility score')).toBeVisible();
  await expect(crawl.getByText('Broken links')).toHaveCount(0);
  await expect(crawl.getByText('SEO score')).toHaveCount(0);
  await expect(history.getByRole('columnheader', { name: 'Accessibility' })).toBeVisible();
  await expect(history.getByRole('columnheader', { name: 'Broken' })).toHaveCount(0);
  await expect(history.getByRole('columnheader', { name: 'SEO' })).toHaveCount(0);
  await snap(page, 'overview-a11y-only');
  await expectNoAxeViolations(page, 'site overview (accessibility only)');
});

test('the sites list shows the last crawl of any origin, and the figures of the apps that are on', async ({
  page,
}) => {
  // A crawl started through the API after the scheduled one: last_run_at (the scheduler's clock)
  // stays at the first, the list shows this one.
  const started = await page.request.post(`/v1/sites/${a11ySiteId}/crawl`);
  expect(started.status()).toBe(202);
  await expect
    .poll(() => latestRunState(page, a11ySiteId), { timeout: 60_000 })
    .toMatch(/^(completed|failed)$/);
  const status = (await (await page.request.get(`/v1/sites/${a11ySiteId}/status`)).json()) as {
    latestRun: { started_at: number };
    site: { last_run_at: number };
  };
  expect(status.site.last_run_at).toBeLessThan(status.latestRun.started_at);
  await page.goto('/sites');
  // Formatted as the dashboard formats it, in the browser (its ICU may space times differently).
  const when = await page.evaluate(
    (ms) =>
      `${new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(ms)} UTC`,
    status.latestRun.started_at,
  );
  const row = page.getByRole('row', { name: new RegExp(A11Y_HOST) });
  await expect(row.getByRole('cell').nth(1)).toContainText(when);
  // Broken links and SEO are off for this site.
  await expect(row.getByRole('cell').nth(2)).toHaveText('App off');
  await expect(row.getByRole('cell').nth(3)).toHaveText('App off');
  await snap(page, 'sites-glance');
  await expectNoAxeViolations(page, 'sites list (at a glance)');
});

test('SEO alone says it never crawls: in the form, on the overview and on the SEO tab', async ({ page }) => {
  await page.goto('/sites');
  await page.getByLabel('Root URL').fill(`https://${SEO_HOST}/`);
  await page.getByRole('checkbox', { name: 'Broken links' }).uncheck();
  const note = page
    .locator('#register-site')
    .getByRole('status')
    .filter({ hasText: 'SEO alone never crawls' });
  await expect(note).toBeVisible();
  await page.getByRole('button', { name: 'Register site' }).click();

  // Focus moves to the result, which leads on to the new site.
  const result = page.getByRole('status').filter({ hasText: `Registered ${SEO_HOST}.` });
  await expect(result).toBeFocused();
  await expect(result).not.toContainText('first crawl');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: `Open ${SEO_HOST}` })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: SEO_HOST })).toBeVisible();

  const crawl = page.locator('#crawl');
  await expect(crawl.getByText('Not scheduled: neither Broken links nor Accessibility is on.')).toBeVisible();
  await expect(crawl.getByText(/SEO alone never crawls/)).toBeVisible();
  await expect(crawl.getByRole('button', { name: 'Crawl now' })).toHaveCount(0);
  await snap(page, 'overview-seo-only');
  await expectNoAxeViolations(page, 'site overview (SEO only)');

  await page.getByRole('navigation', { name: 'Site sections' }).getByRole('link', { name: 'SEO' }).click();
  await expect(page.getByText('No crawl feeds the SEO checks')).toBeVisible();

  await page.goto('/sites');
  await expect(
    page
      .getByRole('row', { name: new RegExp(SEO_HOST) })
      .getByRole('cell')
      .nth(3),
  ).toHaveText('Not crawled');
});

test('a settings error takes the focus in a summary that leads to the field', async ({ page }) => {
  await page.goto(`/sites/${a11ySiteId}/settings`);
  await page.getByLabel('Exclude paths').fill('/private/[');
  await page.getByRole('button', { name: 'Save settings' }).click();
  const summary = page.getByRole('alert').filter({ hasText: 'The settings were not saved' });
  await expect(summary).toBeFocused();
  await expect(summary).toBeInViewport();
  const link = summary.getByRole('link', { name: /^Exclude paths / });
  await expectNoAxeViolations(page, 'site settings (error summary)');
  await link.click();
  await expect(page.getByLabel('Exclude paths')).toBeFocused();

  await page.getByLabel('Exclude paths').fill('/private/**');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await expect(summary).toHaveCount(0);
  // The button keeps the focus through the save (busy, not disabled).
  await expect(page.getByRole('button', { name: 'Save settings' })).toBeFocused();
});

test('focus lands on the result of key actions, not on the page body', async ({ page }) => {
  await page.goto('/keys');
  await page.getByLabel('Name').fill('focus check');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByRole('heading', { name: /Key created: focus check/ })).toBeFocused();
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('button', { name: 'Re-roll focus check' })).toBeFocused();

  await page.getByRole('button', { name: 'Revoke focus check' }).click();
  await page.getByRole('button', { name: 'Keep' }).click();
  await expect(page.getByRole('button', { name: 'Revoke focus check' })).toBeFocused();

  await page.getByRole('button', { name: 'Revoke focus check' }).click();
  await page.getByRole('button', { name: 'Revoke now focus check' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Key "focus check" revoked.' })).toBeFocused();
});

/**
 * Every control in main lies within the screen's width, and the page does not scroll sideways. The
 * site's section tabs are a strip that scrolls by design (the current tab is scrolled into view), so
 * they are left out.
 */
async function expectControlsInReach(page: Page, label: string) {
  const width = page.viewportSize()?.width ?? 0;
  const outside = await page.locator('main').evaluate((main, screen) => {
    const controls = main.querySelectorAll<HTMLElement>('a, button, input, select, textarea, [tabindex="0"]');
    return [...controls]
      .filter((el) => el.getClientRects().length > 0 && !el.closest('nav[aria-label="Site sections"]'))
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.left < 0 || box.right > screen + 0.5)
      .map(
        ({ el, box }) =>
          `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}" at ${Math.round(box.left)}-${Math.round(box.right)}`,
      );
  }, width);
  expect(outside, `controls out of reach at ${width} px on ${label}`).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${label} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
}

test('at 390 px every control of the sites, site, members, keys and billing pages is in reach', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  // Rows with buttons on each page: a key, a pending invitation (the teammate is a member already).
  await page.goto('/keys');
  await page.getByLabel('Name').fill('phone check');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByRole('button', { name: 'Done' }).click();
  await page.goto('/members');
  await page.getByLabel('Email address').fill('phone@example.com');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Invitation sent to phone@example.com.' }),
  ).toBeVisible();

  const pages = [
    ['/sites', 'sites'],
    [`/sites/${a11ySiteId}`, 'site-overview'],
    ['/members', 'members'],
    ['/keys', 'keys'],
    ['/billing', 'billing'],
  ] as const;
  for (const [path, name] of pages) {
    await page.goto(path);
    await expect(page.locator('main [aria-hidden="true"].animate-pulse')).toHaveCount(0);
    await expectControlsInReach(page, name);
    await snap(page, `${name}-390`);
    await expectNoAxeViolations(page, `${name} at 390 px`);
  }
  // The members' row actions and the invitation's are on screen, not past a scrolled edge.
  await page.goto('/members');
  await expect(page.getByRole('button', { name: 'Edit access for teammate@example.com' })).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Cancel invitation to phone@example.com' })).toBeVisible();
});

test("billing shows each site's usage against its allowances", async ({ page }) => {
  await page.goto('/billing');
  const usage = page.getByRole('table', { name: /usage in \d{4}-\d{2} against its allowances/ });
  const row = usage.getByRole('row', { name: new RegExp(A11Y_HOST) });
  await expect(row).toContainText('of 5,000');
  await expect(row).toContainText('of 1,000');
  await expect(page.getByText(/Monitors are pooled: \d+ of \d+ in use/)).toBeVisible();
  await snap(page, 'billing-usage');
  await expectNoAxeViolations(page, 'billing (usage)');
});

test('deleting a site says so on the sites list, where the focus lands', async ({ page }) => {
  await page.goto('/sites');
  await page.getByRole('link', { name: SEO_HOST }).click();
  await page
    .getByRole('navigation', { name: 'Site sections' })
    .getByRole('link', { name: 'Settings' })
    .click();
  await page.getByLabel(/to confirm/).fill(SEO_HOST);
  await page.getByRole('button', { name: 'Delete site' }).click();
  await expect(page).toHaveURL(/\/sites\?deleted=/);
  await expect(page.getByRole('status').filter({ hasText: `Deleted ${SEO_HOST}` })).toBeFocused();
  await expect(page.getByRole('link', { name: SEO_HOST })).toHaveCount(0);
});
