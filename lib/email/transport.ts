import { config } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { mailMessages } from '@/lib/db/schema';
import { httpRequest } from '@/lib/net';
import { type MailMessage, redactedCopy } from './templates';

/** The provider refused or could not take the message. */
export class MailDeliveryError extends Error {
  constructor(
    message: string,
    /** The provider's HTTP status, when it answered. */
    readonly status: number | null = null,
    /** Whether sending the same message again may succeed (a 5xx or 429, or no answer at all). */
    readonly retryable = true,
  ) {
    super(message);
    this.name = 'MailDeliveryError';
  }
}

export interface SendMailOptions {
  /**
   * Sent to Resend as `Idempotency-Key`: a retry of the same message within 24 hours is answered
   * with the first send's id and not delivered again (https://resend.com/docs/dashboard/emails/idempotency-keys).
   */
  idempotencyKey?: string;
  /**
   * How the local outbox's log line names the recipient, in place of the address: a status page
   * subscriber's address is personal data that is never logged in full.
   */
  logRecipient?: string;
}

/** A header value on one line: a CR or LF in a subject would start a header of its own. */
const oneLine = (value: string) => value.replace(/[\r\n\u2028\u2029]+/g, ' ');

/** The message with its recipient, subject and extra headers each kept to one line. */
function headerSafe(message: MailMessage): MailMessage {
  return {
    ...message,
    to: oneLine(message.to),
    subject: oneLine(message.subject),
    ...(message.headers
      ? {
          headers: Object.fromEntries(
            Object.entries(message.headers).map(([name, value]) => [oneLine(name), oneLine(value)]),
          ),
        }
      : {}),
  };
}

/**
 * Sends one message: through Resend when RESEND_API_KEY is set, otherwise into the local outbox
 * (stored in the database and printed to the server log) so the product works with no provider.
 * Either way the stored copy has the message's secret (a sign-in code) redacted.
 */
export async function sendMail(
  db: Db,
  message: MailMessage,
  options: SendMailOptions = {},
): Promise<{ id: string }> {
  const c = config();
  const safe = headerSafe(message);
  const { attachments = [], ...copy } = redactedCopy(safe);
  // The stored copy names each attachment with its size after the text, never its bytes.
  const files = attachments.map(
    (a) => `${a.filename} (${a.contentType}, ${a.content.length} bytes${a.contentId ? ', inline' : ''})`,
  );
  const stored =
    files.length === 0 ? copy : { ...copy, text: `${copy.text}\n\nAttached: ${files.join(', ')}` };
  if (!c.RESEND_API_KEY) {
    const [row] = await db
      .insert(mailMessages)
      .values({
        ...stored,
        html: stored.html ?? null,
        headers: stored.headers ?? null,
        transport: 'outbox',
        created_at: Date.now(),
      })
      .returning({ id: mailMessages.id });
    // The log line is how a self-hoster without a mail provider reads a sign-in code: it keeps it.
    const attached = files.map((f) => ` attachment="${f}"`).join('');
    console.log(
      `mail to=${options.logRecipient ?? safe.to} subject="${safe.subject.replace(/"/g, "'")}"${attached}\n${message.text}`,
    );
    return { id: row!.id };
  }
  // Resend's documented REST call, made here rather than through its SDK: the SDK sends with the
  // global fetch, which would leave the network without lib/net's deadline, caps and address checks.
  const res = await httpRequest({
    url: `${c.RESEND_BASE_URL.replace(/\/$/, '')}/emails`,
    method: 'POST',
    headers: {
      authorization: `Bearer ${c.RESEND_API_KEY}`,
      'content-type': 'application/json',
      ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
    },
    body: JSON.stringify({
      from: c.MAIL_FROM,
      to: [safe.to],
      subject: safe.subject,
      text: message.text,
      html: message.html,
      ...(safe.headers ? { headers: safe.headers } : {}),
      // Resend's documented attachment: the file's name and its content in base64.
      ...(attachments.length > 0
        ? {
            attachments: attachments.map((a) => ({
              filename: a.filename,
              content: a.content.toString('base64'),
              content_type: a.contentType,
              // An inline image: the HTML shows it as cid:<content_id>.
              ...(a.contentId ? { content_id: a.contentId } : {}),
            })),
          }
        : {}),
    }),
    // A message with a PDF is larger and slower to take than a notification.
    timeoutMs: attachments.length > 0 ? 60_000 : 15_000,
    maxBytes: 64 * 1024,
  });
  const text = res.body.toString();
  if (res.status < 200 || res.status >= 300) {
    let reason = `status ${res.status}`;
    try {
      const parsed = JSON.parse(text) as { message?: string };
      if (parsed.message) reason = `${reason}: ${parsed.message}`;
    } catch {}
    const retryable = res.status >= 500 || res.status === 429;
    throw new MailDeliveryError(`mail provider refused the message (${reason})`, res.status, retryable);
  }
  const id = (JSON.parse(text) as { id?: string }).id ?? null;
  await db.insert(mailMessages).values({
    ...stored,
    html: stored.html ?? null,
    headers: stored.headers ?? null,
    transport: 'resend',
    provider_id: id,
    created_at: Date.now(),
  });
  return { id: id ?? '' };
}
