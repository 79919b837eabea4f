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
    description:
      "Every site the caller sees (a scoped key or a member: only theirs), with the organization's site quota.",
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
    description:
      'Owners, admins and unscoped keys. The rootUrl must be an http(s) URL of a host the service can reach; its hostname becomes the crawl whitelist. Omitted settings take their defaults.',
    errors: {
      403: 'a restricted member or a site-scoped key; or the included sites are used up with overage off',
      409: 'the root URL is already registered (the message names the site)',
    },
  },
  ({ db, principal, body }) => createSite(db, principal, body).then((site) => ({ site })),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
