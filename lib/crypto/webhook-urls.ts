import { createHash } from 'node:crypto';
import type { Config } from '@/lib/config';
import { seal, unseal } from './secrets';

/**
 * Webhook URLs at rest. A Slack, Discord or Teams webhook URL carries its credential in the path
 * (anyone holding it can post to the channel), so it is stored sealed (AES-256-GCM,
 * `lib/crypto/secrets.ts`, under `ENCRYPTION_KEY`) wherever it is kept: notification settings, a
 * monitor's `alert_webhooks`, an uptime event's payload, a delivery's target. Sealed under the
 * organization's context, so a value copied into another organization's row does not open.
 *
 * Stored shape of a webhook: `{kind, sealedUrl}` instead of `{kind, url}`. Where a webhook must be
 * told apart from another without being opened (a delivery's receiver key), `webhookUrlDigest`
 * stands in for the URL.
 */

export interface PlainWebhook<K extends string = string> {
  kind: K;
  url: string;
}
export interface SealedWebhook<K extends string = string> {
  kind: K;
  sealedUrl: string;
}

const context = (tenantId: string) => `webhook-url:${tenantId}`;

export function sealWebhookUrl(url: string, tenantId: string, c?: Config): string {
  return seal(url, context(tenantId), c);
}

/** The URL, or null when it was sealed under another key or organization. */
export function openWebhookUrl(sealedUrl: string, tenantId: string, c?: Config): string | null {
  return unseal(sealedUrl, context(tenantId), c);
}

export function sealWebhooks<K extends string>(
  hooks: readonly PlainWebhook<K>[],
  tenantId: string,
  c?: Config,
): SealedWebhook<K>[] {
  return hooks.map((h) => ({ kind: h.kind, sealedUrl: sealWebhookUrl(h.url, tenantId, c) }));
}

export function isSealedWebhook(value: unknown): value is SealedWebhook {
  if (typeof value !== 'object' || value === null) return false;
  const { kind, sealedUrl } = value as Record<string, unknown>;
  return typeof kind === 'string' && typeof sealedUrl === 'string';
}

/**
 * The stored webhooks opened, in order; entries that are not sealed webhooks, or no longer open (the
 * encryption key changed), are left out and counted in `unreadable`, so the caller can say so
 * without naming a URL.
 */
export function openWebhooks(
  stored: unknown,
  tenantId: string,
  c?: Config,
): { hooks: PlainWebhook[]; unreadable: number } {
  const hooks: PlainWebhook[] = [];
  let unreadable = 0;
  for (const entry of Array.isArray(stored) ? stored : []) {
    const url = isSealedWebhook(entry) ? openWebhookUrl(entry.sealedUrl, tenantId, c) : null;
    if (url === null || !isSealedWebhook(entry)) unreadable++;
    else hooks.push({ kind: entry.kind, url });
  }
  return { hooks, unreadable };
}

/** A stable stand-in for a webhook URL (SHA-256, base64url): tells two apart without storing either. */
export function webhookUrlDigest(url: string): string {
  return createHash('sha256').update(url).digest('base64url');
}

/**
 * A stored list with any webhook still in the clear (`{kind, url}`, as rows were written before
 * URLs were sealed) sealed; other entries as they were. `changed` false: nothing was in the clear.
 */
export function sealPlainWebhooks(
  stored: unknown,
  tenantId: string,
  c?: Config,
): { value: unknown; changed: boolean } {
  if (!Array.isArray(stored)) return { value: stored, changed: false };
  let changed = false;
  const value = stored.map((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return entry;
    const { kind, url } = entry as Record<string, unknown>;
    if (typeof kind !== 'string' || typeof url !== 'string') return entry;
    changed = true;
    return { kind, sealedUrl: sealWebhookUrl(url, tenantId, c) };
  });
  return { value, changed };
}
