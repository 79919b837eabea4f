import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { searchConnectResponse } from '@/lib/api/schemas/search';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { startSearchConnect } from '@/lib/search/service';

export const POST = apiRoute(
  {
    auth: 'session',
    site: true,
    permission: 'admin',
    params: siteIdParams,
    response: searchConnectResponse,
    summary: "Start connecting a Search Console account: the Google consent screen's URL",
    description:
      'Owner/admin session. Send the browser to `authorizeUrl` (scope openid email webmasters.readonly, offline access); Google returns the browser to /api/search/callback, which connects the site and redirects to its Search tab. The URL is bound to this session, site and organization and expires in 30 minutes.',
    errors: {
      404: 'the SEO app is not enabled for this site',
      409: 'the server has no Google OAuth client (GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET)',
    },
  },
  ({ db, principal, params }) => startSearchConnect(db, principal, params.id),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
