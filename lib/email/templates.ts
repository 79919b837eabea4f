/** A file sent with a message (the monthly report's PDF). */
export type MailAttachment = { filename: string; content: Buffer; contentType: string };

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
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
