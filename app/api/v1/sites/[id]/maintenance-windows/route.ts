import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import {
  createMaintenanceWindowBody,
  listMaintenanceWindowsQuery,
  listMaintenanceWindowsResponse,
  maintenanceWindowResponse,
} from '@/lib/api/schemas/maintenance';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { createMaintenanceWindow, listMaintenanceWindows } from '@/lib/uptime/service';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: siteIdParams,
    query: listMaintenanceWindowsQuery,
    response: listMaintenanceWindowsResponse,
    summary: "The site's maintenance windows",
    description:
      'Filtered by state (upcoming, active, past) or all of them; upcoming and active windows soonest first, past ones and the unfiltered list latest first; keyset-paginated.',
  },
  ({ db, principal, params, query }) => listMaintenanceWindows(db, principal, params.id, query),
);

export const POST = apiRoute(
  {
    site: true,
    permission: 'manage',
    params: siteIdParams,
    body: createMaintenanceWindowBody,
    response: maintenanceWindowResponse,
    status: 201,
    summary: 'Schedule a maintenance window for some or all of the site\u2019s monitors',
    description:
      'From startsAt to endsAt the covered monitors are still probed, but a failing round opens no incident and alerts nobody, and the time counts neither as up nor as down. A monitor still failing when the window ends opens its incident then, with one alert. Status pages listing a covered monitor announce the window ahead and while it lasts.',
    errors: {
      403: 'the caller may not manage monitors',
      404: 'the site, or a listed monitor on it, is not found',
      409: 'the site has 50 windows scheduled or under way already',
      422: 'an empty title, a start in the past, an end not after the start or more than 7 days after it',
    },
  },
  ({ db, principal, params, body }) =>
    createMaintenanceWindow(db, principal, params.id, body).then((maintenanceWindow) => ({
      maintenanceWindow,
    })),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
