import { getA11yReport } from '@/lib/a11y/report';
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
  },
  ({ db, principal, params }) => getA11yReport(db, principal, params.id),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
