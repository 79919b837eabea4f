import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { endSessionResponse, sessionIdParams } from '@/lib/api/schemas/account';
import { endAccountSession, sessionOwner } from '@/lib/auth/service';

export const DELETE = apiRoute(
  {
    auth: 'session',
    params: sessionIdParams,
    response: endSessionResponse,
    summary: 'Sign out one of your sessions',
    description:
      "Ends the session at once: its cookie and bearer token are refused from the next request. Ending the session making the request signs you out. Another account's session, or one already ended, is a 404.",
    errors: { 404: 'session not found' },
  },
  ({ db, principal, params }) => endAccountSession(db, sessionOwner(principal), params.sessionId),
);

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods({ DELETE });
