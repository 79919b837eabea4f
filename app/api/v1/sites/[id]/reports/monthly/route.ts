import { badRequest } from '@/lib/api/errors';
import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { monthlyReportQuery } from '@/lib/api/schemas/reports';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { reportMonth } from '@/lib/reports/monthly';
import { PDF_CONTENT_TYPE } from '@/lib/reports/pdf';
import { monthlyReportPdf } from '@/lib/reports/service';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: siteIdParams,
    query: monthlyReportQuery,
    file: {
      contentType: PDF_CONTENT_TYPE,
      description:
        'The report as an A4 PDF, sent as an attachment named <hostname>-<YYYY-MM>.pdf (Content-Disposition)',
    },
    summary: "The site's branded monthly report as a PDF",
    description:
      "The stakeholder report the monthly mail attaches: the organization's name, the period, then broken links and their trend over the month's completed crawls, the SEO score, the accessibility score and WCAG 2.2 AA verdict of the month's last scan, and uptime and incidents per monitor, in that order; the section of an app that is off for the site is left out. Printed by Chromium on request (a second or two).",
    errors: { 400: 'month is not a YYYY-MM month, or is still to come' },
  },
  async ({ db, principal, params, query }) => {
    const month = reportMonth(query.month);
    if (!month) throw badRequest('month: must be a month written YYYY-MM, not after the current one');
    const { fileName, pdf } = await monthlyReportPdf(db, principal, params.id, month);
    return new Response(new Uint8Array(pdf), {
      headers: {
        'content-type': PDF_CONTENT_TYPE,
        'content-disposition': `attachment; filename="${fileName}"`,
        'cache-control': 'private, no-store',
      },
    });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
