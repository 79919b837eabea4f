import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import {
  listPageIncidentsResponse,
  manualIncidentBody,
  pageIncidentResponse,
  statusPageIdParams,
} from '@/lib/api/schemas/statuspages';
import { listPageIncidents, openManualIncident } from '@/lib/statuspages/service';

export const GET = apiRoute(
  {
    permission: 'publish',
    params: statusPageIdParams,
    response: listPageIncidentsResponse,
    summary: "A status page's incidents with their updates",
    description:
      "What the page shows: its listed monitors' consensus incidents and its manual incidents, ongoing or of the last 90 days, newest first, each with the updates posted on this page.",
    errors: { 403: 'a member, or a site-scoped key', 404: 'no such page in the organization' },
  },
  ({ db, principal, params }) => listPageIncidents(db, { tenantId: principal.tenantId, pageId: params.id }),
);

export const POST = apiRoute(
  {
    permission: 'publish',
    params: statusPageIdParams,
    body: manualIncidentBody,
    status: 201,
    response: pageIncidentResponse,
    summary: 'Open a manual incident on a status page',
    description:
      'For something no monitor sees. The message is its first update; it stays open (and raises the headline to its impact) until an update says resolved.',
    errors: {
      403: 'a member, or a site-scoped key',
      404: 'no such page in the organization',
      422: 'a missing or too long title or message, an unknown status or impact',
    },
  },
  ({ db, principal, params, body }) =>
    openManualIncident(db, { tenantId: principal.tenantId, pageId: params.id }, body).then((incident) => ({
      incident,
    })),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
