import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { searchPropertiesResponse } from '@/lib/api/schemas/search';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { listSearchProperties } from '@/lib/search/service';

export const GET = apiRoute(
  {
    auth: 'session',
    site: true,
    permission: 'admin',
    params: siteIdParams,
    response: searchPropertiesResponse,
    summary: 'Search Console properties the connected account can read (fresh from Google)',
    description:
      'Owner/admin session. Properties the account has not verified (`siteUnverifiedUser`) are left out.',
    errors: {
      404: 'the SEO app is not enabled, or the site is not connected',
      409: 'Google refused the stored authorization: the connection is now in error and must be made again',
    },
  },
  ({ db, principal, params }) => listSearchProperties(db, principal, params.id),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
