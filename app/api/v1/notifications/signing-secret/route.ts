import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { signingSecretResponse } from '@/lib/api/schemas/notifications';
import { rotateSigningSecret } from '@/lib/notify/service';

/** Rotates the webhook signing secret; the previous one keeps signing alongside it for 24 hours. */
export const POST = apiRoute(
  {
    auth: 'session',
    permission: 'admin',
    response: signingSecretResponse,
    summary: 'Rotate the webhook signing secret (the previous one signs alongside for 24 h)',
    description:
      'A new whsec_ secret signs every http webhook from now on; for 24 hours each message also carries a signature by the previous secret (space-separated in webhook-signature), so receivers can switch without dropping a message.',
  },
  ({ db, principal }) => rotateSigningSecret(db, principal.tenantId),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
