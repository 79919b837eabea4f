import { config } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { mailMessages } from '@/lib/db/schema';
import { httpRequest } from '@/lib/net';
import { type MailMessage, redactedCopy } from './templates';

export class MailDeliveryError extends Error {}

/**
 * Sends one message: through Resend when RESEND_API_KEY is set, otherwise into the local outbox
 * (stored in the database and printed to the server log) so the product works with no provider.
 * Either way the stored copy has the message's secret (a sign-in code) redacted.
 */
export async function sendMail(db: Db, message: MailMessage): Promise<{ id: string }> {
  const c = config();
  const stored = redactedCopy(message);
  if (!c.RESEND_API_KEY) {
    const [row] = await db
      .insert(mailMessages)
      .values({ ...stored, html: stored.html ?? null, transport: 'outbox', created_at: Date.now() })
      .returning({ id: mailMessages.id });
    // The log line is how a self-hoster without a mail provider reads a sign-in code: it keeps it.
    console.log(`mail to=${message.to} subject="${message.subject.replace(/"/g, "'")}"\n${message.text}`);
    return { id: row!.id };
  }
  // Resend's documented REST call, made here rather than through its SDK: the SDK sends with the
  // global fetch, which would leave the network without lib/net's deadline, caps and address checks.
  const res = await httpRequest({
    url: `${c.RESEND_BASE_URL.replace(/\/$/, '')}/emails`,
    method: 'POST',
    headers: { authorization: `Bearer ${c.RESEND_API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      from: c.MAIL_FROM,
      to: [message.to],
      subject: message.subject,
      text: message.text,
      html: message.html,
    }),
    timeoutMs: 15_000,
    maxBytes: 64 * 1024,
  });
  const text = res.body.toString();
  if (res.status < 200 || res.status >= 300) {
    let reason = `status ${res.status}`;
    try {
      const parsed = JSON.parse(text) as { message?: string };
      if (parsed.message) reason = `${reason}: ${parsed.message}`;
    } catch {}
    throw new MailDeliveryError(`mail provider refused the message (${reason})`);
  }
  const id = (JSON.parse(text) as { id?: string }).id ?? null;
  await db.insert(mailMessages).values({
    ...stored,
    html: stored.html ?? null,
    transport: 'resend',
    provider_id: id,
    created_at: Date.now(),
  });
  return { id: id ?? '' };
}
