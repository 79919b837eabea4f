import { type Message, TONE_WORDS } from '../message';

/**
 * A Microsoft Teams message for a Workflows webhook ("Post to a channel when a webhook request is
 * received"), which replaced the retired Office 365 connectors: a message whose one attachment is an
 * Adaptive Card (schema 1.4, which Teams renders on every client): the organization and tone, the
 * title, the summary, the facts as a FactSet and a button to the dashboard.
 */
const TONE_COLOURS: Record<Message['tone'], string> = {
  alert: 'Attention',
  warning: 'Warning',
  success: 'Good',
  info: 'Accent',
};

export function teamsPayload(message: Message) {
  const body: Record<string, unknown>[] = [
    {
      type: 'TextBlock',
      text: `${TONE_WORDS[message.tone]} · ${message.organizationName}`,
      size: 'Small',
      weight: 'Bolder',
      color: TONE_COLOURS[message.tone],
      wrap: true,
    },
    { type: 'TextBlock', text: message.title, size: 'Large', weight: 'Bolder', wrap: true },
    { type: 'TextBlock', text: message.summary, wrap: true },
  ];
  if (message.facts.length > 0) {
    body.push({ type: 'FactSet', facts: message.facts.map((f) => ({ title: f.label, value: f.value })) });
  }
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body,
          actions: [{ type: 'Action.OpenUrl', title: message.link.label, url: message.link.url }],
          msteams: { width: 'Full' },
        },
      },
    ],
  };
}
