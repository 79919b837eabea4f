import type { NotificationRecipient, NotificationSettings } from '@/components/api/types';
import { emailLines, isEmailAddress, urlProblem } from '@/components/ui/form-checks';
import type { RecipientList, WebhookList } from '@/lib/notify/kinds';
import { MAX_RECIPIENTS, MAX_WEBHOOKS } from '@/lib/notify/limits';
import type { WebhookKind } from '@/lib/notify/webhook';

/*
 * The notification settings form's state and checks, pure: members ticked and addresses typed per
 * recipient list, webhook rows per webhook list, the spec's limits (lib/notify/limits, the numbers
 * the API enforces) checked before sending, the PATCH body, and the API's "field: message" errors
 * placed under the list or webhook row they name.
 */

/** The settings, grouped as the form shows them: what each group is for and its lists. */
export const GROUPS: ReadonlyArray<{
  id: string;
  title: string;
  description: string;
  /** What happens while nobody receives the group's kind (the notifications page warns with it). */
  nobody: string;
  recipients: RecipientList;
  webhooks?: WebhookList;
}> = [
  {
    id: 'uptime',
    title: 'Uptime alerts',
    description: 'Outages, recoveries and certificate warnings.',
    nobody:
      "An outage, a recovery or an expiring certificate alerts nobody, except a monitor's own extra receivers.",
    recipients: 'uptimeRecipients',
    webhooks: 'uptimeWebhooks',
  },
  {
    id: 'crawl',
    title: 'Crawl summaries',
    description: 'Broken links, SEO score and accessibility after every finished crawl.',
    nobody: 'Finished crawls are summarised to nobody.',
    recipients: 'crawlReportRecipients',
  },
  {
    id: 'search',
    title: 'Search traffic alerts',
    description: 'A drop in clicks from Google Search.',
    nobody: 'A drop in search clicks alerts nobody.',
    recipients: 'searchAlertRecipients',
    webhooks: 'searchAlertWebhooks',
  },
  {
    id: 'perf',
    title: 'Performance alerts',
    description: 'Core Web Vitals that go from pass to fail.',
    nobody: 'Core Web Vitals that start failing alert nobody.',
    recipients: 'perfAlertRecipients',
    webhooks: 'perfAlertWebhooks',
  },
  {
    id: 'report',
    title: 'Monthly report',
    description: 'The stakeholder PDF on the first of each month.',
    nobody: 'No monthly report is mailed.',
    recipients: 'reportRecipients',
  },
];

/** Whether a group's lists (recipients and webhooks) are all empty in the saved settings. */
export function receivesNobody(settings: NotificationSettings, group: (typeof GROUPS)[number]): boolean {
  return (
    settings[group.recipients].length === 0 && (!group.webhooks || settings[group.webhooks].length === 0)
  );
}

export interface WebhookDraft {
  kind: WebhookKind;
  url: string;
}

export interface RecipientDraft {
  /** Members ticked, by user id (including ids of people who have since left, kept until unticked). */
  userIds: string[];
  /** One address per line. */
  emails: string;
}

export interface SettingsDraft {
  recipients: Record<RecipientList, RecipientDraft>;
  webhooks: Record<WebhookList, WebhookDraft[]>;
  includeOrgDefaults: boolean;
}

/** A field the form shows an error under: a recipient list, a webhook list, or a row `list.<i>`. */
export type SettingsField = RecipientList | WebhookList | `${WebhookList}.${number}`;
export type SettingsErrors = Partial<Record<SettingsField, string>>;

const RECIPIENT_LISTS = GROUPS.map((g) => g.recipients);
const WEBHOOK_LISTS = GROUPS.flatMap((g) => (g.webhooks ? [g.webhooks] : []));

export function draftOf(settings: NotificationSettings): SettingsDraft {
  const recipients = Object.fromEntries(
    RECIPIENT_LISTS.map((list) => {
      const entries: NotificationRecipient[] = settings[list];
      return [
        list,
        {
          userIds: entries.flatMap((r) => (r.kind === 'user' ? [r.userId] : [])),
          emails: entries.flatMap((r) => (r.kind === 'email' ? [r.email] : [])).join('\n'),
        },
      ];
    }),
  ) as Record<RecipientList, RecipientDraft>;
  const webhooks = Object.fromEntries(
    WEBHOOK_LISTS.map((list) => [list, settings[list].map((h) => ({ kind: h.kind, url: h.url }))]),
  ) as Record<WebhookList, WebhookDraft[]>;
  return { recipients, webhooks, includeOrgDefaults: settings.includeOrgDefaults };
}

export { emailLines, urlProblem };

/** The spec's limits, checked in the browser: each problem as the words after the field's label. */
export function checkDraft(draft: SettingsDraft): SettingsErrors {
  const errors: SettingsErrors = {};
  for (const list of RECIPIENT_LISTS) {
    const { userIds, emails } = draft.recipients[list];
    const addresses = emailLines(emails);
    const count = userIds.length + addresses.length;
    const bad = addresses.find((e) => !isEmailAddress(e));
    if (count > MAX_RECIPIENTS) {
      errors[list] =
        `must have at most ${MAX_RECIPIENTS} recipients, members and addresses together (it has ${count})`;
    } else if (bad) {
      errors[list] = `must be email addresses, one per line: “${bad}” is not one`;
    }
  }
  for (const list of WEBHOOK_LISTS) {
    const hooks = draft.webhooks[list];
    if (hooks.length > MAX_WEBHOOKS) errors[list] = `must be at most ${MAX_WEBHOOKS}`;
    hooks.forEach((hook, i) => {
      const problem = urlProblem(hook.url);
      if (problem) errors[`${list}.${i}`] = problem;
    });
  }
  return errors;
}

/** The PATCH body: every list (the form shows them all); includeOrgDefaults only for a site. */
export function bodyOf(draft: SettingsDraft, site: boolean) {
  const body: Record<string, unknown> = {};
  for (const list of RECIPIENT_LISTS) {
    const { userIds, emails } = draft.recipients[list];
    body[list] = [
      ...userIds.map((userId) => ({ kind: 'user', userId })),
      ...emailLines(emails).map((email) => ({ kind: 'email', email })),
    ];
  }
  for (const list of WEBHOOK_LISTS) {
    body[list] = draft.webhooks[list].map((h) => ({ kind: h.kind, url: h.url.trim() }));
  }
  if (site) body.includeOrgDefaults = draft.includeOrgDefaults;
  return body;
}

/**
 * The API names the failing field first: "uptimeRecipients.2.email: must be an email address",
 * "uptimeWebhooks.1.url: ...", "uptimeRecipients: must have at most 10 recipients". Null field: a
 * message for the whole form.
 */
export function fieldOfApiError(message: string): { field: SettingsField | null; text: string } {
  const match = /^([A-Za-z]+)(?:\.(\d+))?(?:\.[A-Za-z]+)?: (.*)$/s.exec(message);
  if (!match) return { field: null, text: message };
  const [, name = '', index, text = message] = match;
  if ((RECIPIENT_LISTS as string[]).includes(name)) return { field: name as RecipientList, text };
  if ((WEBHOOK_LISTS as string[]).includes(name)) {
    const list = name as WebhookList;
    return { field: index === undefined ? list : `${list}.${Number(index)}`, text };
  }
  return { field: null, text: message };
}

const GROUP_OF = (list: string) => GROUPS.find((g) => g.recipients === list || g.webhooks === list);

/** The label an error is read after ("Uptime alerts recipients must ..."), also the summary's words. */
export function fieldLabel(field: SettingsField): string {
  const [list = '', index] = field.split('.');
  const group = GROUP_OF(list)?.title ?? list;
  if (index !== undefined) return `${group}: webhook ${Number(index) + 1} URL`;
  return list.endsWith('Webhooks') ? `${group}: webhooks` : `${group}: recipients`;
}
