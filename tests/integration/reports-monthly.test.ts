import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as notificationsRoute from '@/app/api/v1/notifications/route';
import * as monthlyRoute from '@/app/api/v1/sites/[id]/reports/monthly/route';
import { BrowserHolder } from '@/lib/a11y/browser';
import { storePageScans } from '@/lib/a11y/store';
import { resetConfig } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import {
  mailMessages,
  notificationDeliveries,
  notificationOutbox,
  organizations,
  reportPdfs,
  reportRenderLeases,
  runs,
  type Site,
  sites,
  uptimeIncidents,
  uptimeMonitors,
} from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import { deliverDue, dispatchEvents } from '@/lib/notify/deliver';
import { lastCompleteMonth, monthlyReport, recentMonths, reportMonth } from '@/lib/reports/monthly';
import { renderReportPdf } from '@/lib/reports/pdf';
import { queueMonthlyReports, reportAttachments } from '@/lib/reports/schedule';
import { useTestDatabase } from '../support/db';
import { insertSite } from '../support/fixtures';
import { call, insertApiKey, signInOwner } from '../support/http';
import { type Receiver, startResend } from '../support/notify-receivers';

/*
 * The stakeholder report of a seeded site for October 2026: the figures assembled from the month's
 * runs and incidents, then the PDF printed by real Chromium and read back with unpdf (page count,
 * text): the organization's name, the period, the broken-link count, the SEO and accessibility
 * scores, the AA verdict and the uptime share, and no section for an app that is off.
 */

let db: Db;
let teardown: () => Promise<void>;
let owner: { token: string; userId: string; tenantId: string };
let full: Site;
let partial: Site;
const browsers = new BrowserHolder();
let resend: Receiver | undefined;

const ORG = 'Acme Widgets Ltd';
const PERIOD = '2026-10';
const OCT = Date.UTC(2026, 9, 1);
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 24, 4, 0);

async function crawl(site: Site, startedAt: number, brokenCount: number, seoScore: number | null) {
  await db.insert(runs).values({
    site_id: site.id,
    tenant_id: site.tenant_id,
    started_at: startedAt,
    finished_at: startedAt + 60_000,
    state: 'completed',
    kind: 'crawl',
    pages_crawled: 120,
    links_checked: 900,
    broken_count: brokenCount,
    internal_broken: brokenCount - 1,
    external_broken: 1,
    pages_with_broken_count: 2,
    seo_score: seoScore,
    seo_serious: 3,
    seo_issue_count: 3,
    seo_pages_scanned: 120,
  });
}

async function siteRow(id: string): Promise<Site> {
  const [row] = await db.select().from(sites).where(eq(sites.id, id));
  return row!;
}

/** A site of the owner's, registered before the month (the monthly mail skips sites that did not exist in it). */
async function siteBeforeOctober(host: string, apps: Partial<typeof sites.$inferInsert>): Promise<Site> {
  const id = await insertSite(db, owner.tenantId, host);
  await db
    .update(sites)
    .set({ ...apps, created_at: OCT - 60 * DAY })
    .where(eq(sites.id, id));
  return siteRow(id);
}

async function pdfText(pdf: Buffer) {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const { totalPages, text } = await extractText(doc, { mergePages: true });
  return { totalPages, text: text.replace(/\s+/g, ' ') };
}

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  owner = await signInOwner(db, 'reports@example.com');
  await db.update(organizations).set({ name: ORG }).where(eq(organizations.id, owner.tenantId));

  full = await siteBeforeOctober('report.example', { a11y_enabled: 1 });
  // September's and November's crawls are outside the month; October's two make the trend 7 -> 4.
  await crawl(full, OCT - 2 * DAY, 50, 10);
  await crawl(full, OCT + 3 * DAY, 7, 80);
  await crawl(full, OCT + 17 * DAY, 4, 87);
  await crawl(full, NOW - DAY, 99, 20);
  const [scan] = await db
    .insert(runs)
    .values({
      site_id: full.id,
      tenant_id: full.tenant_id,
      started_at: OCT + 18 * DAY,
      finished_at: OCT + 18 * DAY + 60_000,
      state: 'completed',
      kind: 'a11y',
    })
    .returning({ id: runs.id });
  await storePageScans(db, { tenantId: full.tenant_id, runId: scan!.id }, [
    {
      url: 'https://report.example/',
      status: 'scanned',
      findings: [
        {
          rule: 'image-alt',
          type: 'violation',
          impact: 'critical',
          help: 'Images must have alternative text',
          helpUrl: 'https://dequeuniversity.com/rules/axe/4.10/image-alt',
          count: 1,
          nodes: [{ selector: 'img.hero' }],
        },
      ],
      passes: ['html-has-lang', 'document-title'],
      inapplicable: [],
    },
  ]);
  const [monitor] = await db
    .insert(uptimeMonitors)
    .values({
      site_id: full.id,
      tenant_id: full.tenant_id,
      url: 'https://report.example/',
      name: 'Home page',
      enabled: 1,
      created_at: OCT - 30 * DAY,
      updated_at: OCT - 30 * DAY,
    })
    .returning({ id: uptimeMonitors.id });
  // One hour down on October 10th: 1 - 1/744 of the month's hours is 99.865...%, shown as 99.86%.
  await db.insert(uptimeIncidents).values({
    tenant_id: full.tenant_id,
    monitor_id: monitor!.id,
    down_at: OCT + 9 * DAY,
    recovered_at: OCT + 9 * DAY + 3_600_000,
    cause: 'http_5xx',
    created_at: OCT + 9 * DAY,
  });

  partial = await siteBeforeOctober('links-only.example', { uptime_enabled: 0, seo_enabled: 0 });
  await crawl(partial, OCT + 5 * DAY, 12, null);
}, 60_000);

afterAll(async () => {
  await browsers.close();
  await resend?.close();
  await closeDispatchers();
  delete process.env.RESEND_API_KEY;
  delete process.env.RESEND_BASE_URL;
  resetConfig();
  await teardown();
});

describe('months', () => {
  it('defaults to the last complete month, refuses malformed and future ones, lists the last 12', () => {
    expect(lastCompleteMonth(NOW)).toBe('2026-10');
    expect(lastCompleteMonth(Date.UTC(2026, 0, 1))).toBe('2025-12');
    expect(reportMonth(undefined, NOW)).toBe('2026-10');
    expect(reportMonth('2026-11', NOW)).toBe('2026-11');
    for (const bad of ['2026-12', '2026-13', '2026-1', 'October', '2026-10-01', ''])
      expect(reportMonth(bad, NOW), bad).toBeNull();
    const months = recentMonths(12, NOW);
    expect(months).toHaveLength(12);
    expect(months[0]).toBe('2026-10');
    expect(months[11]).toBe('2025-11');
  });
});

describe('monthly report', () => {
  it('assembles the month: crawls in the month only, SEO, accessibility, uptime per monitor', async () => {
    const report = await monthlyReport(db, owner.tenantId, full, PERIOD, NOW);
    expect(report).toMatchObject({
      organizationName: ORG,
      period: PERIOD,
      periodLabel: 'October 2026',
      from: OCT,
      to: Date.UTC(2026, 10, 1),
      partial: false,
    });
    expect(report.brokenLinks?.trend.map((p) => p.brokenCount)).toEqual([7, 4]);
    expect(report.brokenLinks?.latest?.brokenCount).toBe(4);
    expect(report.brokenLinks?.change).toBe(-3);
    expect(report.seo?.latest?.score).toBe(87);
    expect(report.a11y?.latest?.score).toBe(58);
    expect(report.a11y?.latest?.verdict.compliant).toBe(false);
    expect(report.a11y?.latest?.critical).toBe(1);
    const [monitor] = report.uptime!.monitors;
    expect(monitor).toMatchObject({ label: 'Home page', downtimeMs: 3_600_000 });
    expect(monitor!.uptimePct).toBeCloseTo(100 * (1 - 1 / 744), 6);
    expect(monitor!.incidents).toHaveLength(1);
  });

  it('leaves out the sections of apps that are off', async () => {
    const report = await monthlyReport(db, owner.tenantId, partial, PERIOD, NOW);
    expect(report.brokenLinks?.latest?.brokenCount).toBe(12);
    expect(report.seo).toBeNull();
    expect(report.a11y).toBeNull();
    expect(report.uptime).toBeNull();
  });

  it('says so when nothing ran in the month', async () => {
    const report = await monthlyReport(db, owner.tenantId, full, '2026-06', NOW);
    expect(report.brokenLinks).toEqual({ trend: [], latest: null, change: null });
    expect(report.seo).toEqual({ latest: null });
    expect(report.a11y).toEqual({ latest: null });
    expect(report.uptime?.monitors).toEqual([]);
  });
});

describe('PDF', () => {
  it('prints the branded report in Chromium: one page per section, the figures in its text', async () => {
    const pdf = await renderReportPdf(await monthlyReport(db, owner.tenantId, full, PERIOD, NOW), {
      browsers,
    });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const { totalPages, text } = await pdfText(pdf);
    // The cover with broken links, then SEO, accessibility and uptime each from a new page.
    expect(totalPages).toBe(4);
    expect(text).toContain('Sitewatch');
    expect(text).toContain(ORG);
    expect(text).toContain('Monthly report: report.example');
    expect(text).toContain('October 2026');
    expect(text).toContain('found 4 broken links on 2 pages');
    expect(text).toContain('SEO score 87 out of 100');
    expect(text).toContain('Accessibility score 58 out of 100');
    expect(text).toMatch(/WCAG 2\.2 level AA: not compliant \(1 level A failure on 1 page\)/);
    expect(text).toContain('99.86%');
    expect(text).toContain('server error (HTTP 5xx)');
    expect(text).toContain('Page 4 of 4');
    // The order the issue asks for.
    const order = ['Broken links', 'SEO score 87', 'Accessibility score', 'Uptime'].map((s) =>
      text.indexOf(s),
    );
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(order.every((i) => i >= 0)).toBe(true);
  }, 60_000);

  it('has no section for an app that is off', async () => {
    const pdf = await renderReportPdf(await monthlyReport(db, owner.tenantId, partial, PERIOD, NOW), {
      browsers,
    });
    const { totalPages, text } = await pdfText(pdf);
    expect(totalPages).toBe(1);
    expect(text).toContain('found 12 broken links');
    expect(text).not.toContain('SEO');
    expect(text).not.toContain('Accessibility');
    expect(text).not.toContain('Uptime');
  }, 60_000);
});

describe('GET /v1/sites/{id}/reports/monthly', () => {
  const download = (id: string, query: string, auth: { token?: string; apiKey?: string }) =>
    monthlyRoute.GET(
      new Request(`http://localhost:3000/api/v1/sites/${id}/reports/monthly${query}`, {
        headers: auth.token ? { authorization: `Bearer ${auth.token}` } : { 'x-api-key': auth.apiKey! },
      }),
      { params: Promise.resolve({ id }) },
    );

  it('answers the PDF as an attachment named after the site and month', async () => {
    const res = await download(full.id, `?month=${PERIOD}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="report.example-2026-10.pdf"');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const { text } = await pdfText(Buffer.from(await res.arrayBuffer()));
    expect(text).toContain(ORG);
    expect(text).toContain('October 2026');
  }, 60_000);

  it('defaults to the last complete month, for an API key too', async () => {
    const apiKey = await insertApiKey(db, owner.tenantId);
    const res = await download(partial.id, '', { apiKey });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="links-only.example-${lastCompleteMonth()}.pdf"`,
    );
  }, 60_000);

  // A validation failure as GET /v1/usage's bad `period` is (the spec keeps 400 for the retired limit kind).
  it('422 naming month for a month that is not one or is still to come', async () => {
    for (const month of ['2026-13', 'last', '2999-01', '']) {
      const res = await call(monthlyRoute.GET, {
        path: `/api/v1/sites/${full.id}/reports/monthly?month=${month}`,
        token: owner.token,
        params: { id: full.id },
      });
      expect(res.status, month).toBe(422);
      expect(res.body).toEqual({
        error: 'month: must be a month written YYYY-MM, not after the current one',
      });
    }
  });

  it("404 for another organization's site, an unknown id, and a site outside a scoped key", async () => {
    const stranger = await signInOwner(db, 'stranger@example.com');
    const scoped = await insertApiKey(db, owner.tenantId, { siteIds: [partial.id] });
    for (const [id, auth] of [
      [full.id, { token: stranger.token }],
      ['00000000-0000-4000-8000-000000000000', { token: owner.token }],
      [full.id, { apiKey: scoped }],
    ] as const) {
      const res = await call(monthlyRoute.GET, {
        path: `/api/v1/sites/${id}/reports/monthly`,
        params: { id },
        ...auth,
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'site not found' });
    }
  });
});

describe('the monthly mail', () => {
  const FIRST_OF_NOVEMBER = Date.UTC(2026, 10, 1, 0, 0);

  /** Resolves queued events and sends everything due, as the delivery job does. */
  async function drain(now = Date.now()) {
    await dispatchEvents(db, { now: () => now });
    let sent = 0;
    for (;;) {
      const batch = await deliverDue(db, { now: () => now, attachments: reportAttachments });
      if (batch.claimed === 0) return sent;
      sent += batch.sent;
    }
  }

  it('queues last month once per site with report recipients and mails the PDF to each once', async () => {
    const patched = await call(notificationsRoute.PATCH, {
      method: 'PATCH',
      path: '/api/v1/notifications',
      token: owner.token,
      body: { reportRecipients: [{ kind: 'email', email: 'board@reports.test' }] },
    });
    expect(patched.status).toBe(200);
    resend = await startResend();
    process.env.RESEND_API_KEY = 're_test_reports';
    process.env.RESEND_BASE_URL = resend.url;
    resetConfig();

    // Both sites of the organization follow the defaults; the stranger's organization has no recipients.
    expect(await queueMonthlyReports(db, FIRST_OF_NOVEMBER)).toBe(2);
    // The next hour's run (or a rerun after a crash) queues nothing again.
    expect(await queueMonthlyReports(db, FIRST_OF_NOVEMBER + 3_600_000)).toBe(0);
    const events = await db
      .select()
      .from(notificationOutbox)
      .where(eq(notificationOutbox.kind, 'stakeholder-report'));
    expect(
      events.map((e) => e.payload).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    ).toEqual([
      { hostname: 'links-only.example', period: PERIOD },
      { hostname: 'report.example', period: PERIOD },
    ]);

    expect(await drain()).toBe(2);
    const mails = resend.processed.filter((m) => (m.body.to as string[])[0] === 'board@reports.test');
    expect(mails).toHaveLength(2);
    const attached = mails
      .flatMap((m) => m.body.attachments as { filename: string; content: string; content_type: string }[])
      .sort((a, b) => a.filename.localeCompare(b.filename));
    expect(attached.map((a) => [a.filename, a.content_type])).toEqual([
      ['links-only.example-2026-10.pdf', 'application/pdf'],
      ['report.example-2026-10.pdf', 'application/pdf'],
    ]);
    const { text } = await pdfText(Buffer.from(attached[1]!.content, 'base64'));
    expect(text).toContain(ORG);
    expect(text).toContain('SEO score 87 out of 100');
    expect(mails[0]!.body.subject).toMatch(/^Monthly report for .+: 2026-10$/);

    // Delivered deliveries are never sent again, whatever runs after.
    expect(await queueMonthlyReports(db, FIRST_OF_NOVEMBER + 7_200_000)).toBe(0);
    expect(await drain()).toBe(0);
    expect(resend.processed).toHaveLength(2);
    const deliveries = await db
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.kind, 'stakeholder-report'));
    expect(deliveries.map((d) => d.state)).toEqual(['sent', 'sent']);
    // The stored copy names the attachment with its type and size, not its bytes.
    const stored = await db.select().from(mailMessages).where(eq(mailMessages.to, 'board@reports.test'));
    expect(
      stored.map((m) => /Attached: (\S+) \(application\/pdf, (\d+) bytes\)$/.exec(m.text)?.[1]).sort(),
    ).toEqual(['links-only.example-2026-10.pdf', 'report.example-2026-10.pdf']);
    expect(stored.every((m) => !m.text.includes('JVBER'))).toBe(true);
  }, 120_000);
});

describe('the stored print', () => {
  let site: Site;

  const download = async (month: string) => {
    const res = await monthlyRoute.GET(
      new Request(`http://localhost:3000/api/v1/sites/${site.id}/reports/monthly?month=${month}`, {
        headers: { authorization: `Bearer ${owner.token}` },
      }),
      { params: Promise.resolve({ id: site.id }) },
    );
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  };
  const storedRows = () => db.select().from(reportPdfs).where(eq(reportPdfs.site_id, site.id));
  /** Another organization (members play no part here; signing in goes through Resend by now). */
  const insertOrganization = async (slug: string) => {
    const id = randomUUID();
    await db.insert(organizations).values({ id, name: slug, slug });
    return id;
  };
  /** Bytes no Chromium prints: answered only from the stored row. */
  const MARKER = Buffer.from('%PDF-stored-marker');

  beforeAll(async () => {
    site = await siteBeforeOctober('cache.example', { uptime_enabled: 0 });
    await crawl(site, OCT + 2 * DAY, 5, 70);
  });

  it('answers a repeat download from the stored print, and prints again once the data changed', async () => {
    const first = await download(PERIOD);
    expect(first.res.status).toBe(200);
    expect((await pdfText(first.bytes)).text).toContain('found 5 broken links');
    const [row] = await storedRows();
    expect(row).toMatchObject({ tenant_id: owner.tenantId, period: PERIOD });
    expect(Buffer.from(row!.pdf).equals(first.bytes)).toBe(true);

    // The same data: the stored bytes, whatever they are, and Chromium is not asked.
    await db.update(reportPdfs).set({ pdf: MARKER }).where(eq(reportPdfs.site_id, site.id));
    const repeat = await download(PERIOD);
    expect(repeat.res.status).toBe(200);
    expect(repeat.res.headers.get('content-disposition')).toBe(
      'attachment; filename="cache.example-2026-10.pdf"',
    );
    expect(repeat.bytes.equals(MARKER)).toBe(true);

    // A new completed crawl in the month: printed again, with its figures.
    await crawl(site, OCT + 20 * DAY, 9, 71);
    const crawled = await download(PERIOD);
    expect(crawled.bytes.equals(MARKER)).toBe(false);
    expect((await pdfText(crawled.bytes)).text).toContain('found 9 broken links');
    expect(await storedRows()).toHaveLength(1);

    // A renamed organization, and an app turned off, each print again too.
    await db.update(reportPdfs).set({ pdf: MARKER }).where(eq(reportPdfs.site_id, site.id));
    await db.update(organizations).set({ name: 'Acme Renamed' }).where(eq(organizations.id, owner.tenantId));
    try {
      const renamed = await download(PERIOD);
      expect(renamed.bytes.equals(MARKER)).toBe(false);
      expect((await pdfText(renamed.bytes)).text).toContain('Acme Renamed');
    } finally {
      await db.update(organizations).set({ name: ORG }).where(eq(organizations.id, owner.tenantId));
    }
    await db.update(reportPdfs).set({ pdf: MARKER }).where(eq(reportPdfs.site_id, site.id));
    await db.update(sites).set({ seo_enabled: 0 }).where(eq(sites.id, site.id));
    const seoOff = await download(PERIOD);
    expect(seoOff.bytes.equals(MARKER)).toBe(false);
    expect((await pdfText(seoOff.bytes)).text).not.toContain('SEO');
  }, 120_000);

  it("never answers another tenant's stored print", async () => {
    const other = await insertOrganization('cache-stranger');
    await download(PERIOD);
    const [row] = await storedRows();
    // The other tenant's row for the same site, month and fingerprint: never read for the owner.
    await db.insert(reportPdfs).values({ ...row!, tenant_id: other, pdf: MARKER });
    await db
      .delete(reportPdfs)
      .where(and(eq(reportPdfs.site_id, site.id), eq(reportPdfs.tenant_id, owner.tenantId)));
    const again = await download(PERIOD);
    expect(again.res.status).toBe(200);
    expect(again.bytes.equals(MARKER)).toBe(false);
    expect(again.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const rows = await storedRows();
    expect(rows.map((r) => [r.tenant_id, Buffer.from(r.pdf).equals(MARKER)]).sort()).toEqual(
      [
        [owner.tenantId, false],
        [other, true],
      ].sort(),
    );
  }, 60_000);

  it('prints one report at a time per organization: a second request waits, then 429 with Retry-After', async () => {
    // Two at once of a month not printed yet: one print, both answered its bytes.
    const [a, b] = await Promise.all([download('2026-09'), download('2026-09')]);
    expect([a.res.status, b.res.status]).toEqual([200, 200]);
    expect(a.bytes.equals(b.bytes)).toBe(true);
    expect(await db.select().from(reportRenderLeases)).toEqual([]);

    // Another organization's print does not hold this one's.
    const other = await insertOrganization('cache-lease');
    await db.insert(reportRenderLeases).values({ tenant_id: other, holder: 'x', until: Date.now() + 60_000 });
    expect((await download('2026-08')).res.status).toBe(200);

    // This organization's print under way (another process's lease): waited for until it ends.
    const start = Date.now();
    await db
      .insert(reportRenderLeases)
      .values({ tenant_id: owner.tenantId, holder: 'y', until: start + 1_500 });
    expect((await download('2026-07')).res.status).toBe(200);
    expect(Date.now() - start).toBeGreaterThanOrEqual(1_400);

    // Still under way after the wait: 429, told when to come back.
    await db
      .insert(reportRenderLeases)
      .values({ tenant_id: owner.tenantId, holder: 'z', until: Date.now() + 60_000 });
    const busy = await call(monthlyRoute.GET, {
      path: `/api/v1/sites/${site.id}/reports/monthly?month=2026-06`,
      token: owner.token,
      params: { id: site.id },
    });
    expect(busy.status).toBe(429);
    expect(busy.headers.get('retry-after')).toBe('5');
    expect(busy.body).toEqual({
      error: 'another monthly report of this organization is being printed; try again in a few seconds',
    });
    await db.delete(reportRenderLeases);
    expect((await download('2026-06')).res.status).toBe(200);
  }, 120_000);
});
