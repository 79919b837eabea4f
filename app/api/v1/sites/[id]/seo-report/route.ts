import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { seoReportQuery, seoReportResponse } from '@/lib/api/schemas/crawl';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { getSeoReport } from '@/lib/crawl/service';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: siteIdParams,
    query: seoReportQuery,
    response: seoReportResponse,
    summary: "SEO issues of the latest crawl, grouped by check, with the site's current exclusions applied",
    description:
      "Every failing check, most severe first, with its count and its first pages by URL (?pagesPerCheck=), the score recomputed without excluded pages, and the issues new and fixed since the previous completed crawl (counted, the first 1,000 of each listed). Pass a check's nextCursor as cursor with check for its next pages (?limit=): the same document with that check alone.",
    errors: {
      404: 'the SEO app is not enabled for the site, or no crawl has run yet',
      422: 'a cursor not from this check, a check not in the catalogue, or cursor/limit without check',
    },
  },
  ({ db, principal, params, query }) => getSeoReport(db, principal, { siteId: params.id }, query),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
