import { deflateSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserHolder } from '@/lib/a11y/engine/browser';
import { resetConfig } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { organizationLogos, organizations } from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import { monthlyReport } from '@/lib/reports/monthly';
import { renderReportPdf, reportHtml } from '@/lib/reports/pdf';
import { type RequestBody, v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { insertSite } from '../support/fixtures';
import { addMember, insertApiKey, signInOwner } from '../support/http';
import { startResend } from '../support/notify-receivers';

/*
 * Issue 24 item 7: an organization could not be renamed (every mail and report said "dev's sites")
 * and reports carried no branding. GET/PATCH /v1/organization and PUT/DELETE /v1/organization/logo,
 * through the route handlers with real Requests against a real database: who may do what, every
 * refusal a 422 that changes nothing, and the name and logo in the printed report.
 */

let db: Db;
let teardown: () => Promise<void>;
let owner: { token: string; userId: string; tenantId: string };
let admin: { token: string };
let member: { token: string };
let stranger: { token: string; tenantId: string };
const browsers = new BrowserHolder();

/** A real PNG of `width` x `height` opaque pixels of one colour, `extra` bytes of padding in a tEXt chunk. */
function png(width: number, height: number, extra = 0): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0)]);
  for (let x = 0; x < width; x++) row.set([0x1d, 0x4e, 0xd8], 1 + x * 3);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    ...(extra > 0 ? [chunk('tEXt', Buffer.alloc(extra, 0x61))] : []),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const LOGO = png(120, 40);
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>',
);

const get = (token: string) => v1({ token }).GET('/v1/organization');
const rename = (token: string, body: RequestBody<'/v1/organization', 'patch'>) =>
  v1({ token }).PATCH('/v1/organization', { body });
const upload = (token: string, body: RequestBody<'/v1/organization/logo', 'put'>) =>
  v1({ token }).PUT('/v1/organization/logo', { body });
/** Bodies the document refuses, sent as they are: the route's own validation is what the test checks. */
const unchecked = (method: 'PATCH' | 'PUT', path: string, token: string, body: unknown) =>
  v1({ token }).raw({ method, path, body });
const removeLogo = (token: string) => v1({ token }).DELETE('/v1/organization/logo');

async function storedName(tenantId = owner.tenantId) {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, tenantId));
  return row!.name;
}
const storedLogos = () => db.select().from(organizationLogos);

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  owner = await signInOwner(db, 'owner@brand.example');
  admin = await addMember(db, {
    ownerToken: owner.token,
    tenantId: owner.tenantId,
    email: 'admin@brand.example',
    role: 'admin',
  });
  member = await addMember(db, {
    ownerToken: owner.token,
    tenantId: owner.tenantId,
    email: 'member@brand.example',
    role: 'member',
  });
  stranger = await signInOwner(db, 'stranger@other.example');
}, 120_000);

afterAll(async () => {
  await browsers.close();
  await teardown();
});

describe('GET/PATCH /v1/organization', () => {
  it('answers the active organization to any member, with no logo at first', async () => {
    for (const token of [owner.token, admin.token, member.token]) {
      const res = await get(token);
      expect(res.status).toBe(200);
      expect(res.body.organization).toEqual({
        id: owner.tenantId,
        name: await storedName(),
        slug: expect.any(String),
        logo: null,
      });
    }
    // Another organization's owner sees their own, never this one.
    expect((await get(stranger.token)).body.organization.id).toBe(stranger.tenantId);
  });

  it('renames for an owner or admin, trimmed', async () => {
    const res = await rename(owner.token, { name: '  Acme Digital Agency  ' });
    expect(res.status).toBe(200);
    expect(res.body.organization.name).toBe('Acme Digital Agency');
    expect(await storedName()).toBe('Acme Digital Agency');
    expect((await rename(admin.token, { name: 'Acme & Co <Agency>' })).status).toBe(200);
    expect((await get(member.token)).body.organization.name).toBe('Acme & Co <Agency>');
    expect(await storedName(stranger.tenantId)).not.toBe('Acme & Co <Agency>');
  });

  it('403 for a member, 401 without a session, and an API key is refused: nothing changes', async () => {
    const before = await storedName();
    const res = await rename(member.token, { name: 'Taken over' });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('only owners and admins can do this');
    expect((await v1().PATCH('/v1/organization', { body: { name: 'x' } })).status).toBe(401);
    const apiKey = await insertApiKey(db, owner.tenantId);
    const byKey = await v1({ apiKey }).PATCH('/v1/organization', { body: { name: 'By key' } });
    expect(byKey.status).toBe(403);
    expect((await v1({ apiKey }).GET('/v1/organization')).status).toBe(403);
    expect(await storedName()).toBe(before);
  });

  it('422 for an empty, too long or multi-line name and for unknown fields, naming each', async () => {
    const before = await storedName();
    const cases: [unknown, { field: string; message: string }[]][] = [
      [{ name: '   ' }, [{ field: 'name', message: 'must not be empty' }]],
      [{ name: 'x'.repeat(101) }, [{ field: 'name', message: 'must be at most 100 characters' }]],
      [
        { name: 'Acme\r\nBcc: victim@example.com' },
        [{ field: 'name', message: 'must be one line, without control or text-direction characters' }],
      ],
      [
        { name: 'moc.knab\u202e' },
        [{ field: 'name', message: 'must be one line, without control or text-direction characters' }],
      ],
      [{ name: 42 }, [{ field: 'name', message: 'must be a string' }]],
      [{}, [{ field: 'name', message: expect.any(String) }]],
      [
        { name: 'Fine', logo: 'x' },
        [{ field: 'logo', message: 'is not a field of this request (unknown field)' }],
      ],
    ];
    for (const [body, issues] of cases) {
      const res = await unchecked('PATCH', '/v1/organization', owner.token, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.issues).toEqual(issues);
    }
    // 100 characters is allowed (counted as characters, not UTF-16 units).
    expect((await rename(owner.token, { name: '🙂'.repeat(100) })).status).toBe(200);
    await rename(owner.token, { name: before });
    expect(await storedName()).toBe(before);
  });
});

describe('PUT/DELETE /v1/organization/logo', () => {
  it('stores a PNG for an owner or admin and answers it in the organization', async () => {
    const res = await upload(admin.token, { contentType: 'image/png', data: LOGO.toString('base64') });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.organization.logo).toEqual({
      contentType: 'image/png',
      size: LOGO.length,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      updatedAt: expect.any(Number),
      dataUrl: `data:image/png;base64,${LOGO.toString('base64')}`,
    });
    expect((await get(member.token)).body.organization.logo.size).toBe(LOGO.length);
    const [row] = await storedLogos();
    expect(Buffer.from(row!.image).equals(LOGO)).toBe(true);
    expect(row!.tenant_id).toBe(owner.tenantId);
  });

  it('refuses what is not a small PNG or JPEG with a 422 and keeps the logo there was', async () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]);
    const cases: [unknown, { field: string; message: string }][] = [
      [
        { contentType: 'image/svg+xml', data: SVG.toString('base64') },
        { field: 'contentType', message: 'must be image/png or image/jpeg (SVG is not accepted)' },
      ],
      // An SVG (or HTML) renamed to .png: its bytes say what it is.
      [
        { contentType: 'image/png', data: SVG.toString('base64') },
        { field: 'data', message: 'is not a PNG or JPEG image' },
      ],
      [
        { contentType: 'image/png', data: jpeg.toString('base64') },
        { field: 'contentType', message: 'is image/png but the file is image/jpeg' },
      ],
      [
        { contentType: 'image/png', data: png(10, 10, 101 * 1024).toString('base64') },
        { field: 'data', message: 'is 102 KB: a logo may be at most 100 KB' },
      ],
      [
        { contentType: 'image/png', data: 'not base64!' },
        { field: 'data', message: 'must be the image file encoded as base64' },
      ],
      [
        { contentType: 'image/png', data: '' },
        { field: 'data', message: 'is empty: choose an image file' },
      ],
      [
        { contentType: 'image/png', data: 'A'.repeat(200_000) },
        { field: 'data', message: 'is larger than 100 KB: a logo may be at most 100 KB' },
      ],
    ];
    for (const [body, issue] of cases) {
      const res = await unchecked('PUT', '/v1/organization/logo', owner.token, body);
      expect(res.status, issue.message).toBe(422);
      expect(res.body.issues).toEqual([issue]);
    }
    const [row] = await storedLogos();
    expect(Buffer.from(row!.image).equals(LOGO)).toBe(true);
  });

  it('accepts a JPEG, 403 for a member on upload and removal, removes for an owner', async () => {
    const member403 = await upload(member.token, { contentType: 'image/png', data: LOGO.toString('base64') });
    expect(member403.status).toBe(403);
    expect((await removeLogo(member.token)).status).toBe(403);
    expect(await storedLogos()).toHaveLength(1);

    const res = await removeLogo(owner.token);
    expect(res.status).toBe(200);
    expect(res.body.organization.logo).toBeNull();
    expect(await storedLogos()).toHaveLength(0);
  });
});

describe('the monthly report', () => {
  it('carries the name and the logo: escaped in the HTML, printed in the PDF', async () => {
    await rename(owner.token, { name: 'Acme <script>alert(1)</script> Agency' });
    await upload(owner.token, { contentType: 'image/png', data: LOGO.toString('base64') });
    const siteId = await insertSite(db, owner.tenantId, 'brand.example');
    const { sites } = await import('@/lib/db/schema');
    const [site] = await db.select().from(sites).where(eq(sites.id, siteId));
    const report = await monthlyReport(db, owner.tenantId, site!, '2026-10', Date.UTC(2026, 10, 2));
    expect(report.organizationLogo).toBe(`data:image/png;base64,${LOGO.toString('base64')}`);

    const html = await reportHtml(report);
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('Acme &lt;script&gt;alert(1)&lt;/script&gt; Agency');
    expect(html).toContain(`<img class="logo" src="data:image/png;base64,${LOGO.toString('base64')}"`);

    const pdf = await renderReportPdf(report, { browsers });
    const doc = await getDocumentProxy(new Uint8Array(pdf));
    const { text } = await extractText(doc, { mergePages: true });
    expect(text).toContain('Acme <script>alert(1)</script> Agency');
    // The logo is drawn: an image object in the PDF, which the report without a logo has none of.
    const isImage = (bytes: Buffer) => bytes.toString('latin1').includes('/Subtype /Image');
    expect(isImage(pdf)).toBe(true);
    await removeLogo(owner.token);
    const plain = await renderReportPdf(
      await monthlyReport(db, owner.tenantId, site!, '2026-10', Date.UTC(2026, 10, 2)),
      { browsers },
    );
    expect(isImage(plain)).toBe(false);
  }, 60_000);
});

describe('the mails', () => {
  it("show the organization's logo inline (cid:) and say its name; without a logo, no image", async () => {
    const resend = await startResend();
    process.env.RESEND_API_KEY = 're_test_branding';
    process.env.RESEND_BASE_URL = resend.url;
    resetConfig();
    try {
      await rename(owner.token, { name: 'Northwind Digital' });
      await upload(owner.token, { contentType: 'image/png', data: LOGO.toString('base64') });
      const test = () =>
        v1({ token: owner.token }).POST('/v1/notifications/test', { body: { email: 'owner@brand.example' } });
      expect((await test()).status).toBe(200);
      const [branded] = resend.processed;
      expect(branded!.body.html).toContain('src="cid:organization-logo"');
      expect(branded!.body.html).toContain('alt="Northwind Digital"');
      expect(branded!.body.text).not.toContain('cid:');
      expect(branded!.body.attachments).toEqual([
        {
          filename: 'logo.png',
          content: LOGO.toString('base64'),
          content_type: 'image/png',
          content_id: 'organization-logo',
        },
      ]);

      await removeLogo(owner.token);
      expect((await test()).status).toBe(200);
      const plain = resend.processed[1]!;
      expect(plain.body.html).not.toContain('cid:');
      expect(plain.body.attachments).toBeUndefined();
      expect(plain.body.html).toContain('Northwind Digital');
    } finally {
      await resend.close();
      await closeDispatchers();
      delete process.env.RESEND_API_KEY;
      delete process.env.RESEND_BASE_URL;
      resetConfig();
    }
  }, 60_000);
});
