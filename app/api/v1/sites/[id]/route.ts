import { updateSiteSettings } from '@/lib/a11y/service';
import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { deleteSiteResponse, siteResponse } from '@/lib/api/schemas/resources';
import { siteIdParams, updateSiteBody } from '@/lib/api/schemas/sites';
import { deleteSite, getSite } from '@/lib/sites/service';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: siteIdParams,
    response: siteResponse,
    summary: 'Read one site',
    description: 'The site resource: settings, schedule and apps.',
  },
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
    description:
      'Owners, admins and keys that see the site. Changing cadenceMinutes recomputes the next run from the last one; changing excludePaths recomputes the stored accessibility score at once. maxPages and maxConcurrency are set at creation only.',
    errors: { 409: 'the new rootUrl is already registered as another site' },
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
    description:
      'Deletes the site with its runs and reports; its usage stays in the ledger under its hostname.',
  },
  ({ db, principal, params }) => deleteSite(db, principal, params.id),
);

export const { POST, PUT, OPTIONS } = otherMethods({ GET, PATCH, DELETE });
