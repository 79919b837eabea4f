import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { confirmationResponse, mailTokenParams } from '@/lib/api/schemas/notifications';
import { confirmAddress } from '@/lib/notify/service';

/**
 * The button of the confirmation page (/confirm/{token}, the link mailed to an outside address). A
 * POST, never a GET: mail scanners open links, and opening one must not confirm anything.
 */
export const POST = apiRoute(
  {
    auth: 'none',
    params: mailTokenParams,
    response: confirmationResponse,
    summary: 'Confirm an address: it agrees to receive the organization notifications',
    description:
      'Public: the token of the confirmation link is the credential (32 random bytes; only its SHA-256 is stored). From then on the address receives the notifications the organization sends it. The link is valid 72 hours; confirming twice answers the same.',
    errors: {
      404: 'no such link (mistyped, or replaced by a newer confirmation mail)',
      409: 'the link expired: the organization can send a new one',
    },
  },
  ({ db, params }) => confirmAddress(db, params.token),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
