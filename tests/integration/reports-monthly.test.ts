import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BrowserHolder } from '@/lib/a11y/engine/browser';
import { storePageScans } from '@/lib/a11y/engine/store';
import { billingPeriod, periodBounds } from '@/lib/billing/period';
import { config, resetConfig } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import {
  brokenLinks,
  mailMessages,
  notificationDeliveries,
  notificationOutbox,
  organizations,
  reportPdfs,
  reportPrints,
  runs,
  type Site,
  sites,
  uptimeIncidents,
  uptimeMonitors,
} from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import { deliverDue, dispatchEvents } from '@/lib/notify/deliver';
import { reportPdf } from '@/lib/reports/cache';
import { lastCompleteMonth, monthlyReport, reportMonth } from '@/lib/reports/monthly';
import { renderReportPdf } from '@/lib/reports/pdf';
import { PRINT_WAIT_MS } from '@/lib/reports/queue';
import { queueMonthlyReports, reportAttachments } from '@/lib/reports/schedule';
import { type Query, v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { insertSite } from '../support/fixtures';
import { insertApiKey, signInOwner } from '../support/http';
import { confirmByMail } from '../support/mail-consent';
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

async function crawl(
  site: Site,
  startedAt: number,
  brokenCount: number,
  seoScore: number | null,
): Promise<string> {
  return completedRun(site, startedAt, {
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

/** A completed run of the site that took a minute; its id. */
async function completedRun(
  site: Site,
  startedAt: number,
  values: Partial<typeof runs.$inferInsert> & Pick<typeof runs.$inferInsert, 'kind'>,
): Promise<string> {
  const [run] = await db
    .insert(runs)
    .values({
      site_id: site.id,
      tenant_id: site.tenant_id,
      started_at: startedAt,
      finished_at: startedAt + 60_000,
      state: 'completed',
      ...values,
    })
    .returning({ id: runs.id });
  return run!.id;
}

/** A crawl's dead-link rows: [target, source, status code] (internal when on report.example). */
async function brokenRows(site: Site, runId: string, rows: [string, string, number | null][]) {
  await db.insert(brokenLinks).values(
    rows.map(([target, source, code]) => ({
      run_id: runId,
      tenant_id: site.tenant_id,
      target_url: target,
      source_url: source,
      status: code === null ? ('error' as const) : ('broken' as const),
      status_code: code,
      detail: code === null ? 'connection refused' : null,
      kind: target.startsWith('https://report.example/') ? ('internal' as const) : ('external' as const),
      created_at: Date.now(),
    })),
  );
}

/** A finished accessibility scan of the home page, failing one rule on one element. */
async function a11yScan(
  site: Site,
  startedAt: number,
  failing: { rule: string; impact: 'critical' | 'serious'; help: string; selector: string; passes: string[] },
) {
  const scan = await completedRun(site, startedAt, { kind: 'a11y' });
  await storePageScans(db, { tenantId: site.tenant_id, runId: scan }, [
    {
      url: HOME,
      status: 'scanned',
      findings: [
        {
          rule: failing.rule,
          type: 'violation',
          impact: failing.impact,
          help: failing.help,
          helpUrl: `https://dequeuniversity.com/rules/axe/4.10/${failing.rule}`,
          count: 1,
          nodes: [{ selector: failing.selector }],
        },
      ],
      passes: failing.passes,
      inapplicable: [],
    },
  ]);
}

const HOME = 'https://report.example/';
const ABOUT = 'https://report.example/about';

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
  // The state the month started from: the last crawl before it, and the last scan before it.
  const september = await crawl(full, OCT - 2 * DAY, 50, 10);
  await brokenRows(full, september, [
    [`${HOME}old-pricing`, HOME, 404],
    ['https://fixed.example/', HOME, 500],
    [`${HOME}missing-a`, ABOUT, 404],
  ]);
  await crawl(full, OCT + 3 * DAY, 7, 80);
  const october = await crawl(full, OCT + 17 * DAY, 4, 87);
  await brokenRows(full, october, [
    [`${HOME}old-pricing`, HOME, 404],
    [`${HOME}old-pricing`, ABOUT, 404],
    ['https://partner.example/gone', HOME, null],
    [`${HOME}missing-a`, ABOUT, 404],
    [`${HOME}missing-b`, ABOUT, 410],
  ]);
  await a11yScan(full, OCT - 20 * DAY, {
    rule: 'document-title',
    impact: 'serious',
    help: 'Documents must have <title> element to aid in navigation',
    selector: 'html',
    passes: ['html-has-lang', 'image-alt'],
  });
  await crawl(full, NOW - DAY, 99, 20);
  await a11yScan(full, OCT + 18 * DAY, {
    rule: 'image-alt',
    impact: 'critical',
    help: 'Images must have alternative text',
    selector: 'img.hero',
    passes: ['html-has-lang', 'document-title'],
  });
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
  it('defaults to the last complete month, refuses malformed and future ones', () => {
    expect(lastCompleteMonth(NOW)).toBe('2026-10');
    expect(lastCompleteMonth(Date.UTC(2026, 0, 1))).toBe('2025-12');
    expect(reportMonth(undefined, NOW)).toBe('2026-10');
    expect(reportMonth('2026-11', NOW)).toBe('2026-11');
    for (const bad of ['2026-12', '2026-13', '2026-1', 'October', '2026-10-01', ''])
      expect(reportMonth(bad, NOW), bad).toBeNull();
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
    // The most linked broken targets of the month's last crawl, each with its linking pages.
    expect(
      report.brokenLinks?.top.map((t) => [t.target_url, t.sources.map((s) => s.source_url), t.is_new]),
    ).toEqual([
      [`${HOME}old-pricing`, [HOME, ABOUT], false],
      ['https://partner.example/gone', [HOME], true],
      [`${HOME}missing-a`, [ABOUT], false],
      [`${HOME}missing-b`, [ABOUT], true],
    ]);
    // The month's changes: against the last crawl before October.
    expect(report.brokenLinks?.changes).toEqual({
      since: OCT - 2 * DAY,
      newTargets: ['https://partner.example/gone', `${HOME}missing-b`],
      fixedTargets: ['https://fixed.example/'],
      newCount: 2,
      fixedCount: 1,
    });
    expect(report.a11y?.latest?.rules).toEqual([
      expect.objectContaining({ rule: 'image-alt', impact: 'critical', pages: [HOME], elements: 1 }),
    ]);
    expect(report.a11y?.latest?.rules[0]?.help).toMatch(/alternative text/i);
    expect(report.a11y?.latest?.changes).toEqual({
      since: OCT - 20 * DAY,
      added: [{ pageUrl: HOME, rule: 'image-alt' }],
      resolved: [{ pageUrl: HOME, rule: 'document-title' }],
    });
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
    expect(report.brokenLinks).toEqual({ trend: [], latest: null, change: null, top: [], changes: null });
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
    expect(totalPages).toBeGreaterThanOrEqual(4);
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
    // What a reader acts on: the broken links with the pages linking to them, the failing rules
    // with their pages, the incidents, and what is new and what was fixed since the month began.
    expect(text).toContain(`Broken link Answer Linked from ${HOME}old-pricing internal 404 ${HOME} ${ABOUT}`);
    expect(text).toContain('https://partner.example/gone external, new this month connection refused');
    expect(text).toContain('Changes since the last crawl before the month (Sep 29, 2026) New (2) Fixed (1)');
    expect(text).toContain('https://fixed.example/');
    expect(text).toMatch(
      /Rules failing on the most pages Rule Impact Pages Where .*alternative text.* image-alt critical 1 https:\/\/report\.example\//,
    );
    expect(text).toContain('Changes since the last scan before the month (Sep 11, 2026) New (1) Fixed (1)');
    expect(text).toContain(`image-alt on ${HOME}`);
    expect(text).toContain(`document-title on ${HOME}`);
    expect(text).toContain('Incidents: Home page');
    expect(text).toContain(`Page ${totalPages} of ${totalPages}`);
    // The order the issue asks for.
    const order = ['Broken links', 'SEO score 87', 'Accessibility score', 'Uptime'].map((s) =>
      text.indexOf(s),
    );
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(order.every((i) => i >= 0)).toBe(true);
  }, 60_000);

  it('prints a month with nothing measured as one short page that says so', async () => {
    const pdf = await renderReportPdf(await monthlyReport(db, owner.tenantId, full, '2026-06', NOW), {
      browsers,
    });
    const { totalPages, text } = await pdfText(pdf);
    expect(totalPages).toBe(1);
    expect(text).toContain('Nothing was measured for this site in June 2026.');
    expect(text).toContain('Broken links: no crawl completed in June 2026.');
    expect(text).toContain('Uptime: no uptime monitor watched this site in June 2026.');
    expect(text).toContain('Page 1 of 1');
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
  // The PDF's bytes: the handler's Response itself, unread.
  const download = (
    id: string,
    query: Query<'/v1/sites/{id}/reports/monthly', 'get'>,
    auth: { token?: string; apiKey?: string },
  ) =>
    v1(auth, { response: true }).GET('/v1/sites/{id}/reports/monthly', { params: { path: { id }, query } });

  it('answers the PDF as an attachment named after the site and month', async () => {
    const res = await download(full.id, { month: PERIOD }, { token: owner.token });
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
    const res = await download(partial.id, {}, { apiKey });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="links-only.example-${lastCompleteMonth()}.pdf"`,
    );
  }, 60_000);

  // A validation failure as GET /v1/usage's bad `period` is (the spec keeps 400 for the retired limit kind).
  it('422 naming month for a month that is not one or is still to come', async () => {
    for (const month of ['2026-13', 'last', '2999-01', '']) {
      const res = await v1({ token: owner.token }).GET('/v1/sites/{id}/reports/monthly', {
        params: { path: { id: full.id }, query: { month: month } },
      });
      expect(res.status, month).toBe(422);
      expect(res.body).toEqual({
        error: 'month: must be a month written YYYY-MM, not after the current one',
        issues: [{ field: 'month', message: 'must be a month written YYYY-MM, not after the current one' }],
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
      const res = await v1(auth).GET('/v1/sites/{id}/reports/monthly', { params: { path: { id } } });
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
    const patched = await v1({ token: owner.token }).PATCH('/v1/notifications', {
      body: { reportRecipients: [{ kind: 'email', email: 'board@reports.test' }] },
    });
    expect(patched.status).toBe(200);
    // The board is outside the organization: it receives the report once it confirmed.
    await confirmByMail(db, 'board@reports.test');
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
    const stored = (
      await db.select().from(mailMessages).where(eq(mailMessages.to, 'board@reports.test'))
    ).filter((m) => m.subject.startsWith('Monthly report'));
    expect(
      stored.map((m) => /Attached: (\S+) \(application\/pdf, (\d+) bytes\)$/.exec(m.text)?.[1]).sort(),
    ).toEqual(['links-only.example-2026-10.pdf', 'report.example-2026-10.pdf']);
    expect(stored.every((m) => !m.text.includes('JVBER'))).toBe(true);
  }, 120_000);
});

describe('the stored print', () => {
  let site: Site;

  const download = async (month: string) => {
    const res = await v1({ token: owner.token }, { response: true }).GET('/v1/sites/{id}/reports/monthly', {
      params: { path: { id: site.id }, query: { month } },
    });
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

  it("reuses the current month's print while what it shows is unchanged", async () => {
    // The month to date runs to now: the same crawls must still draw the same document.
    const month = billingPeriod(Date.now());
    const { start } = periodBounds(month);
    await crawl(site, start + Math.floor((Date.now() - start) / 2), 3, 60);
    const first = await download(month);
    expect(first.res.status).toBe(200);
    expect((await pdfText(first.bytes)).text).toContain('month to date');
    const rowOf = async () => (await storedRows()).find((r) => r.period === month);
    expect(await rowOf()).toBeDefined();

    await db
      .update(reportPdfs)
      .set({ pdf: MARKER })
      .where(and(eq(reportPdfs.site_id, site.id), eq(reportPdfs.period, month)));
    await new Promise((r) => setTimeout(r, 1_100));
    const repeat = await download(month);
    expect(repeat.res.status).toBe(200);
    expect(repeat.bytes.equals(MARKER)).toBe(true);

    // A crawl finished since: printed again.
    await crawl(site, Date.now() - 120_000, 8, 61);
    const crawled = await download(month);
    expect(crawled.bytes.equals(MARKER)).toBe(false);
    expect((await pdfText(crawled.bytes)).text).toContain('found 8 broken links');
  }, 120_000);
});

describe('the print queue', () => {
  let site: Site;
  /** Other organizations, each with a site of its own. */
  const orgs: { tenantId: string; site: Site }[] = [];

  const download = (month: string) =>
    v1({ token: owner.token }).GET('/v1/sites/{id}/reports/monthly', {
      params: { path: { id: site.id }, query: { month: month } },
    });
  /** A row of another process's request: waiting or printing until `for` ms from now. */
  const row = (tenantId: string, state: 'waiting' | 'printing', ms: number, queuedAt = Date.now()) =>
    db
      .insert(reportPrints)
      .values({ tenant_id: tenantId, state, queued_at: queuedAt, until: Date.now() + ms });
  const timed = async <T>(work: () => Promise<T>) => {
    const start = Date.now();
    const result = await work();
    return { result, ms: Date.now() - start };
  };

  beforeAll(async () => {
    site = await siteBeforeOctober('queue.example', { uptime_enabled: 0 });
    await crawl(site, OCT + 2 * DAY, 5, 70);
    for (let i = 0; i < 6; i++) {
      const tenantId = randomUUID();
      await db.insert(organizations).values({ id: tenantId, name: `Queue ${i}`, slug: `queue-${i}` });
      const id = await insertSite(db, tenantId, `queue-${i}.example`, { uptime_enabled: 0 });
      orgs.push({ tenantId, site: await siteRow(id) });
    }
  });

  afterEach(async () => {
    await db.delete(reportPrints);
  });

  it('prints at most REPORT_PRINTS_MAX (2) at once across organizations, one per organization', async () => {
    expect(config().REPORT_PRINTS_MAX).toBe(2);
    const browser = await browsers.browser();
    let most = 0;
    const sampler = setInterval(() => {
      most = Math.max(most, browser.contexts().length);
    }, 5);
    try {
      // Six organizations at once, the first twice with the same report: seven requests, six prints.
      const requests = [...orgs, orgs[0]!].map(async ({ tenantId, site: s }) => {
        const report = await monthlyReport(db, tenantId, s, PERIOD, NOW);
        return reportPdf(db, tenantId, report, { browsers });
      });
      const pdfs = await Promise.all(requests);
      for (const pdf of pdfs) expect(Buffer.from(pdf).subarray(0, 5).toString()).toBe('%PDF-');
      expect(Buffer.from(pdfs[0]!).equals(Buffer.from(pdfs[6]!))).toBe(true);
    } finally {
      clearInterval(sampler);
    }
    expect(most).toBe(2);
    expect(await db.select().from(reportPrints)).toEqual([]);
  }, 180_000);

  it('429 at once when the queue is full or the organization has 2 requests in it; rows of dead processes run out', async () => {
    // Both slots printing and REPORT_PRINT_QUEUE_MAX (8) waiting, none of them the owner's.
    for (const [i, o] of orgs.entries()) await row(o.tenantId, i < 2 ? 'printing' : 'waiting', 60_000);
    await row(orgs[2]!.tenantId, 'waiting', 60_000);
    await row(orgs[3]!.tenantId, 'waiting', 60_000);
    await row(orgs[4]!.tenantId, 'waiting', 60_000);
    await row(orgs[5]!.tenantId, 'waiting', 60_000);
    const full = await timed(() => download('2026-05'));
    expect(full.result.status).toBe(429);
    expect(full.result.headers.get('retry-after')).toBe('5');
    expect(full.result.body).toEqual({
      error: 'the monthly report print queue is full (8 reports waiting); try again in a few seconds',
    });
    expect(full.ms).toBeLessThan(PRINT_WAIT_MS);

    // Their processes died: the rows stop counting once they run out.
    await db.update(reportPrints).set({ until: Date.now() - 1 });
    expect((await download('2026-05')).status).toBe(200);
    expect(await db.select().from(reportPrints)).toEqual([]);

    // The owner's organization already printing one report and waiting for another.
    await row(owner.tenantId, 'printing', 60_000);
    await row(owner.tenantId, 'waiting', 60_000);
    const mine = await download('2026-04');
    expect(mine.status).toBe(429);
    expect(mine.body).toEqual({
      error:
        'this organization already has 2 monthly reports printing or waiting to print; try again in a few seconds',
    });
  }, 120_000);

  it('waits for a slot: its organization printing, every slot taken, or an earlier organization first', async () => {
    // Its organization's print under way in another process: waited for until it ends.
    await row(owner.tenantId, 'printing', 1_500);
    const own = await timed(() => download('2026-03'));
    expect(own.result.status).toBe(200);
    expect(own.ms).toBeGreaterThanOrEqual(1_400);

    // Both slots printing for other organizations.
    await row(orgs[0]!.tenantId, 'printing', 1_500);
    await row(orgs[1]!.tenantId, 'printing', 1_500);
    const slots = await timed(() => download('2026-02'));
    expect(slots.result.status).toBe(200);
    expect(slots.ms).toBeGreaterThanOrEqual(1_400);

    // One slot free, but another organization waiting since before: its turn first.
    await row(orgs[0]!.tenantId, 'printing', 60_000);
    await row(orgs[1]!.tenantId, 'waiting', 1_500, Date.now() - 1_000);
    const behind = await timed(() => download('2026-01'));
    expect(behind.result.status).toBe(200);
    expect(behind.ms).toBeGreaterThanOrEqual(1_400);

    // The waiting request of an organization already printing has no turn before the owner's.
    await db.delete(reportPrints);
    await row(orgs[0]!.tenantId, 'printing', 60_000);
    await row(orgs[0]!.tenantId, 'waiting', 60_000, Date.now() - 1_000);
    const ahead = await timed(() => download('2025-12'));
    expect(ahead.result.status).toBe(200);
    expect(ahead.ms).toBeLessThan(PRINT_WAIT_MS);
    const left = await db.select().from(reportPrints);
    expect(left.map((r) => r.tenant_id)).toEqual([orgs[0]!.tenantId, orgs[0]!.tenantId]);
  }, 120_000);

  it('429 with Retry-After after waiting 15 s without a turn', async () => {
    await row(owner.tenantId, 'printing', 60_000);
    const late = await timed(() => download('2025-11'));
    expect(late.result.status).toBe(429);
    expect(late.result.headers.get('retry-after')).toBe('5');
    expect(late.result.body).toEqual({
      error:
        'no turn to print came within 15 s (the monthly report print queue is busy); try again in a few seconds',
    });
    expect(late.ms).toBeGreaterThanOrEqual(PRINT_WAIT_MS);
    // It left the queue: only the other process's row is there.
    expect(await db.select().from(reportPrints)).toHaveLength(1);
  }, 60_000);
});
