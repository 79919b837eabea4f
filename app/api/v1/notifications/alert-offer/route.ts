import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import {
  alertOfferAnswerBody,
  alertOfferResponse,
  notificationSettingsResponse,
} from '@/lib/api/schemas/notifications';
import { sessionOwner } from '@/lib/auth/service';
import { alertOfferFor, answerAlertOffer } from '@/lib/notify/service';

/** The signed-in owner's or admin's open offer to receive alerts (made when they became one). */
export const GET = apiRoute(
  {
    auth: 'session',
    permission: 'admin',
    response: alertOfferResponse,
    summary: 'Your open offer to receive alerts, as a new owner or admin',
    description:
      "A member who accepts an invitation as an owner or admin, or is made one, is offered to receive the organization's uptime and performance alerts; nobody is added without answering. The offer stays open until answered (or until they receive both kinds anyway). Owners and admins only, from a dashboard session.",
  },
  async ({ db, principal }) => ({
    alertOffer: await alertOfferFor(db, {
      tenantId: principal.tenantId,
      userId: sessionOwner(principal).userId,
    }),
  }),
);

/** "Alert me" or "Not now": answers the offer. */
export const POST = apiRoute(
  {
    auth: 'session',
    permission: 'admin',
    body: alertOfferAnswerBody,
    response: notificationSettingsResponse,
    summary: 'Answer the offer to receive alerts ("Alert me" or dismiss)',
    description:
      "accept true adds the signed-in member to the organization's uptimeRecipients and perfAlertRecipients (where they are not already; with no offer open too) and closes the offer; false closes it and changes no list. Answers the org defaults as they are then.",
    errors: { 409: 'a list to add them to already holds the most recipients it may' },
  },
  async ({ db, principal, body }) =>
    answerAlertOffer(
      db,
      { tenantId: principal.tenantId, userId: sessionOwner(principal).userId },
      body.accept,
    ),
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });
