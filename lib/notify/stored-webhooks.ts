import { openWebhooks, type SealedWebhook, sealWebhooks } from '@/lib/crypto/webhook-urls';
import { type NotificationWebhook, WEBHOOK_KINDS, type WebhookKind } from './webhook';

/** How a webhook is kept in the database: its URL sealed (lib/crypto/webhook-urls.ts). */
export type StoredWebhook = SealedWebhook<WebhookKind>;

export function storeWebhooks(hooks: readonly NotificationWebhook[], tenantId: string): StoredWebhook[] {
  return sealWebhooks(hooks, tenantId);
}

const isKind = (kind: string): kind is WebhookKind => (WEBHOOK_KINDS as readonly string[]).includes(kind);

/**
 * Stored webhooks opened. One that no longer opens (the encryption key changed) is left out with a
 * warning naming the organization only, never a URL: it could not be delivered to anyway.
 */
export function readStoredWebhooks(stored: unknown, tenantId: string): NotificationWebhook[] {
  const { hooks, unreadable } = openWebhooks(stored, tenantId);
  if (unreadable > 0) {
    console.warn(
      `notifications: ${unreadable} stored webhook URL(s) of organization ${tenantId} could not be opened (was ENCRYPTION_KEY changed?) and are left out`,
    );
  }
  return hooks.flatMap((h) => (isKind(h.kind) ? [{ kind: h.kind, url: h.url }] : []));
}
