import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { siteStatusResponse } from '@/lib/api/schemas/resources';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { getSiteStatus } from '@/lib/status/service';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: siteIdParams,
    response: siteStatusResponse,
    summary:
      'The site, its live crawl and accessibility render states and its latest crawl and accessibility runs',
    description:
      'What the dashboard polls while a crawl or a render pass runs: the live states say idle when nothing runs.',
  },
  ({ db, principal, params }) => getSiteStatus(db, principal, params.id),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
