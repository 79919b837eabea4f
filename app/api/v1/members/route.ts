import { apiRoute } from '@/lib/api/pipeline';
import { listMembers } from '@/lib/members/service';

export const GET = apiRoute({ auth: 'session', permission: 'admin' }, ({ db, principal }) =>
  listMembers(db, principal.tenantId).then((members) => ({ members })),
);
