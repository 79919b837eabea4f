import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { reportPdfs, reportRenderLeases } from '@/lib/db/schema';
import { BusyError } from '@/lib/errors';
import type { MonthlyReport } from './monthly';
import { type PdfOptions, renderReportPdf, reportHtml } from './pdf';

/**
 * Chromium prints a report in one to five seconds of CPU, so a report is printed only when its
 * content is new, and one at a time per organization:
 *
 * - The PDF is stored per (tenant, site, month) with the SHA-256 of the HTML it was printed from
 *   (`report_pdfs`). The HTML is everything the PDF shows (the figures of the month's runs,
 *   incidents and monitors, the organization's name, which sections the site's apps turn on, the
 *   document's layout and fonts), so the same fingerprint means the same PDF, and any change to the
 *   data (a new crawl in the month, a renamed organization, an app turned off, a suppression that
 *   moves the score) or to the layout after a deploy prints it again. Only the "generated" time is
 *   left out: a stored PDF keeps the time it was printed. The current month's report runs to now
 *   and is printed afresh each time.
 * - A print holds the organization's lease (`report_render_leases`, across processes); another
 *   request for the organization waits for it (and is answered the stored PDF when the print was
 *   of the same report), and after `RENDER_WAIT_MS` gets a BusyError (429) to come back later.
 */

/** A print longer than this has died with its process; the lease is free again. */
const RENDER_LEASE_MS = 60_000;
/** How long a request waits for the organization's print in progress before it is turned away. */
export const RENDER_WAIT_MS = 10_000;
/** What a turned-away request is told to wait: about one print. */
export const RENDER_RETRY_AFTER_MS = 5_000;
const POLL_MS = 200;

/** SHA-256 of the report's HTML without its generation time. */
export async function reportFingerprint(report: MonthlyReport): Promise<string> {
  const html = await reportHtml({ ...report, generatedAt: 0 });
  return createHash('sha256').update(html).digest('hex');
}

async function storedPdf(
  db: Db,
  tenantId: string,
  report: MonthlyReport,
  fingerprint: string,
): Promise<Uint8Array | null> {
  const [row] = await db
    .select({ pdf: reportPdfs.pdf })
    .from(reportPdfs)
    .where(
      and(
        eq(reportPdfs.tenant_id, tenantId),
        eq(reportPdfs.site_id, report.site.id),
        eq(reportPdfs.period, report.period),
        eq(reportPdfs.fingerprint, fingerprint),
      ),
    )
    .limit(1);
  return row?.pdf ?? null;
}

async function storePdf(
  db: Db,
  tenantId: string,
  report: MonthlyReport,
  fingerprint: string,
  pdf: Uint8Array,
): Promise<void> {
  const values = { fingerprint, pdf, rendered_at: Date.now() };
  await db
    .insert(reportPdfs)
    .values({ tenant_id: tenantId, site_id: report.site.id, period: report.period, ...values })
    .onConflictDoUpdate({
      target: [reportPdfs.tenant_id, reportPdfs.site_id, reportPdfs.period],
      set: values,
    });
}

/** Takes the organization's print lease unless a live one is held. */
async function takeLease(db: Db, tenantId: string, holder: string): Promise<boolean> {
  const now = Date.now();
  const taken = await db
    .insert(reportRenderLeases)
    .values({ tenant_id: tenantId, holder, until: now + RENDER_LEASE_MS })
    .onConflictDoUpdate({
      target: reportRenderLeases.tenant_id,
      set: { holder, until: now + RENDER_LEASE_MS },
      setWhere: sql`${reportRenderLeases.until} < ${now}`,
    })
    .returning({ holder: reportRenderLeases.holder });
  return taken.length > 0;
}

async function releaseLease(db: Db, tenantId: string, holder: string): Promise<void> {
  await db
    .delete(reportRenderLeases)
    .where(and(eq(reportRenderLeases.tenant_id, tenantId), eq(reportRenderLeases.holder, holder)));
}

/** The report of a site of `tenantId` as a PDF: the stored one when its content is unchanged. */
export async function reportPdf(
  db: Db,
  tenantId: string,
  report: MonthlyReport,
  options: PdfOptions = {},
): Promise<Uint8Array> {
  const fingerprint = await reportFingerprint(report);
  const holder = randomUUID();
  const giveUpAt = Date.now() + RENDER_WAIT_MS;
  for (;;) {
    const stored = await storedPdf(db, tenantId, report, fingerprint);
    if (stored) return stored;
    if (await takeLease(db, tenantId, holder)) {
      try {
        const pdf = await renderReportPdf(report, options);
        await storePdf(db, tenantId, report, fingerprint, pdf);
        return pdf;
      } finally {
        await releaseLease(db, tenantId, holder);
      }
    }
    if (Date.now() >= giveUpAt) {
      throw new BusyError(
        'another monthly report of this organization is being printed; try again in a few seconds',
        RENDER_RETRY_AFTER_MS,
      );
    }
    await sleep(POLL_MS);
  }
}
