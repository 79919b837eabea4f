import { apiRoute } from '@/lib/api/pipeline';
import { limitRequestBody } from '@/lib/api/schemas/limits';
import { createLimitRequest } from '@/lib/limits/service';

/** Any session role: the subject is the caller's own organization cap. */
export const POST = apiRoute(
  { auth: 'session', body: limitRequestBody, status: 201 },
  ({ db, principal, body }) => createLimitRequest(db, principal, body),
);
