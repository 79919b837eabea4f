import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import {
  maintenanceWindowDeletedResponse,
  maintenanceWindowIdParams,
  maintenanceWindowResponse,
  updateMaintenanceWindowBody,
} from '@/lib/api/schemas/maintenance';
import { deleteMaintenanceWindow, getMaintenanceWindow, updateMaintenanceWindow } from '@/lib/uptime/service';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: maintenanceWindowIdParams,
    response: maintenanceWindowResponse,
    summary: 'One maintenance window',
    description: 'Its times, its state now and the monitors it covers.',
    errors: { 404: 'the site, or the window on it, is not found' },
  },
  ({ db, principal, params }) =>
    getMaintenanceWindow(db, principal, { siteId: params.id, windowId: params.windowId }).then(
      (maintenanceWindow) => ({
        maintenanceWindow,
      }),
    ),
);

export const PATCH = apiRoute(
  {
    site: true,
    permission: 'manage',
    params: maintenanceWindowIdParams,
    body: updateMaintenanceWindowBody,
    response: maintenanceWindowResponse,
    summary: 'Edit a maintenance window; omitted fields keep their value',
    description:
      'Before it begins, anything may change. Under way, its start is fixed and its end may move, to now at the earliest (which ends it). monitorIds replaces the list; null covers every monitor of the site.',
    errors: {
      404: 'the site, the window or a listed monitor is not found',
      409: 'the window is over',
      422: 'a time breaking the rules of creation, or a new start for a window under way',
    },
  },
  ({ db, principal, params, body }) =>
    updateMaintenanceWindow(db, principal, { siteId: params.id, windowId: params.windowId }, body).then(
      (maintenanceWindow) => ({
        maintenanceWindow,
      }),
    ),
);

export const DELETE = apiRoute(
  {
    site: true,
    permission: 'manage',
    params: maintenanceWindowIdParams,
    response: maintenanceWindowDeletedResponse,
    summary: 'Delete a maintenance window',
    description:
      'An upcoming window is cancelled; one under way ends at once (a monitor still failing opens its incident on its next round); a past one is forgotten and its time counts like any other.',
    errors: { 404: 'the site, or the window on it, is not found' },
  },
  ({ db, principal, params }) =>
    deleteMaintenanceWindow(db, principal, { siteId: params.id, windowId: params.windowId }),
);

export const { POST, PUT, OPTIONS } = otherMethods({ GET, PATCH, DELETE });
