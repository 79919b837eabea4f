import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import {
  monitorDeletedResponse,
  monitorIdParams,
  monitorResponse,
  updateMonitorBody,
} from '@/lib/api/schemas/uptime';
import { deleteMonitor, getMonitor, updateMonitor } from '@/lib/uptime/service';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: monitorIdParams,
    response: monitorResponse,
    summary: 'One uptime monitor',
    description:
      'The monitor with its consensus status and when it last ran; the live endpoint has the regions.',
    errors: { 404: 'the site, or the monitor on it, is not found' },
  },
  ({ db, principal, params }) =>
    getMonitor(db, principal, { siteId: params.id, monitorId: params.monitorId }).then((monitor) => ({
      monitor,
    })),
);

export const PATCH = apiRoute(
  {
    site: true,
    permission: 'manage',
    params: monitorIdParams,
    body: updateMonitorBody,
    response: monitorResponse,
    summary: 'Edit a monitor; omitted fields keep their value',
    description:
      'enabled: false pauses it (probing stops, monitor and history stay); true resumes it with a round from every region at once, as does a new url. A new cadence moves the next round onto it. Allowed while the Uptime app is off.',
    errors: { 404: 'the site, or the monitor on it, is not found' },
  },
  ({ db, principal, params, body }) =>
    updateMonitor(db, principal, { siteId: params.id, monitorId: params.monitorId }, body).then(
      (monitor) => ({ monitor }),
    ),
);

export const DELETE = apiRoute(
  {
    site: true,
    permission: 'manage',
    params: monitorIdParams,
    response: monitorDeletedResponse,
    summary: 'Delete a monitor with its incidents and history',
    description: 'Its slot in the allowance is free at once.',
    errors: { 404: 'the site, or the monitor on it, is not found' },
  },
  ({ db, principal, params }) =>
    deleteMonitor(db, principal, { siteId: params.id, monitorId: params.monitorId }),
);

export const { POST, PUT, OPTIONS } = otherMethods({ GET, PATCH, DELETE });
