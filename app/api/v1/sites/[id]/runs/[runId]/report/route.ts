import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { runIdParams } from '@/lib/api/schemas/history';
import { brokenLinkReportResponse } from '@/lib/api/schemas/resources';
import { getBrokenLinkReport } from '@/lib/crawl/service';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: runIdParams,
    response: brokenLinkReportResponse,
    summary: 'Dead-link report of one crawl run of the site, as /report answers for the latest',
    description:
      'The same report as /report, for the run named, compared with the completed crawl before it.',
    errors: { 404: 'run not found, or the Broken Links app is not enabled for the site' },
  },
  ({ db, principal, params }) =>
    getBrokenLinkReport(db, principal, { siteId: params.id, runId: params.runId }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
