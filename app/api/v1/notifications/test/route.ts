import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { testNotificationBody, testNotificationResponse } from '@/lib/api/schemas/notifications';
import { sendTestNotification } from '@/lib/notify/service';

/** Sends a test to one target (saved or not) synchronously: 200 when it was accepted, 502 naming the failure. */
export const POST = apiRoute(
  {
    auth: 'session',
    permission: 'admin',
    body: testNotificationBody,
    response: testNotificationResponse,
    summary: 'Send a test notification to one email address or webhook',
    description:
      'Sends a one-off test to exactly one target, saved or not, synchronously, in the format of its kind (an http webhook is signed with the current secret). Nothing is queued or retried.',
    rateLimits: ['test-send'],
    errors: {
      422: 'not exactly one of email and webhook, or an invalid target',
      429: "the organization's test sends this minute are used up, or its sends to addresses it does not own (a webhook, an email address that is no member's) this hour",
      502: 'the delivery failed: the error names it (unreachable, connection refused, HTTP status, timeout, private address refused, mail provider refusal)',
    },
  },
  ({ db, principal, body }) => sendTestNotification(db, principal.tenantId, body),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
