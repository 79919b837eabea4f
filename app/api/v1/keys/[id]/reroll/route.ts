import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { keyIdParams, keyWithSecretResponse } from '@/lib/api/schemas/keys';
import { rerollKey } from '@/lib/keys/service';

export const POST = apiRoute(
  {
    auth: 'session',
    permission: 'admin',
    params: keyIdParams,
    response: keyWithSecretResponse,
    summary: 'Rotate the secret; name, scope and remaining lifetime carry over, the old secret stops at once',
  },
  ({ db, principal, params }) => rerollKey(db, principal.tenantId, params.id),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
