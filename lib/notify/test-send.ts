import { randomUUID } from 'node:crypto';
import { config } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { ConflictError, DeliveryError, InvalidError } from '@/lib/errors';
import { ownsAddress } from '@/lib/orgs/addresses';
import { organizationName } from '@/lib/orgs/name';
import { organizationLogoFile } from '@/lib/orgs/organization';
import { takeOutsideSend } from '@/lib/ratelimit/sends';
import { mailConsent } from './consent';
import type { Unsubscribe } from './formats/email';
import { TOPIC_NAMES } from './kinds';
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
 * naming what happened ("webhook delivery failed: the webhook answered HTTP 404: no_service"). A
 * send to an address the organization does not own counts against its outside-send limit first.
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
  let unsubscribe: Unsubscribe | undefined;
  if (target.channel === 'email') {
    // A test is mail like any other: an outside address must have confirmed (saving it in a list
    // sends the confirmation), and one that unsubscribed from everything gets no tests either.
    const consent = await mailConsent(db, { tenantId, email: target.address }, 'test', now);
    if ('refused' in consent) {
      const why = consent.refused.replace(/^not sent: /, '');
      throw new ConflictError(
        consent.reason === 'unconfirmed'
          ? `${why}: save it in a list of the notification settings to send it a confirmation, and send the test once it confirmed`
          : `${why}: an owner or admin can subscribe it again in the notification settings`,
      );
    }
    unsubscribe = { url: consent.unsubscribeUrl, topicName: TOPIC_NAMES[consent.topic] };
  }
  // A member's address is the organization's own; anything else (every webhook, a confirmed outside
  // address) counts against the organization's outside-send limit.
  if (target.channel !== 'email' || !(await ownsAddress(db, { tenantId, address: target.address }))) {
    await takeOutsideSend(db, tenantId, now);
  }
  const secrets =
    target.channel === 'http' ? activeSecrets(await signingSecrets(db, tenantId, now), now) : [];
  const outcome = await sendToTarget(db, target, message, {
    idempotencyKey: `msg_test_${eventId.replace(/-/g, '')}`,
    signingSecrets: secrets,
    ...(unsubscribe ? { unsubscribe } : {}),
    ...(target.channel === 'email' ? { logo: await organizationLogoFile(db, tenantId) } : {}),
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
