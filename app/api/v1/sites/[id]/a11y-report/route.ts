import { getA11yReport } from '@/lib/a11y/service';
import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { a11yReportResponse } from '@/lib/api/schemas/a11y';
import { siteIdParams } from '@/lib/api/schemas/sites';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: siteIdParams,
    response: a11yReportResponse,
    summary:
      "Accessibility report of the latest run that scanned pages, with the site's current suppressions and excludePaths applied",
    description:
      'Findings, per-page scores, the WCAG 2.2 coverage matrix with manual checks, the AA verdict and the compliance tallies of the latest run that scanned pages (a standalone scan or a crawl that chained the render pass).',
    errors: { 404: 'no accessibility scan has stored results for this site yet' },
  },
  ({ db, principal, params }) => getA11yReport(db, principal, params.id),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
