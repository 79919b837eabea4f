import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { listMembersResponse } from '@/lib/api/schemas/members';
import { listMembers } from '@/lib/members/service';

export const GET = apiRoute(
  {
    auth: 'session',
    permission: 'admin',
    response: listMembersResponse,
    summary: 'List members with role and site access',
    description: 'Every member of the organization with role, site allowlist and crawl permission.',
  },
  ({ db, principal }) => listMembers(db, principal.tenantId).then((members) => ({ members })),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
