import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import {
  deleteSiteNotificationsResponse,
  notificationSettingsBody,
  siteNotificationsResponse,
} from '@/lib/api/schemas/notifications';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { deleteSiteSettings, getSiteSettings, updateSiteSettings } from '@/lib/notify/service';

const route = { auth: 'session', site: true, permission: 'admin', params: siteIdParams } as const;

/** The site's override, or where one would start (empty receivers, includeOrgDefaults true). */
export const GET = apiRoute(
  {
    ...route,
    response: siteNotificationsResponse,
    summary: "The site's notification override",
    description:
      'The override, or (overridden false) where one would start: empty lists with includeOrgDefaults true, the site following the org defaults. Owners and admins only, from a dashboard session.',
  },
  ({ db, principal, params }) => getSiteSettings(db, principal, params.id),
);

/** Creates or updates the override; a new one starts empty with includeOrgDefaults true. */
export const PATCH = apiRoute(
  {
    ...route,
    body: notificationSettingsBody,
    response: siteNotificationsResponse,
    summary: "Create or update the site's notification override (partial)",
    description:
      "Creates the override from empty lists with includeOrgDefaults true, or updates it; omitted fields keep their value, so only an explicit includeOrgDefaults false stops the org defaults from receiving the site's events.",
    errors: { 422: 'an invalid recipient or webhook, a list too long, or a user who is not a member' },
  },
  ({ db, principal, params, body }) => updateSiteSettings(db, principal, params.id, body),
);

/** Removes the override: the site follows the org defaults again. */
export const DELETE = apiRoute(
  {
    ...route,
    response: deleteSiteNotificationsResponse,
    summary: 'Revert the site to the org defaults',
    description: "Removes the site's override; its events go to the org defaults again.",
  },
  ({ db, principal, params }) => deleteSiteSettings(db, principal, params.id),
);

export const { POST, PUT, OPTIONS } = otherMethods({ GET, PATCH, DELETE });
