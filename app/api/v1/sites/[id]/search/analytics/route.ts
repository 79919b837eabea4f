import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { searchAnalyticsQuery, searchAnalyticsResponse } from '@/lib/api/schemas/search';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { getSearchAnalytics } from '@/lib/search/service';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: siteIdParams,
    query: searchAnalyticsQuery,
    response: searchAnalyticsResponse,
    summary: 'Daily search clicks and impressions, and the last 7 days against the 7 before',
    description:
      "Final Search Console data (web search) of the connected property, per day, and the comparison the traffic-drop alert uses. Readable by anyone who sees the site, like the site's other reports.",
    errors: { 404: 'the SEO app is not enabled, or no property is connected' },
  },
  ({ db, principal, params, query }) => getSearchAnalytics(db, principal, params.id, query.days),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
