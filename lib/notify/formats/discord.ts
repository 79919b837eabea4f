import type { Message } from '../message';
import { clip, lengthOf } from './text';

/**
 * A Discord webhook message: one embed (title linking to the dashboard, the summary as description,
 * facts as inline fields, a footer, the event's time), within Discord's documented embed limits:
 * title 256, description 4,096, 25 fields of name 256 and value 1,024, footer 2,048, and 6,000
 * characters across all of them. `allowed_mentions` is empty so no text in a message can ping
 * `@everyone` or a role.
 */
export const DISCORD_LIMITS = {
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  total: 6000,
} as const;

/** What this format allows itself within Discord's limits. */
const SHOWN = { footer: 256, description: 2000 } as const;

const TONE_COLOURS: Record<Message['tone'], number> = {
  alert: 0xd92d20,
  warning: 0xf79009,
  success: 0x12b76a,
  info: 0x2e90fa,
};

export function discordPayload(message: Message) {
  const title = clip(message.title, DISCORD_LIMITS.title);
  // Footer and description are kept shorter than Discord allows, leaving the 6,000 for the facts.
  const footer = clip(`Sitewatch · ${message.organizationName}`, SHOWN.footer);
  let budget = DISCORD_LIMITS.total - lengthOf(title) - lengthOf(footer);
  const link = `\n\n[${message.link.label}](${message.link.url})`;
  const description = `${clip(message.summary, SHOWN.description - lengthOf(link))}${link}`;
  budget -= lengthOf(description);
  const fields: { name: string; value: string; inline: boolean }[] = [];
  for (const fact of message.facts.slice(0, DISCORD_LIMITS.fields)) {
    const name = clip(fact.label, DISCORD_LIMITS.fieldName);
    const value = clip(fact.value, DISCORD_LIMITS.fieldValue);
    const size = lengthOf(name) + lengthOf(value);
    // Fields that no longer fit the 6,000-character total are left out (the link says where the rest is).
    if (size > budget) break;
    budget -= size;
    fields.push({ name, value, inline: lengthOf(value) <= 40 });
  }
  return {
    username: 'Sitewatch',
    allowed_mentions: { parse: [] as string[] },
    embeds: [
      {
        title,
        url: message.link.url,
        description,
        color: TONE_COLOURS[message.tone],
        fields,
        footer: { text: footer },
        timestamp: new Date(message.occurredAt).toISOString(),
      },
    ],
  };
}
