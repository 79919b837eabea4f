import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { deliveriesQuery, deliveriesResponse } from '@/lib/api/schemas/notifications';
import { listDeliveries } from '@/lib/notify/service';

/** The delivery log: each notification to each receiver, newest first, with its attempts and retry state. */
export const GET = apiRoute(
  {
    auth: 'session',
    permission: 'admin',
    query: deliveriesQuery,
    response: deliveriesResponse,
    summary: 'Notification deliveries, newest first (cursor pagination; filter by site, kind, state)',
    description:
      'One row per notification and receiver: the receiver (a member, an address, or a webhook shown by its origin only), the state, the attempts with each outcome, the next retry. Owners and admins only, from a dashboard session.',
  },
  ({ db, principal, query }) => listDeliveries(db, principal.tenantId, query),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
