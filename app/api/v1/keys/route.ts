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
    description:
      'Every live key of the organization (revoked ones are not listed) with its name, prefix, site scope, expiry and last use.',
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
    description:
      'A key without siteIds sees every site of the organization, including sites added later; with siteIds it sees those sites only and cannot register sites. Send the secret as the x-api-key header.',
  },
  ({ db, principal, body }) => createKey(db, principal, body),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
