import { apiRoute } from '@/lib/api/pipeline';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { getSiteStatus } from '@/lib/sites/service';

export const GET = apiRoute(
  { site: true, permission: 'read', params: siteIdParams },
  ({ db, principal, params }) => getSiteStatus(db, principal, params.id),
);
