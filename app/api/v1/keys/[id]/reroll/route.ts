import { apiRoute } from '@/lib/api/pipeline';
import { keyIdParams } from '@/lib/api/schemas/keys';
import { rerollKey } from '@/lib/keys/service';

export const POST = apiRoute(
  { auth: 'session', permission: 'admin', params: keyIdParams },
  ({ db, principal, params }) => rerollKey(db, principal.tenantId, params.id),
);
