import { randomUUID } from 'node:crypto';
import { config } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { DeliveryError, InvalidError } from '@/lib/errors';
import { organizationName } from '@/lib/orgs/name';
import { buildMessage } from './message';
import { sendToTarget, type Target } from './send';
import { activeSecrets, signingSecrets } from './signing';
import type { NotificationWebhook } from './webhook';

/** POST /v1/notifications/test: exactly one target, saved or not (the request schema checks it). */
export interface TestTarget {
  email?: string;
  webhook?: NotificationWebhook;
}

/**
 * Sends a one-off test message to one target synchronously, through the same formats, signing and
 * `lib/net` checks as real deliveries (nothing is queued or retried). Resolves when the receiver
 * accepted it; a refusal, an unreachable host, a timeout or a private address is a DeliveryError
 * naming what happened ("webhook delivery failed: the webhook answered HTTP 404: no_service").
 */
export async function sendTestNotification(
  db: Db,
  tenantId: string,
  input: TestTarget,
  options: { now?: number; allowPrivate?: boolean; timeoutMs?: number } = {},
): Promise<{ ok: true }> {
  const now = options.now ?? Date.now();
  const eventId = randomUUID();
  const message = buildMessage(
    'test',
    {},
    {
      eventId,
      occurredAt: now,
      appUrl: config().appUrl,
      organizationName: await organizationName(db, tenantId),
      site: null,
    },
  );
  if ((input.email === undefined) === (input.webhook === undefined)) {
    throw new InvalidError('body', 'must have exactly one of email and webhook');
  }
  const target: Target = input.webhook
    ? { channel: input.webhook.kind, url: input.webhook.url }
    : { channel: 'email', address: input.email as string };
  const secrets =
    target.channel === 'http' ? activeSecrets(await signingSecrets(db, tenantId, now), now) : [];
  const outcome = await sendToTarget(db, target, message, {
    idempotencyKey: `msg_test_${eventId.replace(/-/g, '')}`,
    signingSecrets: secrets,
    now,
    ...(options.allowPrivate === undefined ? {} : { allowPrivate: options.allowPrivate }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  if (!outcome.ok) {
    throw new DeliveryError(
      `${target.channel === 'email' ? 'email' : `${target.channel} webhook`} delivery failed: ${outcome.detail}`,
    );
  }
  return { ok: true };
}
