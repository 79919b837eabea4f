import { z } from 'zod';
import { WEBHOOK_KINDS } from './webhook';

/*
 * Who one event reached, as a page that says who was alerted shows it (the monitor page's "Alerted
 * Ana Lee by email"). The schema is the one source: lib/notify/log.ts answers it, and the API's
 * GET .../live embeds it (lib/api/schemas/uptime.ts), so the type is inferred here rather than
 * written out beside it. It lives in the domain because the domain may not import the API layer.
 */

export const DELIVERY_STATES = ['pending', 'sending', 'sent', 'failed', 'cancelled'] as const;

export const alertedReceiverSchema = z
  .object({
    type: z.enum(['member', 'email', 'webhook']).describe('a member, a typed address, or a webhook'),
    name: z
      .string()
      .describe("the member's name (their address when they have none), the address, or the webhook's host"),
    channel: z.enum(['email', ...WEBHOOK_KINDS]).describe('how it was sent'),
    state: z.enum(DELIVERY_STATES).describe("the delivery's state"),
  })
  .strict();

export const eventAlertsSchema = z
  .object({
    status: z
      .enum(['queued', 'resolved', 'failed', 'missing'])
      .describe(
        "queued: the alert's receivers are not resolved yet; resolved: receivers are its deliveries (empty when nobody receives uptime alerts); failed: it could not be resolved; missing: no alert was recorded (older than the notification log's retention)",
      ),
    receivers: z
      .array(alertedReceiverSchema)
      .describe(
        'whom the alert went to, from its deliveries: people first, each in the order they were queued',
      ),
  })
  .strict();

/** One receiver an event was resolved into. */
export type AlertedReceiver = z.infer<typeof alertedReceiverSchema>;
/** `queued` (receivers not resolved yet), `resolved`, `failed`, or `missing` (no such event). */
export type EventAlerts = z.infer<typeof eventAlertsSchema>;
