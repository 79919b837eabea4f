import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { seoReportQuery, seoReportResponse } from '@/lib/api/schemas/crawl';
import { runIdParams } from '@/lib/api/schemas/history';
import { getSeoReport } from '@/lib/crawl/service';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: runIdParams,
    query: seoReportQuery,
    response: seoReportResponse,
    summary: 'SEO issues of one crawl run of the site, as /seo-report answers for the latest',
    description:
      "The same report as /seo-report, for the run named, compared with the completed crawl before it; ?check=&cursor= pages one check's pages the same way.",
    errors: {
      404: 'run not found, or the SEO app is not enabled for the site',
      422: 'a cursor not from this check, a check not in the catalogue, or cursor/limit without check',
    },
  },
  ({ db, principal, params, query }) =>
    getSeoReport(db, principal, { siteId: params.id, runId: params.runId }, query),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
