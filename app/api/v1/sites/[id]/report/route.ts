import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { brokenLinkReportResponse } from '@/lib/api/schemas/resources';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { getBrokenLinkReport } from '@/lib/crawl/service';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: siteIdParams,
    response: brokenLinkReportResponse,
    summary: 'Dead-link report of the latest crawl: one row per broken target and linking page',
    description:
      "Rows are ordered by target then source URL; the run's headline counts are distinct targets. The site's current excludePaths apply retroactively, and sincePreviousRun counts the targets newly broken and fixed since the previous completed crawl and lists the first 1,000 of each.",
    errors: { 404: 'the Broken Links app is not enabled for the site, or no crawl has run yet' },
  },
  ({ db, principal, params }) => getBrokenLinkReport(db, principal, { siteId: params.id }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
