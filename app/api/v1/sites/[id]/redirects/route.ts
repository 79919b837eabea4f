import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { redirectsQuery, redirectsResponse } from '@/lib/api/schemas/crawl-views';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { listRedirects } from '@/lib/crawl/service';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: siteIdParams,
    query: redirectsQuery,
    response: redirectsResponse,
    summary:
      'Every redirecting URL of the latest crawl: its full chain, final status and the pages linking to it',
    description:
      'Each URL that answered with a redirect, with every hop, where the chain ends and its final status (or why it failed: a loop, too many hops), and how many crawled pages link to it. Pass nextCursor back as cursor for the next page.',
    errors: { 404: 'no crawl has run on this site yet, or its crawled URLs are no longer stored' },
  },
  ({ db, principal, params, query }) =>
    listRedirects(db, principal, { siteId: params.id, runId: undefined }, query),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
