import { Webhook } from 'standardwebhooks';
import type { Message } from '../message';

/**
 * The generic http webhook: a JSON POST `{type, id, timestamp, data}` signed as the Standard Webhooks
 * specification describes (https://www.standardwebhooks.com), with the `standardwebhooks` package:
 *
 * - `webhook-id`: the message id, one per (event, receiver) and the same on every retry, so a
 *   receiver that has seen it can drop the repeat;
 * - `webhook-timestamp`: seconds since the epoch when this attempt was signed (receivers reject
 *   timestamps more than 5 minutes away, so each retry is signed afresh);
 * - `webhook-signature`: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` under the
 *   organization's secret, followed by a second one, space-separated, under the previous secret for
 *   24 hours after a rotation.
 *
 * Body: `type` (e.g. `uptime.down`), `id` (the event's id: the same for every receiver of the event),
 * `timestamp` (when the event happened) and `data` (the event's fields, the organization, the site
 * and `dashboardUrl`). Every time in the body is integer epoch milliseconds, the API's one time
 * format (`timestamp`, `downAt`, `recoveredAt`, ...); only the signature header's
 * `webhook-timestamp` is in seconds, as Standard Webhooks defines it.
 */
export function httpBody(message: Message): string {
  return JSON.stringify({
    type: message.type,
    id: message.eventId,
    timestamp: message.occurredAt,
    data: message.data,
  });
}

/** The three signature headers for `body`, signed at `at` with each secret (current first). */
export function signatureHeaders(
  messageId: string,
  at: Date,
  body: string,
  secrets: string[],
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(' '),
  };
}
