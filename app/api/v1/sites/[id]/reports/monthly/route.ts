import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { monthlyReportQuery } from '@/lib/api/schemas/reports';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { monthlyReportPdf, PDF_CONTENT_TYPE } from '@/lib/reports/service';

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
      "The stakeholder report the monthly mail attaches: the organization's name, the period, then broken links and their trend over the month's completed crawls, the SEO score, the accessibility score and WCAG 2.2 AA verdict of the month's last scan, and uptime and incidents per monitor, in that order; the section of an app that is off for the site is left out. Printed by Chromium (a second or two) when its content has changed since the last print of the month (the current month included), else the stored print is sent. Prints wait their turn in a queue shared by the whole service: REPORT_PRINTS_MAX at once (default 2), one per organization, up to REPORT_PRINT_QUEUE_MAX waiting (default 8) and 2 per organization; a request that finds no place, or no turn within 15 s, is 429.",
    errors: {
      422: 'month is not a YYYY-MM month, or is still to come',
      429: 'the print queue is full, the organization already has 2 reports printing or waiting, or no turn came within 15 s; Retry-After says when to try again',
    },
  },
  ({ db, principal, params, query }) =>
    monthlyReportPdf(db, principal, { siteId: params.id, month: query.month }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
