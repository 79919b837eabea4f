import type { Message } from '../message';
import { clip } from './text';

/**
 * A Slack incoming-webhook message: `text` is the fallback shown in notifications and by clients
 * that cannot draw blocks; `blocks` is the Block Kit layout (header, summary, up to 10 fact fields,
 * a button to the dashboard, a context line). Within Block Kit's limits: header 150 characters,
 * section text 3,000, a field 2,000, 10 fields, a button label 75.
 */

/** Slack's mrkdwn gives `&`, `<` and `>` meaning; everything else is shown as typed. */
export const escapeMrkdwn = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const TONE_EMOJI: Record<Message['tone'], string> = {
  alert: ':red_circle:',
  warning: ':warning:',
  success: ':large_green_circle:',
  info: ':information_source:',
};

export function slackPayload(message: Message) {
  const blocks: Record<string, unknown>[] = [
    { type: 'header', text: { type: 'plain_text', text: clip(message.title, 150), emoji: true } },
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: clip(`${TONE_EMOJI[message.tone]} ${escapeMrkdwn(message.summary)}`, 3000),
      },
    },
  ];
  if (message.facts.length > 0) {
    blocks.push({
      type: 'section',
      fields: message.facts.slice(0, 10).map((fact) => ({
        type: 'mrkdwn',
        text: clip(`*${escapeMrkdwn(fact.label)}*\n${escapeMrkdwn(fact.value)}`, 2000),
      })),
    });
  }
  blocks.push(
    {
      type: 'actions',
      elements: [
        {
          type: 'button',
          text: { type: 'plain_text', text: clip(message.link.label, 75) },
          url: message.link.url,
        },
      ],
    },
    {
      type: 'context',
      elements: [
        { type: 'mrkdwn', text: clip(`Sitewatch · ${escapeMrkdwn(message.organizationName)}`, 3000) },
      ],
    },
  );
  return {
    // The fallback is mrkdwn too: escaped, so a monitor named `<!channel>` pings nobody.
    text: clip(escapeMrkdwn(`${message.title}: ${message.summary} ${message.link.url}`), 3000),
    blocks,
  };
}
