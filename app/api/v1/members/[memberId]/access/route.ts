import { apiRoute } from '@/lib/api/pipeline';
import { memberAccessBody, memberIdParams } from '@/lib/api/schemas/members';
import { setMemberAccess } from '@/lib/members/service';

export const PATCH = apiRoute(
  { auth: 'session', permission: 'admin', params: memberIdParams, body: memberAccessBody },
  ({ db, principal, params, body }) => setMemberAccess(db, principal.tenantId, params.memberId, body),
);
