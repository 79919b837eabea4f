import type { Db } from '@/lib/db/client';
import type { MailAttachment } from '@/lib/email/templates';
import { MailDeliveryError, sendMail } from '@/lib/email/transport';
import { header, httpRequest, NetError } from '@/lib/net';
import { discordPayload } from './formats/discord';
import { emailMessage, type Unsubscribe } from './formats/email';
import { httpBody, signatureHeaders } from './formats/http';
import { slackPayload } from './formats/slack';
import { teamsPayload } from './formats/teams';
import type { Message } from './message';
import { isRetryableStatus, parseRetryAfter } from './retry';
import { elideUrlPath, type WebhookKind } from './webhook';

/**
 * Sends one message to one target, through the email transport or `lib/net` (which checks the
 * address it connects to, so a webhook URL whose name now resolves to a private address is refused
 * here even though it passed when it was saved). Never throws for a delivery failure: the outcome
 * says what happened, in words a site owner can act on.
 */

export type Target = { channel: 'email'; address: string } | { channel: WebhookKind; url: string };

export type SendOutcome =
  | { ok: true; status: number | null; detail: string }
  | {
      ok: false;
      status: number | null;
      detail: string;
      retryable: boolean;
      retryAfterMs: number | null;
      /** The receiver did not answer in time (its circuit and lane count it: lib/notify/breaker.ts). */
      timedOut?: boolean;
    };

export interface SendOptions {
  /** The same on every attempt of one (event, receiver): `webhook-id`, Resend's `Idempotency-Key`. */
  idempotencyKey: string;
  /** The organization's signing secrets (current first), for http webhooks. */
  signingSecrets: string[];
  /** When this attempt is signed. */
  now: number;
  /** Override `ALLOW_PRIVATE_NETWORK` (tests of the refusal). */
  allowPrivate?: boolean;
  /** A webhook's deadline; default WEBHOOK_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Files an email carries (the monthly report's PDF); webhooks carry none. */
  attachments?: MailAttachment[];
  /** An email's one-click unsubscribe (lib/notify/consent.ts): its link and List-Unsubscribe headers. */
  unsubscribe?: Unsubscribe;
  /** How the local outbox's log line names an email's recipient (lib/email/transport.ts). */
  logRecipient?: string;
  /** The organization's logo, shown at the top of an email (an inline attachment); webhooks show none. */
  logo?: { contentType: string; image: Uint8Array } | null;
}

/** How an email's HTML names the organization's logo it carries inline (`cid:`). */
const LOGO_CONTENT_ID = 'organization-logo';

/** A webhook gets 10 s to answer; a slower receiver counts as a failed attempt and is retried. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** What is kept of a refusing receiver's body for the outcome ("HTTP 404: no_service"). */
const ANSWER_SNIPPET = 200;

function payloadFor(channel: WebhookKind, message: Message): string {
  switch (channel) {
    case 'slack':
      return JSON.stringify(slackPayload(message));
    case 'discord':
      return JSON.stringify(discordPayload(message));
    case 'teams':
      return JSON.stringify(teamsPayload(message));
    case 'http':
      return httpBody(message);
  }
}

/** The first line of a refusing answer's body, if it reads as text. */
function snippet(body: Buffer): string {
  const text = body.toString('utf8').replace(/\s+/g, ' ').trim();
  // A binary answer (a NUL byte, or a replacement character from invalid UTF-8) says nothing readable.
  if (text === '' || text.includes('\0') || text.includes('\uFFFD')) return '';
  return text.length > ANSWER_SNIPPET ? `${text.slice(0, ANSWER_SNIPPET)}…` : text;
}

async function sendWebhook(
  target: { channel: WebhookKind; url: string },
  message: Message,
  options: SendOptions,
): Promise<SendOutcome> {
  const body = payloadFor(target.channel, message);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (target.channel === 'http') {
    Object.assign(
      headers,
      signatureHeaders(options.idempotencyKey, new Date(options.now), body, options.signingSecrets),
    );
  }
  try {
    const res = await httpRequest({
      url: target.url,
      method: 'POST',
      headers,
      body,
      timeoutMs: options.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
      maxBytes: 4096,
      ...(options.allowPrivate === undefined ? {} : { allowPrivate: options.allowPrivate }),
    });
    if (res.status >= 200 && res.status < 300) {
      return { ok: true, status: res.status, detail: `accepted (HTTP ${res.status})` };
    }
    const said = snippet(res.body);
    const redirect = res.status >= 300 && res.status < 400 ? ' (webhook redirects are not followed)' : '';
    return {
      ok: false,
      status: res.status,
      detail: `the webhook answered HTTP ${res.status}${redirect}${said ? `: ${said}` : ''}`,
      retryable: isRetryableStatus(res.status),
      retryAfterMs: parseRetryAfter(header(res.headers, 'retry-after'), options.now),
    };
  } catch (error) {
    if (!(error instanceof NetError)) throw error;
    return {
      ok: false,
      status: null,
      // Recorded, shown in the delivery log and the test's 502: never with the URL's credential.
      detail: error.detail.split(target.url).join(elideUrlPath(target.url)),
      // An address the service may not reach, or a URL that is not one, stays so on a retry.
      retryable: error.code !== 'blocked' && error.code !== 'invalid-url',
      retryAfterMs: null,
      timedOut: error.code === 'timeout',
    };
  }
}

async function sendEmail(
  db: Db,
  address: string,
  message: Message,
  options: SendOptions,
): Promise<SendOutcome> {
  try {
    const logo = options.logo ?? null;
    const mail = await emailMessage(
      address,
      message,
      options.unsubscribe,
      logo ? LOGO_CONTENT_ID : undefined,
    );
    const files = [
      ...(options.attachments ?? []),
      ...(logo
        ? [
            {
              filename: logo.contentType === 'image/png' ? 'logo.png' : 'logo.jpg',
              content: Buffer.from(logo.image),
              contentType: logo.contentType,
              contentId: LOGO_CONTENT_ID,
            },
          ]
        : []),
    ];
    if (files.length) mail.attachments = files;
    await sendMail(db, mail, {
      idempotencyKey: options.idempotencyKey,
      ...(options.logRecipient ? { logRecipient: options.logRecipient } : {}),
    });
    return { ok: true, status: null, detail: 'accepted by the mail transport' };
  } catch (error) {
    if (error instanceof MailDeliveryError) {
      return {
        ok: false,
        status: error.status,
        detail: error.message,
        retryable: error.retryable,
        retryAfterMs: null,
      };
    }
    if (error instanceof NetError) {
      return {
        ok: false,
        status: null,
        detail: `mail provider unreachable: ${error.detail}`,
        retryable: error.code !== 'blocked',
        retryAfterMs: null,
      };
    }
    throw error;
  }
}

export async function sendToTarget(
  db: Db,
  target: Target,
  message: Message,
  options: SendOptions,
): Promise<SendOutcome> {
  return target.channel === 'email'
    ? sendEmail(db, target.address, message, options)
    : sendWebhook(target, message, options);
}
