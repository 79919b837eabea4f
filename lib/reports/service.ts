import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import type { Site } from '@/lib/db/schema';
import { getVisibleSite } from '@/lib/sites/access';
import { reportPdf } from './cache';
import { monthlyReport } from './monthly';
import { type PdfOptions, reportFileName } from './pdf';

// What the routes also call, owned by the modules that hold it.
export { PDF_CONTENT_TYPE } from './pdf';

/**
 * The month's report of a site of `tenantId` as a PDF file: printed when its content is new, else
 * the stored print (lib/reports/cache.ts). The download and the monthly mail both come here.
 */
export async function monthlyReportFile(
  db: Db,
  tenantId: string,
  site: Site,
  month: string,
  options: PdfOptions = {},
): Promise<{ filename: string; content: Uint8Array }> {
  const report = await monthlyReport(db, tenantId, site, month);
  return { filename: reportFileName(report), content: await reportPdf(db, tenantId, report, options) };
}

/** GET /v1/sites/{id}/reports/monthly: the PDF of a site the caller may see (else 404), and its file name. */
export async function monthlyReportPdf(
  db: Db,
  principal: Principal,
  { siteId, month }: { siteId: string; month: string },
  options: PdfOptions = {},
): Promise<{ filename: string; content: Uint8Array }> {
  const site = await getVisibleSite(db, principal, siteId);
  return monthlyReportFile(db, principal.tenantId, site, month, options);
}
