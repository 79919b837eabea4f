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
    description:
      'siteIds replaces the whole allowlist; omitted fields keep their value. Owners and admins see every site and may always crawl, so their access cannot be set.',
    errors: { 409: 'the member is an owner or admin' },
  },
  ({ db, principal, params, body }) =>
    setMemberAccess(db, { tenantId: principal.tenantId, memberId: params.memberId }, body),
);

export const { GET, POST, PUT, DELETE, OPTIONS } = otherMethods({ PATCH });
