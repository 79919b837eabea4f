import { recomputeSiteA11yRun } from '@/lib/a11y/report';
import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { deleteSiteResponse, siteResponse } from '@/lib/api/schemas/resources';
import { siteIdParams, updateSiteBody } from '@/lib/api/schemas/sites';
import { deleteSite, getSite, updateSite } from '@/lib/sites/service';

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
  async ({ db, principal, params, body }) => {
    const site = await updateSite(db, principal, params.id, body);
    // The stored accessibility score counts only pages not excluded (lib/sites cannot import lib/a11y).
    if (body.excludePaths !== undefined) await recomputeSiteA11yRun(db, principal, params.id);
    return { site };
  },
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
