import { apiRoute } from '@/lib/api/pipeline';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { getBrokenLinkReport } from '@/lib/crawl/report';

export const GET = apiRoute({ permission: 'read', params: siteIdParams }, ({ db, principal, params }) =>
  getBrokenLinkReport(db, principal, params.id),
);
