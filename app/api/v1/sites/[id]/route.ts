import { updateSiteSettings } from '@/lib/a11y/site-settings';
import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { deleteSiteResponse, siteResponse } from '@/lib/api/schemas/resources';
import { siteIdParams, updateSiteBody } from '@/lib/api/schemas/sites';
import { deleteSite, getSite } from '@/lib/sites/service';

export const GET = apiRoute(
  { site: true, permission: 'read', params: siteIdParams, response: siteResponse, summary: 'Read one site' },
  ({ db, principal, params }) => getSite(db, principal, params.id),
);

export const PATCH = apiRoute(
  {
    site: true,
    permission: 'manage',
    params: siteIdParams,
    body: updateSiteBody,
    response: siteResponse,
    summary: 'Change settings and apps; omitted fields keep their value',
  },
  ({ db, principal, params, body }) =>
    updateSiteSettings(db, principal, params.id, body).then((site) => ({ site })),
);

/** Response `{deleted: true}` (the spec names site deletion without its shape). */
export const DELETE = apiRoute(
  {
    site: true,
    permission: 'manage',
    params: siteIdParams,
    response: deleteSiteResponse,
    summary: 'Delete a site, freeing its slot at once',
  },
  ({ db, principal, params }) => deleteSite(db, principal, params.id),
);

export const { POST, PUT, OPTIONS } = otherMethods({ GET, PATCH, DELETE });
