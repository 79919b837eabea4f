import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { memberAccessBody, memberAccessResponse, memberIdParams } from '@/lib/api/schemas/members';
import { setMemberAccess } from '@/lib/members/service';

export const PATCH = apiRoute(
  {
    auth: 'session',
    permission: 'admin',
    params: memberIdParams,
    body: memberAccessBody,
    response: memberAccessResponse,
    summary: "Set a member's site allowlist and crawl permission",
  },
  ({ db, principal, params, body }) => setMemberAccess(db, principal.tenantId, params.memberId, body),
);

export const { GET, POST, PUT, DELETE, OPTIONS } = otherMethods({ PATCH });
