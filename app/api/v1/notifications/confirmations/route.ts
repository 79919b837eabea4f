import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { addressStateResponse, resendConfirmationBody } from '@/lib/api/schemas/notifications';
import { resendConfirmation } from '@/lib/notify/service';

/** Sends another confirmation mail to an outside address that has not confirmed (a new link). */
export const POST = apiRoute(
  {
    auth: 'session',
    permission: 'admin',
    body: resendConfirmationBody,
    response: addressStateResponse,
    summary: 'Send another confirmation mail to an outside address',
    description:
      'An address outside the organization receives nothing until it confirms through the link of its confirmation mail (one goes out when a list or monitor first names it). This sends another, with a new link (the previous one stops working). Confirmation mails are limited: one per address every 10 minutes and 3 a day from an organization, 30 a day per organization, 5 a day to one address from all organizations.',
    errors: {
      404: 'no list or monitor of the organization names the address',
      409: "the address already confirmed, or it is a member's",
      429: 'a limit of confirmation mails was reached; Retry-After says when another may go',
      502: 'the mail provider refused the mail',
    },
  },
  ({ db, principal, body }) => resendConfirmation(db, { tenantId: principal.tenantId, email: body.email }),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
