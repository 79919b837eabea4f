import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { pagesQuery, pagesResponse, runIdParams } from '@/lib/api/schemas/history';
import { listCrawledUrls } from '@/lib/crawl/service';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: runIdParams,
    query: pagesQuery,
    response: pagesResponse,
    summary: 'Every URL one crawl run discovered, as /pages answers for the latest',
    description:
      'Only the latest completed crawl (and a running one) keeps its crawled URLs; an older run answers 404 saying so.',
    errors: { 404: 'run not found, or its crawled URLs are no longer stored' },
  },
  ({ db, principal, params, query }) =>
    listCrawledUrls(db, principal, { siteId: params.id, runId: params.runId }, query),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
