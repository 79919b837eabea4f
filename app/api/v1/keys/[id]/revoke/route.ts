import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { keyIdParams, revokeKeyResponse } from '@/lib/api/schemas/keys';
import { revokeKey } from '@/lib/keys/service';

export const POST = apiRoute(
  {
    auth: 'session',
    permission: 'admin',
    params: keyIdParams,
    response: revokeKeyResponse,
    summary: 'Revoke a key, immediately and irreversibly',
  },
  ({ db, principal, params }) => revokeKey(db, principal.tenantId, params.id),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
