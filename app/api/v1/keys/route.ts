import { apiRoute } from '@/lib/api/pipeline';
import { createKeyBody } from '@/lib/api/schemas/keys';
import { createKey, listKeys } from '@/lib/keys/service';

export const GET = apiRoute({ auth: 'session', permission: 'admin' }, ({ db, principal }) =>
  listKeys(db, principal.tenantId).then((keys) => ({ keys })),
);

export const POST = apiRoute(
  { auth: 'session', permission: 'admin', body: createKeyBody, status: 201 },
  ({ db, principal, body }) => createKey(db, principal, body),
);
