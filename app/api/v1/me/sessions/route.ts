import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { accountSessionsResponse } from '@/lib/api/schemas/account';
import { listAccountSessions, sessionOwner } from '@/lib/auth/service';

export const GET = apiRoute(
  {
    auth: 'session',
    response: accountSessionsResponse,
    summary: 'Where your account is signed in',
    description:
      "The signed-in account's unexpired sessions with the browser and address each signed in from; tokens are never listed.",
  },
  ({ db, principal }) => listAccountSessions(db, sessionOwner(principal)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
