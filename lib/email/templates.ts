/**
 * A file sent with a message (the monthly report's PDF), or an image the HTML shows inline as
 * `cid:<contentId>` (the organization's logo).
 */
export type MailAttachment = { filename: string; content: Buffer; contentType: string; contentId?: string };

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
  /**
   * Headers beyond the provider's own: a notification's List-Unsubscribe and List-Unsubscribe-Post
   * (RFC 8058). Sent through Resend's `headers` and kept with the stored copy.
   */
  headers?: Record<string, string>;
  /**
   * A value only the recipient may see (a sign-in code): it is sent, and printed on the local outbox's
   * log line, but the stored copy of the message carries REDACTED in its place.
   */
  secret?: string;
};

/** What the stored copy of a message shows where its secret was. */
export const REDACTED = '[redacted]';

/** Every sign-in code mail's subject ends so; the per-address code cap counts mails by it. */
export const SIGN_IN_CODE_SUBJECT_END = ' is your Sitewatch sign-in code';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function layout(title: string, bodyHtml: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body style="font-family:system-ui,sans-serif;color:#111;max-width:560px;margin:auto;padding:24px">${bodyHtml}<p style="color:#555;font-size:13px">Sitewatch</p></body></html>`;
}

/** The code leads the subject so it shows in a notification without opening the message. */
export function signInCodeMessage(to: string, code: string): MailMessage {
  const subject = `${code}${SIGN_IN_CODE_SUBJECT_END}`;
  const text = `Your Sitewatch sign-in code is ${code}.\n\nIt expires in 5 minutes. If you did not ask for it, ignore this message.`;
  const html = layout(
    subject,
    `<p>Your Sitewatch sign-in code is</p><p style="font-size:28px;font-weight:700;letter-spacing:4px">${code}</p><p>It expires in 5 minutes. If you did not ask for it, ignore this message.</p>`,
  );
  return { to, subject, text, html, secret: code };
}

/** The copy of a message that may be stored: its secret, if any, replaced by REDACTED everywhere. */
export function redactedCopy(message: MailMessage): Omit<MailMessage, 'secret'> {
  const { secret, ...rest } = message;
  if (!secret) return rest;
  const redact = (s: string) => s.replaceAll(secret, REDACTED);
  return {
    ...rest,
    subject: redact(rest.subject),
    text: redact(rest.text),
    ...(rest.html === undefined ? {} : { html: redact(rest.html) }),
  };
}

/**
 * The one mail an address outside an organization gets before it confirmed. Its subject asks; its
 * link opens a page that confirms with a button (a GET confirms nothing: mail scanners open links).
 * The organization's name is the caller's (already made mail-safe); it is escaped here.
 */
export function addressConfirmationMessage(input: {
  to: string;
  organizationName: string;
  confirmUrl: string;
  expiresAt: number;
}): MailMessage {
  const subject = `Please confirm: notifications from ${input.organizationName} on Sitewatch`;
  const expires = `${new Date(input.expiresAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const what = `An owner or admin of the Sitewatch organization "${input.organizationName}" added this address to receive its website monitoring notifications (alerts and reports).`;
  const nothing = 'Nothing is sent to this address unless you confirm.';
  const ignore = `If you do not know them or do not want these mails, ignore this message: the link expires on ${expires}.`;
  const text = `${what}\n\n${nothing} To confirm, open this page and press Confirm:\n${input.confirmUrl}\n\n${ignore}`;
  const html = layout(
    subject,
    `<p>${escapeHtml(what)}</p><p>${escapeHtml(nothing)}</p><p><a href="${escapeHtml(input.confirmUrl)}">Review and confirm</a></p><p style="color:#555;font-size:13px">${escapeHtml(ignore)}</p>`,
  );
  return { to: input.to, subject, text, html };
}

/**
 * The mail a visitor gets after subscribing to a status page (lib/statuspages/subscribers.ts): its
 * link opens a page on the status page's own address that confirms with a button. The page's title
 * is the caller's (already made mail-safe); it is escaped here.
 */
export function subscriptionConfirmationMessage(input: {
  to: string;
  pageTitle: string;
  confirmUrl: string;
  expiresAt: number;
}): MailMessage {
  const subject = `Please confirm: updates from the status page ${input.pageTitle}`;
  const expires = `${new Date(input.expiresAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const what = `Someone, probably you, asked the status page "${input.pageTitle}" to mail this address when it reports an incident or scheduled maintenance.`;
  const nothing = 'Nothing is sent to this address unless you confirm. Every mail has a link to unsubscribe.';
  const ignore = `If you did not ask for this, ignore this message: the link expires on ${expires}.`;
  const text = `${what}\n\n${nothing} To confirm, open this page and press Confirm:\n${input.confirmUrl}\n\n${ignore}`;
  const html = layout(
    subject,
    `<p>${escapeHtml(what)}</p><p>${escapeHtml(nothing)}</p><p><a href="${escapeHtml(input.confirmUrl)}">Review and confirm</a></p><p style="color:#555;font-size:13px">${escapeHtml(ignore)}</p>`,
  );
  return { to: input.to, subject, text, html };
}

/**
 * What an address already subscribed to a status page gets when its form is submitted again: the
 * same kind of mail a new address gets (so the form's answer and its timing say nothing about who is
 * subscribed), saying nothing changed, with the link to unsubscribe.
 */
export function alreadySubscribedMessage(input: {
  to: string;
  pageTitle: string;
  pageUrl: string;
  unsubscribeUrl: string;
}): MailMessage {
  const subject = `You are subscribed: updates from the status page ${input.pageTitle}`;
  const what = `Someone, probably you, asked the status page "${input.pageTitle}" to mail this address. It already does: nothing changed.`;
  const stop = 'To stop these mails, unsubscribe:';
  const text = `${what}\n\nThe status page: ${input.pageUrl}\n\n${stop}\n${input.unsubscribeUrl}`;
  const html = layout(
    subject,
    `<p>${escapeHtml(what)}</p><p><a href="${escapeHtml(input.pageUrl)}">Open the status page</a></p><p style="color:#555;font-size:13px">${escapeHtml(stop)} <a href="${escapeHtml(input.unsubscribeUrl)}">Unsubscribe</a></p>`,
  );
  return {
    to: input.to,
    subject,
    text,
    html,
    headers: {
      'List-Unsubscribe': `<${input.unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

export function invitationMessage(input: {
  to: string;
  organizationName: string;
  inviterEmail: string;
  role: string;
  acceptUrl: string;
}): MailMessage {
  const subject = `${input.inviterEmail} invited you to ${input.organizationName} on Sitewatch`;
  const text = `${input.inviterEmail} invited you to join ${input.organizationName} on Sitewatch as ${input.role}.\n\nSign in and accept: ${input.acceptUrl}\n\nThe invitation expires in 48 hours.`;
  const html = layout(
    subject,
    `<p>${escapeHtml(input.inviterEmail)} invited you to join <strong>${escapeHtml(input.organizationName)}</strong> on Sitewatch as ${escapeHtml(input.role)}.</p><p><a href="${escapeHtml(input.acceptUrl)}">Sign in and accept the invitation</a></p><p>The invitation expires in 48 hours.</p>`,
  );
  return { to: input.to, subject, text, html };
}
