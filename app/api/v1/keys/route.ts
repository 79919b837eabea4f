import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { createKeyBody, keyWithSecretResponse, listKeysResponse } from '@/lib/api/schemas/keys';
import { createKey, listKeys } from '@/lib/keys/service';

export const GET = apiRoute(
  {
    auth: 'session',
    permission: 'admin',
    response: listKeysResponse,
    summary: 'List API keys (never their secrets)',
  },
  ({ db, principal }) => listKeys(db, principal.tenantId).then((keys) => ({ keys })),
);

export const POST = apiRoute(
  {
    auth: 'session',
    permission: 'admin',
    body: createKeyBody,
    status: 201,
    response: keyWithSecretResponse,
    summary: 'Create a key; the secret is in this response only',
  },
  ({ db, principal, body }) => createKey(db, principal, body),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
