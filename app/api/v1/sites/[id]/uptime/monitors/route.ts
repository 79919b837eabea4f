import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { createMonitorBody, monitorListResponse, monitorResponse } from '@/lib/api/schemas/uptime';
import { createMonitor, listMonitors } from '@/lib/uptime/service';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: siteIdParams,
    response: monitorListResponse,
    summary: "The site's uptime monitors, oldest first",
    description:
      'Every monitor of the site with its consensus status, paused ones included. Monitors stay listed (and stop probing) while the Uptime app is off.',
  },
  ({ db, principal, params }) => listMonitors(db, principal, params.id).then((monitors) => ({ monitors })),
);

export const POST = apiRoute(
  {
    site: true,
    permission: 'manage',
    params: siteIdParams,
    body: createMonitorBody,
    response: monitorResponse,
    status: 201,
    summary: 'Add an uptime monitor; every region probes it at once, then on its cadence',
    description:
      "The URL is probed from four regions (na, eu, as, oc) on the cadence, each round judged by consensus; a first round fires immediately when the monitor is enabled. The monitor's host may differ from the site's; it is checked when saved like every configured URL. The allowance is ALLOWANCE_MONITORS per site, pooled across the organization; with overage on, monitors past it are metered and billed.",
    errors: {
      403: 'the caller may not manage monitors, or the pooled monitor allowance is used up with overage off',
      409: "the site's Uptime app is not enabled",
    },
  },
  ({ db, principal, params, body }) =>
    createMonitor(db, principal, params.id, body).then((monitor) => ({ monitor })),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
