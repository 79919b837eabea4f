import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { seoReportResponse } from '@/lib/api/schemas/crawl';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { getSeoReport } from '@/lib/crawl/service';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: siteIdParams,
    response: seoReportResponse,
    summary: "SEO issues of the latest crawl, grouped by check, with the site's current exclusions applied",
    description:
      'Issues grouped by check, most severe first, with the score recomputed without excluded pages and the issues new and fixed since the previous completed crawl.',
    errors: { 404: 'the SEO app is not enabled for the site, or no crawl has run yet' },
  },
  ({ db, principal, params }) => getSeoReport(db, principal, { siteId: params.id }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
