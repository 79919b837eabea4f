import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { receiversResponse } from '@/lib/api/schemas/notifications';
import { listReceiverHealth } from '@/lib/notify/service';

/** The organization's webhook receivers with their circuit breaker and lane (lib/notify/breaker.ts). */
export const GET = apiRoute(
  {
    auth: 'session',
    permission: 'admin',
    response: receiversResponse,
    summary: "Webhook receivers' health: circuit breaker and delivery lane",
    description:
      'Every webhook the organization has been sent to, shown by its origin only: its circuit (closed; open after 3 failed attempts in a row, nothing sent until retryAt, the wait doubling from 30 s to 30 min; half-open once retryAt passes, when the next delivery closes it on success), whether it is on the slow lane, its last failure and how many deliveries wait for it. Owners and admins only, from a dashboard session.',
  },
  ({ db, principal }) => listReceiverHealth(db, principal.tenantId),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
