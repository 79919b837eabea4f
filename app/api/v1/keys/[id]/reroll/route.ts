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
    description: 'Answers the key and its new secret, shown in this response only. A revoked key is a 404.',
    errors: { 409: 'the key has expired and has no lifetime left to carry over' },
  },
  ({ db, principal, params }) => rerollKey(db, { tenantId: principal.tenantId, keyId: params.id }),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
