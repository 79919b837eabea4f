import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import {
  createStatusPageBody,
  listStatusPagesQuery,
  listStatusPagesResponse,
  statusPageResponse,
} from '@/lib/api/schemas/statuspages';
import { createStatusPage, listStatusPages } from '@/lib/statuspages/service';

export const GET = apiRoute(
  {
    permission: 'publish',
    query: listStatusPagesQuery,
    response: listStatusPagesResponse,
    summary: "List the organization's status pages",
    description:
      'Newest first, with each page\u2019s listed monitors and public address. Owners, admins and API keys without a site scope.',
    errors: { 403: 'a member, or a site-scoped key' },
  },
  ({ db, principal, query }) => listStatusPages(db, principal.tenantId, query),
);

export const POST = apiRoute(
  {
    permission: 'publish',
    body: createStatusPageBody,
    status: 201,
    response: statusPageResponse,
    summary: 'Publish a status page at /status/{slug}',
    description:
      'The page shows the listed monitors (current status, 90 days of daily uptime, recent incidents) to anyone, with no credential, and nothing else of the organization. Monitor URLs, accessibility scores and broken-link counts are shown only when chosen.',
    errors: {
      403: 'a member, or a site-scoped key',
      409: 'the slug is taken (slugs are unique across the service)',
      422: 'a bad slug, or a monitor id that is not a monitor of the organization',
    },
  },
  ({ db, principal, body }) =>
    createStatusPage(db, principal.tenantId, body).then((statusPage) => ({ statusPage })),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
