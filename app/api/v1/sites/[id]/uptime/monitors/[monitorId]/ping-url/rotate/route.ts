import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { monitorIdParams, monitorResponse } from '@/lib/api/schemas/uptime';
import { rotatePingUrl } from '@/lib/uptime/service';

export const POST = apiRoute(
  {
    site: true,
    permission: 'manage',
    params: monitorIdParams,
    response: monitorResponse,
    summary: "Rotate a heartbeat monitor's ping URL; the answer shows the new one in full, once",
    description:
      "A new secret ping URL replaces the old one at once: pings to the old URL answer 404 from now on. Only the token's hash is kept, so ping_url is in full in this answer alone (and in the one that created the monitor); every read masks it. The monitor's deadline and state are unchanged: update the job before its next ping is due.",
    errors: {
      404: 'the site, or the monitor on it, is not found',
      422: 'the monitor is an http monitor, which has no ping URL (field kind)',
    },
  },
  ({ db, principal, params }) =>
    rotatePingUrl(db, principal, { siteId: params.id, monitorId: params.monitorId }).then((monitor) => ({
      monitor,
    })),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
