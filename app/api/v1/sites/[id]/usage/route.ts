import { apiRoute } from '@/lib/api/pipeline';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { getSiteUsage } from '@/lib/usage/service';

export const GET = apiRoute({ permission: 'read', params: siteIdParams }, ({ db, principal, params }) =>
  getSiteUsage(db, principal, params.id),
);
