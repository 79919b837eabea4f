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
    description:
      'Requests with the key are refused (401) from now on; it leaves the list, and revoking or re-rolling it again is a 404.',
  },
  ({ db, principal, params }) => revokeKey(db, { tenantId: principal.tenantId, keyId: params.id }),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
