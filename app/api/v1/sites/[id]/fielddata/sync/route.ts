import { fieldDataEvents } from '@/jobs/fielddata-events';
import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { fieldDataSyncResponse } from '@/lib/api/schemas/fielddata';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { requestFieldDataSync } from '@/lib/fielddata/service';

export const POST = apiRoute(
  {
    site: true,
    permission: 'manage',
    params: siteIdParams,
    response: fieldDataSyncResponse,
    status: 202,
    summary: "Sync the site's field data now (202); it otherwise syncs daily",
    description:
      'Queues the CrUX sync the scheduler runs daily: `fielddata_status` and `fielddata_checked_at` on the site move when it has run. Requests within the same minute are one sync.',
    errors: {
      404: 'the Performance app is not enabled for this site',
      409: 'the server has no CrUX API key (CRUX_API_KEY)',
    },
  },
  ({ db, principal, params }) => requestFieldDataSync(db, principal, params.id, fieldDataEvents),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
