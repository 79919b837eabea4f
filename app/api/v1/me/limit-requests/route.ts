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
    description:
      "Any session role: the subject is the signed-in account's own organization cap. The request stays pending until decided.",
    errors: {
      400: 'kind org_sites is retired (extra sites are self-serve through overage billing)',
      409: 'a request for the same limit is already pending',
    },
  },
  ({ db, principal, body }) => createLimitRequest(db, principal, body),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
