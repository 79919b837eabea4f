import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import {
  notificationSettingsBody,
  notificationSettingsResponse,
  orgNotificationsResponse,
} from '@/lib/api/schemas/notifications';
import { getOrgNotifications, updateOrgSettings } from '@/lib/notify/service';

/** The organization's notification defaults, the sites that override them, and the webhook signing secret. */
export const GET = apiRoute(
  {
    auth: 'session',
    permission: 'admin',
    response: orgNotificationsResponse,
    summary: 'Notification defaults of the organization, sites with an override, the signing secret',
    description:
      'Every list of the org defaults (present even when empty), the ids of the sites that carry their own override (overriddenSiteIds), and the webhook signing secret with the expiry of the previous one after a rotation. Owners and admins only, from a dashboard session.',
  },
  ({ db, principal }) => getOrgNotifications(db, principal.tenantId),
);

/** Replaces the given lists of the org defaults; omitted fields keep their value. Applies to the next delivery. */
export const PATCH = apiRoute(
  {
    auth: 'session',
    permission: 'admin',
    body: notificationSettingsBody,
    response: notificationSettingsResponse,
    summary: 'Update the notification defaults (partial)',
    description:
      'Replaces the lists given and keeps the others; applies to the next delivery, with no restart. A user recipient must be a member of the organization; each list holds at most 10 recipients or 5 webhooks; webhook URLs pass the check every configured URL passes.',
    errors: { 422: 'an invalid recipient or webhook, a list too long, or a user who is not a member' },
  },
  async ({ db, principal, body }) => ({ settings: await updateOrgSettings(db, principal.tenantId, body) }),
);

export const { POST, PUT, DELETE, OPTIONS } = otherMethods({ GET, PATCH });
