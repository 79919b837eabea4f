import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { runsQuery, runsResponse } from '@/lib/api/schemas/history';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { listRuns } from '@/lib/crawl/service';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: siteIdParams,
    query: runsQuery,
    response: runsResponse,
    summary: "The site's runs, newest first, a page at a time (cursor pagination)",
    description:
      'Crawl runs and standalone accessibility scans, newest first; pass nextCursor back as cursor for the next page.',
  },
  ({ db, principal, params, query }) => listRuns(db, principal, params.id, query),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
