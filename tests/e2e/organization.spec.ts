import { deflateSync } from 'node:zlib';
import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { settled } from './support/page';
import { signInThroughForm } from './support/sign-in';
import { snap } from './support/snap';

/*
 * Issue 24 item 7: the organization could not be renamed (every mail and report said "dev's sites")
 * and reports carried no branding. An owner of their own (so the other specs' "owner's sites" stays
 * as it is) renames the organization and uploads a logo from the Organization page with the
 * keyboard, at 1280 and 390 px, axe-clean, and the monthly report's printable page carries both; a
 * file that is not a PNG or JPEG is refused with the message on the field.
 */

test.use({
  storageState: { cookies: [], origins: [] },
  extraHTTPHeaders: { 'x-forwarded-for': '203.0.113.57' },
});

const BRANDER = 'brander@example.com';

/** A 160 x 40 PNG of one colour: a logo. */
function logoPng(): Buffer {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = table[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const [width, height] = [160, 40];
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([0x0f, 0x76, 0x6e], 1 + x * 3);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function openOrganizationPage(page: Page) {
  await page.goto('/sites');
  // Below 640 px the dashboard's menu is folded behind its button.
  const menu = page.getByRole('button', { name: /^Menu/ });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('link', { name: 'Organization', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Organization' })).toBeVisible();
  await settled(page);
}

test('an owner renames the organization and brands its reports with a logo, with the keyboard', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.goto('/sign-in');
  await signInThroughForm(page, BRANDER);
  await expect(page).toHaveURL(/\/sites$/);

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await openOrganizationPage(page);
    await expect(page.getByText("No logo yet: reports show the organization's name alone.")).toBeVisible();
    await snap(page, `organization-empty-${width}`);
    await expectNoAxeViolations(page, `organization page at ${width} px`);
  }

  // Rename: the field, then Enter; the new name is in the header's switcher at once.
  const name = page.getByLabel('Organization name');
  await name.fill('   ');
  await name.press('Enter');
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toBeFocused();
  await expect(page.getByText('name: must not be empty')).toBeVisible();
  await name.fill('Northwind Digital');
  await name.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Renamed to Northwind Digital.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Organization: Northwind Digital' })).toBeVisible();

  // A file that is not a PNG or JPEG is refused before it is sent, the message on the field.
  const file = page.getByLabel('Logo file');
  await file.setInputFiles({
    name: 'logo.svg',
    mimeType: 'image/svg+xml',
    buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  });
  await page.getByRole('button', { name: 'Upload logo' }).press('Enter');
  await expect(page.getByText('logo.svg is not a PNG or JPEG image (SVG is not accepted).')).toBeVisible();
  await expect(file).toBeFocused();

  // A PNG: uploaded with the keyboard, shown, and focus on the outcome.
  await file.setInputFiles({ name: 'northwind.png', mimeType: 'image/png', buffer: logoPng() });
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Upload logo' })).toBeFocused();
  await page.keyboard.press('Enter');
  const saved = page.getByRole('status').filter({ hasText: 'Logo saved: the next reports carry it.' });
  await expect(saved).toBeFocused();
  await expect(page.getByRole('img', { name: 'Current logo of Northwind Digital' })).toBeVisible();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await snap(page, `organization-logo-${width}`);
    await expectNoAxeViolations(page, `organization page with a logo at ${width} px`);
  }

  // The monthly report carries both: its printable page, for a site registered now.
  const created = await page.request.post('/v1/sites', {
    data: { rootUrl: 'https://northwind.example.com/' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const siteId = ((await created.json()) as { site: { id: string } }).site.id;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/sites/${siteId}/report`);
  await expect(page.getByRole('img', { name: 'Northwind Digital logo' })).toBeVisible();
  await expect(page.locator('.brand .org')).toHaveText('Northwind Digital');
  await snap(page, 'organization-report-cover');
  await expectNoAxeViolations(page, 'monthly report with the organization logo');

  // Remove: focus on the outcome, the button gone.
  await openOrganizationPage(page);
  await page.getByRole('button', { name: 'Remove logo' }).press('Enter');
  await expect(
    page.getByRole('status').filter({ hasText: 'Logo removed: reports show the name alone.' }),
  ).toBeFocused();
  await expect(page.getByRole('button', { name: 'Remove logo' })).toHaveCount(0);
});
