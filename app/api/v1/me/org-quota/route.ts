import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { orgQuotaResponse } from '@/lib/api/schemas/limits';
import { organizationQuota } from '@/lib/limits/service';

export const GET = apiRoute(
  {
    auth: 'session',
    response: orgQuotaResponse,
    summary: 'Your organization cap, how much of it is used, and your latest limit request',
    description:
      'How many organizations the signed-in account may belong to and belongs to, whether it may create another, and its newest limit request.',
  },
  ({ db, principal }) => organizationQuota(db, principal),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
