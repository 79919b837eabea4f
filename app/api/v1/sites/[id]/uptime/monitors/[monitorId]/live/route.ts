import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { monitorIdParams, monitorLiveResponse } from '@/lib/api/schemas/uptime';
import { getMonitorLive } from '@/lib/uptime/service';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: monitorIdParams,
    response: monitorLiveResponse,
    summary: "The monitor now: each region's latest probe, the latest consensus, the open incident",
    description:
      "Each region's latest probe with its phase timings (DNS, connect, TLS, first byte) and certificate expiry, the latest round's consensus (failing and slow regions, cause), the incident in progress, and whether the monitor is probed (paused by itself or by the site's Uptime app).",
    errors: { 404: 'the site, or the monitor on it, is not found' },
  },
  ({ db, principal, params }) =>
    getMonitorLive(db, principal, { siteId: params.id, monitorId: params.monitorId }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
