import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import {
  statusPageDeletedResponse,
  statusPageIdParams,
  statusPageResponse,
  updateStatusPageBody,
} from '@/lib/api/schemas/statuspages';
import { deleteStatusPage, getStatusPage, updateStatusPage } from '@/lib/statuspages/service';

export const GET = apiRoute(
  {
    permission: 'publish',
    params: statusPageIdParams,
    response: statusPageResponse,
    summary: 'One status page',
    description: 'Its settings, listed monitors and public address.',
    errors: { 403: 'a member, or a site-scoped key', 404: 'no such page in the organization' },
  },
  ({ db, principal, params }) =>
    getStatusPage(db, { tenantId: principal.tenantId, id: params.id }).then((statusPage) => ({ statusPage })),
);

export const PATCH = apiRoute(
  {
    permission: 'publish',
    params: statusPageIdParams,
    body: updateStatusPageBody,
    response: statusPageResponse,
    summary: 'Edit a status page; omitted fields keep their value',
    description:
      'monitorIds replaces the list (and its order). A new slug moves the page at once: the old address answers 404. The public page shows the change on its next request.',
    errors: {
      403: 'a member, or a site-scoped key',
      404: 'no such page in the organization',
      409: 'the new slug is taken',
      422: 'a bad slug, or a monitor id that is not a monitor of the organization',
    },
  },
  ({ db, principal, params, body }) =>
    updateStatusPage(db, { tenantId: principal.tenantId, id: params.id }, body).then((statusPage) => ({
      statusPage,
    })),
);

export const DELETE = apiRoute(
  {
    permission: 'publish',
    params: statusPageIdParams,
    response: statusPageDeletedResponse,
    summary: 'Delete a status page',
    description: 'Its address answers 404 at once and is free for any organization to take.',
    errors: { 403: 'a member, or a site-scoped key', 404: 'no such page in the organization' },
  },
  ({ db, principal, params }) => deleteStatusPage(db, { tenantId: principal.tenantId, id: params.id }),
);

export const { POST, PUT, OPTIONS } = otherMethods({ GET, PATCH, DELETE });
