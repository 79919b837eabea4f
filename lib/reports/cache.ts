import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { reportPdfs } from '@/lib/db/schema';
import type { MonthlyReport } from './monthly';
import { type PdfOptions, renderReportPdf, reportHtml } from './pdf';
import { printInTurn } from './queue';

/**
 * Chromium prints a report in one to five seconds of CPU, so a report is printed only when its
 * content is new, and in its turn of the server-wide print queue:
 *
 * - The PDF is stored per (tenant, site, month) with the SHA-256 of the HTML it was printed from
 *   (`report_pdfs`). The HTML is everything the PDF shows (the figures of the month's runs,
 *   incidents and monitors, the organization's name, which sections the site's apps turn on, the
 *   document's layout and fonts), so the same fingerprint means the same PDF, and any change to the
 *   data (a new crawl in the month, a renamed organization, an app turned off, a suppression that
 *   moves the score) or to the layout after a deploy prints it again. Only the "generated" time is
 *   left out: a stored PDF keeps the time it was printed. The current month's report runs to now,
 *   and is reused in the same way while what it shows is unchanged: the document shows the time it
 *   runs to by the day (lib/reports/document.tsx), so only a new day, new data or a figure that moved
 *   (the downtime of an incident still open) prints it again.
 * - A print waits for its turn in the print queue (lib/reports/queue.ts: bounded server-wide, one
 *   print per organization at a time, 429 past it). A request that waits is answered the stored PDF
 *   as soon as another request's print of the same report stores it.
 */

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

/** The report of a site of `tenantId` as a PDF: the stored one when its content is unchanged. */
export async function reportPdf(
  db: Db,
  tenantId: string,
  report: MonthlyReport,
  options: PdfOptions = {},
): Promise<Uint8Array> {
  const fingerprint = await reportFingerprint(report);
  const stored = () => storedPdf(db, tenantId, report, fingerprint);
  return (
    (await stored()) ??
    printInTurn(db, tenantId, {
      ready: stored,
      print: async () => {
        const pdf = await renderReportPdf(report, options);
        await storePdf(db, tenantId, report, fingerprint, pdf);
        return pdf;
      },
    })
  );
}
