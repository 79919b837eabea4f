import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { brokenLinkReportResponse } from '@/lib/api/schemas/resources';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { getBrokenLinkReport } from '@/lib/crawl/report';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: siteIdParams,
    response: brokenLinkReportResponse,
    summary: 'Dead-link report of the latest crawl: one row per broken target and linking page',
  },
  ({ db, principal, params }) => getBrokenLinkReport(db, principal, params.id),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
