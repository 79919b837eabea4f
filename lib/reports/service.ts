import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { getVisibleSite } from '@/lib/sites/access';
import { monthlyReport } from './monthly';
import { type PdfOptions, renderReportPdf, reportFileName } from './pdf';

/** GET /v1/sites/{id}/reports/monthly: the PDF of a site the caller may see (else 404), and its file name. */
export async function monthlyReportPdf(
  db: Db,
  principal: Principal,
  siteId: string,
  month: string,
  options: PdfOptions = {},
): Promise<{ filename: string; content: Buffer }> {
  const site = await getVisibleSite(db, principal, siteId);
  const report = await monthlyReport(db, principal.tenantId, site, month);
  return { filename: reportFileName(report), content: await renderReportPdf(report, options) };
}
