import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { searchConnectionResponse, searchPropertyBody } from '@/lib/api/schemas/search';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { chooseSearchProperty } from '@/lib/search/service';

export const POST = apiRoute(
  {
    auth: 'session',
    site: true,
    permission: 'admin',
    params: siteIdParams,
    body: searchPropertyBody,
    response: searchConnectionResponse,
    summary: 'Choose the Search Console property to sync; arms the first sync (a 90-day backfill)',
    description:
      "Owner/admin session. `property` is checked against a fresh list of the account's readable properties; the connection becomes `connected` and syncs at once, then daily.",
    errors: {
      404: 'the SEO app is not enabled, or the site is not connected',
      409: 'Google refused the stored authorization',
      422: 'property missing, or one the connected account cannot read',
    },
  },
  ({ db, principal, params, body }) =>
    chooseSearchProperty(db, principal, { siteId: params.id, property: body.property }),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
