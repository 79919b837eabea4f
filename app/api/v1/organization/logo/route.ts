import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { organizationLogoBody, organizationResponse } from '@/lib/api/schemas/organization';
import { removeOrganizationLogo, setOrganizationLogo } from '@/lib/orgs/service';

/** Uploads (or replaces) the logo that brands the organization's reports. */
export const PUT = apiRoute(
  {
    auth: 'session',
    permission: 'admin',
    body: organizationLogoBody,
    response: organizationResponse,
    summary: "Upload the organization's logo",
    description:
      'Owners and admins, from a dashboard session. `{contentType, data}`: a PNG or JPEG of at most 100 KB, base64. The bytes must be the declared type (their signature is checked); SVG is refused. Replaces the previous logo.',
    errors: { 422: 'not PNG or JPEG, larger than 100 KB, not base64, or not the declared type' },
  },
  async ({ db, principal, body }) => ({
    organization: await setOrganizationLogo(db, principal.tenantId, body),
  }),
);

/** Removes the logo: reports show the organization's name alone. */
export const DELETE = apiRoute(
  {
    auth: 'session',
    permission: 'admin',
    response: organizationResponse,
    summary: "Remove the organization's logo",
    description: 'Owners and admins, from a dashboard session. Answers the organization without a logo.',
  },
  async ({ db, principal }) => ({ organization: await removeOrganizationLogo(db, principal.tenantId) }),
);

export const { GET, POST, PATCH, OPTIONS } = otherMethods({ PUT, DELETE });
