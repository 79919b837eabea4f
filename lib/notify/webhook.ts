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
