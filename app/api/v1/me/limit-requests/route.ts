import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { limitRequestBody, limitRequestResponse } from '@/lib/api/schemas/limits';
import { createLimitRequest } from '@/lib/limits/service';

/** Any session role: the subject is the caller's own organization cap. */
export const POST = apiRoute(
  {
    auth: 'session',
    body: limitRequestBody,
    status: 201,
    response: limitRequestResponse,
    summary: 'Ask for a higher organization cap',
  },
  ({ db, principal, body }) => createLimitRequest(db, principal, body),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
