import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { addressStateResponse, resubscribeBody } from '@/lib/api/schemas/notifications';
import { resubscribe } from '@/lib/notify/service';

/** Takes an address's unsubscribe back; an outside address is asked to confirm again first. */
export const POST = apiRoute(
  {
    auth: 'session',
    permission: 'admin',
    body: resubscribeBody,
    response: addressStateResponse,
    summary: 'Subscribe an address to a topic again after it unsubscribed',
    description:
      "Removes an unsubscribe the address made with the one-click link of a mail. A member's address receives the topic again at once; an address outside the organization becomes pending and is sent a new confirmation mail (within the confirmation limits): nothing reaches it until it confirms, so an organization cannot undo a stranger's unsubscribe.",
    errors: { 404: 'the address is not unsubscribed from that topic in this organization' },
  },
  ({ db, principal, body }) =>
    resubscribe(db, { tenantId: principal.tenantId, email: body.email }, body.topic),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
