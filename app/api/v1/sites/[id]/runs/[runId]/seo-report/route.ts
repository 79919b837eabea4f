import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { seoReportResponse } from '@/lib/api/schemas/crawl';
import { runIdParams } from '@/lib/api/schemas/history';
import { getSeoReport } from '@/lib/crawl/service';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: runIdParams,
    response: seoReportResponse,
    summary: 'SEO issues of one crawl run of the site, as /seo-report answers for the latest',
    description:
      'The same report as /seo-report, for the run named, compared with the completed crawl before it.',
    errors: { 404: 'run not found, or the SEO app is not enabled for the site' },
  },
  ({ db, principal, params }) => getSeoReport(db, principal, { siteId: params.id, runId: params.runId }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
