import { openWebhooks, type SealedWebhook, sealWebhooks } from '@/lib/crypto/webhook-urls';

/**
 * Spec: Notification webhook. `slack`, `discord` and `teams` get a message formatted for the chat
 * app; `http` a structured JSON POST. Shared by notification settings and uptime monitors'
 * `alertWebhooks`.
 */
export const WEBHOOK_KINDS = ['slack', 'discord', 'teams', 'http'] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

export interface NotificationWebhook {
  kind: WebhookKind;
  url: string;
}

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

/**
 * A webhook URL as shown to someone who may not use it: `https://hooks.slack.com/services/T0/B0/xyz`
 * -> `https://hooks.slack.com/…` (the path and query of a chat webhook are its credential).
 */
export function elideUrlPath(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname === '/' && !parsed.search ? `${parsed.origin}/` : `${parsed.origin}/…`;
  } catch {
    return '…';
  }
}

/** Whether a URL is one `elideUrlPath` made (sent back after a read that hid its path). */
export function isElidedUrl(url: string): boolean {
  try {
    return new URL(url).pathname === `/${encodeURIComponent('…')}`;
  } catch {
    return false;
  }
}
