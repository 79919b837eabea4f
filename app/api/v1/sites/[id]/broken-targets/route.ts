import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { brokenTargetsQuery, brokenTargetsResponse } from '@/lib/api/schemas/crawl-views';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { listBrokenTargets } from '@/lib/crawl/service';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: siteIdParams,
    query: brokenTargetsQuery,
    response: brokenTargetsResponse,
    summary:
      'Dead-link report of the latest crawl grouped by target: linking pages, first seen, new; filtered, sorted, paged',
    description:
      "One row per broken target with how many pages link to it, the first linking pages, when it was first seen broken and whether it is new since the previous completed crawl; sitewide problems (most linking pages) first by default. The site's current excludePaths apply. Pass nextCursor back as cursor, with the same filters and sort, for the next page; GET /report has every (target, page) row.",
    errors: { 404: 'the Broken Links app is not enabled for the site, or no crawl has run yet' },
  },
  ({ db, principal, params, query }) =>
    listBrokenTargets(db, principal, { siteId: params.id, runId: undefined }, query),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
