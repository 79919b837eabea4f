import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { mailTokenParams, unsubscribeResponse } from '@/lib/api/schemas/notifications';
import { unsubscribe } from '@/lib/notify/service';

/**
 * RFC 8058 one-click unsubscribe. Every notification mail's List-Unsubscribe URL is the page
 * `/unsubscribe/{token}` (a GET shows what it stops and a button; scanners that open it change
 * nothing); a mail client's one-click POST to that URL (`List-Unsubscribe=One-Click`, form-encoded;
 * the body is not needed and not read) is rewritten here by proxy.ts, and so is the page's button.
 */
export const POST = apiRoute(
  {
    auth: 'none',
    params: mailTokenParams,
    response: unsubscribeResponse,
    summary: 'One-click unsubscribe (RFC 8058) from one topic of one organization',
    description:
      'Public: the signed token in the List-Unsubscribe URL of a notification mail is the credential. The organization sends that address no more mail of the topic (uptime, crawl, search, performance, report, billing; `all` from a test mail) until an owner or admin subscribes it again, which for an address outside the organization takes a new confirmation. The request body (`List-Unsubscribe=One-Click`) is accepted and not needed. Unsubscribing twice answers the same.',
    errors: { 404: 'the token is not valid' },
  },
  ({ db, params }) => unsubscribe(db, params.token),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
