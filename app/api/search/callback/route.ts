import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { searchCallbackQuery } from '@/lib/api/schemas/search';
import { config } from '@/lib/config';
import { completeSearchConnect } from '@/lib/search/service';

/**
 * GET /api/search/callback: where Google sends the browser back from its consent screen (the OAuth
 * client's registered redirect URI, `APP_URL/api/search/callback`). A browser step of the search
 * connection rather than an API operation, so it lives beside /api/auth, outside /v1 and its
 * OpenAPI document; it still goes through the pipeline: an owner/admin dashboard session (its
 * cookie), `state` checked against that very session, errors as `{error}`.
 *
 * Answers 303 to the site's Search tab: `/sites/{id}/search?connected=1`, or `?error=` access_denied,
 * expired, scope, exchange_failed or not_available (see `CallbackError`). 403 for a state this
 * session was not issued.
 */
export const GET = apiRoute(
  { auth: 'session', permission: 'admin', query: searchCallbackQuery },
  async ({ db, principal, query }) => {
    const { redirectTo } = await completeSearchConnect(db, principal, query);
    return new Response(null, { status: 303, headers: { location: `${config().appUrl}${redirectTo}` } });
  },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
