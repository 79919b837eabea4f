import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { organizationResponse, renameOrganizationBody } from '@/lib/api/schemas/organization';
import { getOrganization, renameOrganization } from '@/lib/orgs/service';

/** The active organization's name and logo, for any of its members. */
export const GET = apiRoute(
  {
    auth: 'session',
    response: organizationResponse,
    summary: "The organization's name and logo",
    description:
      "The caller's active organization: its name, slug and the logo that brands its reports. Any member, from a dashboard session.",
  },
  async ({ db, principal }) => ({ organization: await getOrganization(db, principal.tenantId) }),
);

/** Renames the organization: reports, mails and the dashboard show the new name from now on. */
export const PATCH = apiRoute(
  {
    auth: 'session',
    permission: 'admin',
    body: renameOrganizationBody,
    response: organizationResponse,
    summary: 'Rename the organization',
    description:
      'Owners and admins, from a dashboard session. The name is trimmed and must be one line of 1 to 100 characters; reports and mails use it from the next one on.',
    errors: { 422: 'an empty, too long or multi-line name, or a field that is not `name`' },
  },
  async ({ db, principal, body }) => ({
    organization: await renameOrganization(db, { tenantId: principal.tenantId, name: body.name }),
  }),
);

export const { POST, PUT, DELETE, OPTIONS } = otherMethods({ GET, PATCH });
