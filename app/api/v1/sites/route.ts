import { apiRoute } from '@/lib/api/pipeline';
import { createSiteBody } from '@/lib/api/schemas/sites';
import { createSite, listSites } from '@/lib/sites/service';

export const GET = apiRoute({ permission: 'read' }, ({ db, principal }) => listSites(db, principal));

export const POST = apiRoute(
  { permission: 'create-site', body: createSiteBody, status: 201 },
  ({ db, principal, body }) => createSite(db, principal, body).then((site) => ({ site })),
);
