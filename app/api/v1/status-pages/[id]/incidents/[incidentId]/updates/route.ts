import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { incidentUpdateBody, pageIncidentParams, pageIncidentResponse } from '@/lib/api/schemas/statuspages';
import { postIncidentUpdate } from '@/lib/statuspages/service';

export const POST = apiRoute(
  {
    permission: 'publish',
    params: pageIncidentParams,
    body: incidentUpdateBody,
    status: 201,
    response: pageIncidentResponse,
    summary: 'Post an update on an incident of a status page',
    description:
      "On a listed monitor's incident or one of the page's manual incidents; the page, summary.json and feed.atom show it. resolved closes a manual incident; a monitor's incident resolves when its checks recover.",
    errors: {
      403: 'a member, or a site-scoped key',
      404: 'no such page in the organization, or no such incident on the page',
      409: 'resolved while the monitor is still failing, or another status on a resolved manual incident',
      422: 'a missing or too long message, an unknown status',
    },
  },
  ({ db, principal, params, body }) =>
    postIncidentUpdate(
      db,
      { tenantId: principal.tenantId, pageId: params.id, incidentId: params.incidentId },
      body,
    ).then((incident) => ({
      incident,
    })),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
