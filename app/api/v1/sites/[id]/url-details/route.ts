import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { urlDetailsQuery, urlDetailsResponse } from '@/lib/api/schemas/crawl-views';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { getUrlDetail } from '@/lib/crawl/service';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: siteIdParams,
    query: urlDetailsQuery,
    response: urlDetailsResponse,
    summary:
      'One URL of the latest crawl: its answer and redirect chain, the pages linking to it, its links and SEO issues',
    description:
      'The URL named by ?url= as the pages list gives it: its row, its redirect chain, the pages linking to it with anchor text and selector (a page at a time, inlinksCursor), the links on it with their outcome, and its SEO issues.',
    errors: { 404: 'no crawl has run on this site yet, or the latest crawl did not find the URL' },
  },
  ({ db, principal, params, query }) =>
    getUrlDetail(db, principal, { siteId: params.id, runId: undefined }, query),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
