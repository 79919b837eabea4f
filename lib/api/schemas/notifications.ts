import { z } from 'zod';
import { WEBHOOK_KINDS } from '@/lib/notify/webhook';
import { targetUrl } from './target-url';

/**
 * Request-side pieces of notification targets (spec: Notification webhook, recipients), shared by
 * the notification settings and the uptime monitors' extra alert targets.
 */

/** `{kind, url}`; the URL passes the same reachability check as every configured URL. */
export const notificationWebhook = z.strictObject({
  kind: z.enum(WEBHOOK_KINDS, { error: `must be one of ${WEBHOOK_KINDS.join(', ')}` }),
  url: targetUrl,
});

/** An external address, trimmed; compared case-insensitively when lists are de-duplicated. */
export const emailAddress = z
  .string({ error: 'must be an email address' })
  .trim()
  .pipe(z.email('must be an email address'));

/** At most `max` addresses, de-duplicated (case-insensitively, first spelling kept) in order. */
export function emailList(max: number) {
  return z
    .array(emailAddress, { error: 'must be an array of email addresses' })
    .max(max, `must have at most ${max} addresses`)
    .transform((emails) => {
      const seen = new Set<string>();
      return emails.filter((email) => {
        const key = email.toLowerCase();
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    });
}

/** At most `max` webhooks, de-duplicated on (kind, url) in order. */
export function webhookList(max: number) {
  return z
    .array(notificationWebhook, { error: 'must be an array of webhooks' })
    .max(max, `must have at most ${max} webhooks`)
    .transform((hooks) =>
      hooks.filter((h, i) => hooks.findIndex((o) => o.kind === h.kind && o.url === h.url) === i),
    );
}
