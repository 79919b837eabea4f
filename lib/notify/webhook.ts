/**
 * Spec: Notification webhook. `slack`, `discord` and `teams` get a message formatted for the chat
 * app; `http` a structured JSON POST. Shared by notification settings and uptime monitors'
 * `alertWebhooks`. Self-contained, since the dashboard's forms import the kinds: how webhooks are
 * stored (sealed) is lib/notify/stored-webhooks.ts.
 */
export const WEBHOOK_KINDS = ['slack', 'discord', 'teams', 'http'] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

export interface NotificationWebhook {
  kind: WebhookKind;
  url: string;
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
