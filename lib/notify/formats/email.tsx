import {
  Body,
  Button,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Img,
  Link,
  Preview,
  plainTextSelectors,
  render,
  Section,
  Text,
} from '@react-email/components';
import type { MailMessage } from '@/lib/email/templates';
import { type Message, TONE_WORDS } from '../message';

/**
 * A notification as an email: HTML built with React Email's components (table layouts and inline
 * styles that mail clients render) and the plain-text part React Email derives from the same tree,
 * both rendered on the server. Every message links to its page in the dashboard.
 */

const TONE_COLOURS: Record<Message['tone'], string> = {
  alert: '#b42318',
  warning: '#9a6700',
  success: '#1a7f37',
  info: '#1f2937',
};

const text = { fontSize: '15px', lineHeight: '22px', color: '#1f2937', margin: '0 0 12px' };

/** The one-click unsubscribe a notification mail carries (lib/notify/consent.ts). */
export interface Unsubscribe {
  url: string;
  /** What it stops, in words: "uptime alerts", "all notifications". */
  topicName: string;
}

export function NotificationEmail({
  message,
  unsubscribe,
  logoCid,
}: {
  message: Message;
  unsubscribe?: Unsubscribe;
  /** The organization's logo, attached inline under this content id; none without one. */
  logoCid?: string;
}) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{message.summary}</Preview>
      <Body
        style={{ backgroundColor: '#f4f4f5', fontFamily: 'system-ui, -apple-system, Segoe UI, sans-serif' }}
      >
        <Container
          style={{ backgroundColor: '#ffffff', maxWidth: '560px', margin: '24px auto', padding: '24px' }}
        >
          {logoCid ? (
            <Img
              src={`cid:${logoCid}`}
              alt={message.organizationName}
              height="32"
              style={{ maxHeight: '32px', maxWidth: '160px', width: 'auto', margin: '0 0 12px' }}
            />
          ) : null}
          <Text style={{ ...text, fontSize: '13px', fontWeight: 700, color: TONE_COLOURS[message.tone] }}>
            {TONE_WORDS[message.tone]} · {message.organizationName}
          </Text>
          <Heading
            as="h1"
            style={{ fontSize: '20px', lineHeight: '28px', margin: '0 0 12px', color: '#111827' }}
          >
            {message.title}
          </Heading>
          <Text style={text}>{message.summary}</Text>
          {message.facts.length > 0 ? (
            <Section style={{ margin: '8px 0 16px' }}>
              {message.facts.map((fact) => (
                <Text key={fact.label} style={{ ...text, margin: '0 0 6px' }}>
                  <span style={{ color: '#4b5563' }}>{fact.label}: </span>
                  <strong>{fact.value}</strong>
                </Text>
              ))}
            </Section>
          ) : null}
          <Button
            href={message.link.url}
            style={{
              backgroundColor: '#1d4ed8',
              color: '#ffffff',
              padding: '10px 16px',
              borderRadius: '6px',
              fontSize: '15px',
              fontWeight: 600,
            }}
          >
            {message.link.label}
          </Button>
          <Text style={{ ...text, fontSize: '13px', marginTop: '12px' }}>
            Or open <Link href={message.link.url}>{message.link.url}</Link>
          </Text>
          <Hr style={{ borderColor: '#e5e7eb', margin: '20px 0' }} />
          <Text style={{ ...text, fontSize: '12px', color: '#6b7280' }}>
            {message.footer ??
              `Sent by Sitewatch for ${message.organizationName}. Owners and admins choose who receives these messages in the notification settings.`}
          </Text>
          {unsubscribe ? (
            <Text style={{ ...text, fontSize: '12px', color: '#6b7280' }}>
              Do not want these? <Link href={unsubscribe.url}>Unsubscribe from {unsubscribe.topicName}</Link>{' '}
              of {message.organizationName}.
            </Text>
          ) : null}
        </Container>
      </Body>
    </Html>
  );
}

/** The plain-text part keeps the heading as written (html-to-text upper-cases headings by default). */
const TEXT_SELECTORS = [
  ...plainTextSelectors,
  { selector: 'h1', options: { uppercase: false } },
  // The logo is the organization's name as a picture: the text already names it.
  { selector: 'img', format: 'skip' },
];

/**
 * The mail for one receiver: subject, HTML and plain text, and with an unsubscribe link, the RFC 8058
 * headers: `List-Unsubscribe` (the HTTPS URL a mail client POSTs to) and `List-Unsubscribe-Post:
 * List-Unsubscribe=One-Click`, which tells it the POST alone unsubscribes, with no page to visit.
 */
export async function emailMessage(
  to: string,
  message: Message,
  unsubscribe?: Unsubscribe,
  logoCid?: string,
): Promise<MailMessage> {
  const element = (
    <NotificationEmail
      message={message}
      {...(unsubscribe ? { unsubscribe } : {})}
      {...(logoCid ? { logoCid } : {})}
    />
  );
  const [html, text] = await Promise.all([
    render(element),
    render(element, { plainText: true, htmlToTextOptions: { selectors: TEXT_SELECTORS } }),
  ]);
  return {
    to,
    subject: message.title,
    html,
    text,
    ...(unsubscribe
      ? {
          headers: {
            'List-Unsubscribe': `<${unsubscribe.url}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          },
        }
      : {}),
  };
}
