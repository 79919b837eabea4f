import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { listSitesResponse, siteResponse } from '@/lib/api/schemas/resources';
import { createSiteBody } from '@/lib/api/schemas/sites';
import { createSite, listSites } from '@/lib/sites/service';

export const GET = apiRoute(
  {
    permission: 'read',
    response: listSitesResponse,
    summary: 'List the sites visible to the caller, with the quota',
  },
  ({ db, principal }) => listSites(db, principal),
);

export const POST = apiRoute(
  {
    permission: 'create-site',
    body: createSiteBody,
    status: 201,
    response: siteResponse,
    summary: 'Register a site; its first crawl is due at once when a crawl app is on',
  },
  ({ db, principal, body }) => createSite(db, principal, body).then((site) => ({ site })),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
