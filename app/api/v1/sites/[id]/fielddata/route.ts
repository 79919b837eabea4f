import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { fieldDataQuery, fieldDataResponse } from '@/lib/api/schemas/fielddata';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { getFieldDataReport } from '@/lib/fielddata/service';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: siteIdParams,
    query: fieldDataQuery,
    response: fieldDataResponse,
    summary:
      "Real-user Core Web Vitals of the site's origin (CrUX): latest window, verdict, deltas, weekly series",
    description:
      "p75 of LCP, INP, CLS and TTFB per rolling 28-day window from Chrome's real-user dataset, synced daily for the origin the root URL ends up on. `formFactor` picks all devices (default), phones or desktops.",
    errors: {
      404: 'the Performance app is not enabled, or no field data has been found for the origin yet (each with its own message)',
    },
  },
  ({ db, principal, params, query }) => getFieldDataReport(db, principal, params.id, query.formFactor),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
