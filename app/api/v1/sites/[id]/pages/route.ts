import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { pagesQuery, pagesResponse } from '@/lib/api/schemas/history';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { listCrawledUrls } from '@/lib/crawl/service';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: siteIdParams,
    query: pagesQuery,
    response: pagesResponse,
    summary: 'Every URL the latest crawl discovered, filtered, sorted and paged by keyset cursor',
    description:
      'Pages crawled, internal URLs checked, external targets and embedded resources of the latest crawl, with status, content type, title, depth, inlinks, outlinks, response time and redirect target. Pass nextCursor back as cursor, with the same filters and sort, for the next page.',
    errors: { 404: 'no crawl has run on this site yet' },
  },
  ({ db, principal, params, query }) =>
    listCrawledUrls(db, principal, { siteId: params.id, runId: undefined }, query),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
