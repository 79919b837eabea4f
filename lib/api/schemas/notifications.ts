import { z } from 'zod';
import { NOTIFICATION_KINDS, type RecipientList, type WebhookList } from '@/lib/notify/kinds';
import { MAX_RECIPIENTS, MAX_WEBHOOKS } from '@/lib/notify/limits';
import {
  DEFAULT_DELIVERIES_PAGE,
  DELIVERY_STATES,
  type DeliveryPage,
  MAX_DELIVERIES_PAGE,
} from '@/lib/notify/log';
import type { NotificationSettings, OrgNotificationsView, SiteSettingsView } from '@/lib/notify/settings';
import type { SigningSecretView } from '@/lib/notify/signing';
import { isElidedUrl, WEBHOOK_KINDS } from '@/lib/notify/webhook';
import { type Holds, type Same, strictBoolean } from './common';
import { queryInt } from './history';
import { targetUrl } from './target-url';

/**
 * Notification targets (spec: Notification webhook, recipients), shared by the notification settings
 * and the uptime monitors' extra alert targets; the settings, test send, signing secret and delivery
 * log bodies.
 */

/**
 * Office 365 connector hosts. Microsoft retired the connectors (incoming webhooks) in Teams; a
 * Workflows webhook ("Post to a channel when a webhook request is received") replaces them.
 */
const KIND_DESCRIPTION =
  'slack, discord, teams: a message formatted for the chat app; http: a signed JSON POST (Standard Webhooks)';
const URL_DESCRIPTION =
  "the webhook's http(s) URL: a Slack incoming webhook, a Discord webhook, a Teams Workflows webhook, or any endpoint for http";

const RETIRED_TEAMS_HOSTS = /(^|\.)(webhook\.office\.com|outlook\.office(365)?\.com)$/i;

/**
 * `{kind, url}`; the URL passes the same reachability check as every configured URL. A `teams` URL
 * of a retired Office 365 connector is refused with what to use instead.
 */
export const notificationWebhook = z
  .strictObject({
    kind: z
      .enum(WEBHOOK_KINDS, { error: `must be one of ${WEBHOOK_KINDS.join(', ')}` })
      .describe(KIND_DESCRIPTION),
    url: targetUrl.describe(URL_DESCRIPTION),
  })
  .superRefine((hook, ctx) => {
    if (isElidedUrl(hook.url)) {
      // A read that hid the path (an API key or a member reading a monitor) written back as it was.
      ctx.addIssue({
        code: 'custom',
        path: ['url'],
        message: 'is a webhook URL with its path hidden (as reads show it): send the full URL',
      });
    }
    if (hook.kind === 'teams' && RETIRED_TEAMS_HOSTS.test(new URL(hook.url).hostname)) {
      ctx.addIssue({
        code: 'custom',
        path: ['url'],
        message:
          'is an Office 365 connector URL, which Microsoft retired: in Teams, create a Workflows webhook ("Post to a channel when a webhook request is received") and use its URL',
      });
    }
  });

/** An external address, trimmed; compared case-insensitively when lists are de-duplicated. */
export const emailAddress = z
  .string({ error: 'must be an email address' })
  .trim()
  .pipe(z.email('must be an email address'));

/** At most `max` addresses, de-duplicated (case-insensitively, first spelling kept) in order. */
export function emailList(max: number) {
  return z
    .array(emailAddress, { error: 'must be an array of email addresses' })
    .max(max, `must have at most ${max} addresses`)
    .transform((emails) => {
      const seen = new Set<string>();
      return emails.filter((email) => {
        const key = email.toLowerCase();
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    });
}

/** At most `max` webhooks, de-duplicated on (kind, url) in order. */
export function webhookList(max: number) {
  return z
    .array(notificationWebhook, { error: 'must be an array of webhooks' })
    .max(max, `must have at most ${max} webhooks`)
    .transform((hooks) =>
      hooks.filter((h, i) => hooks.findIndex((o) => o.kind === h.kind && o.url === h.url) === i),
    );
}

// ---- notification settings (spec: Notification recipient, Notification settings) ------------------

/** `{kind: 'user', userId}` (a member, resolved to their current address at delivery) or `{kind: 'email', email}`. */
export const notificationRecipient = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({
      kind: z.literal('user').describe('a member of the organization'),
      userId: z
        .string({ error: 'must be the user id of a member' })
        .trim()
        .min(1, 'must be the user id of a member')
        .max(200)
        .describe(
          "the member's user id (userId in GET /v1/members); their current address is used at delivery",
        ),
    }),
    z.strictObject({
      kind: z.literal('email').describe('an address, member or not'),
      email: emailAddress.describe('the address to send to'),
    }),
  ],
  { error: 'must be {"kind": "user", "userId": ...} or {"kind": "email", "email": ...}' },
);

/** At most `max` recipients, de-duplicated in order (members by user id, addresses case-insensitively). */
export function recipientList(max: number) {
  return z
    .array(notificationRecipient, { error: 'must be an array of recipients' })
    .max(max, `must have at most ${max} recipients`)
    .transform((list) => {
      const seen = new Set<string>();
      return list.filter((r) => {
        const key = r.kind === 'user' ? `user:${r.userId}` : `email:${r.email.toLowerCase()}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    });
}

const LISTS = {
  uptime: 'uptime incidents (down, recovered) and certificate warnings',
  crawl: 'a summary after every finished crawl',
  search: 'search-traffic-drop alerts',
  perf: 'Core Web Vitals regressions (pass to fail)',
  report: 'the monthly stakeholder report',
};
const recipients = (what: string) =>
  recipientList(MAX_RECIPIENTS)
    .optional()
    .describe(`emailed ${what} (at most ${MAX_RECIPIENTS}); replaces the list`);
const webhooks = (what: string) =>
  webhookList(MAX_WEBHOOKS).optional().describe(`sent ${what} (at most ${MAX_WEBHOOKS}); replaces the list`);

/**
 * PATCH /v1/notifications and PATCH /v1/sites/{id}/notifications: every field optional, omitted ones
 * keep their value. `includeOrgDefaults` only means something on a site override.
 */
export const notificationSettingsBody = z.strictObject({
  uptimeRecipients: recipients(LISTS.uptime),
  uptimeWebhooks: webhooks(LISTS.uptime),
  crawlReportRecipients: recipients(LISTS.crawl),
  searchAlertRecipients: recipients(LISTS.search),
  searchAlertWebhooks: webhooks(LISTS.search),
  perfAlertRecipients: recipients(LISTS.perf),
  perfAlertWebhooks: webhooks(LISTS.perf),
  reportRecipients: recipients(LISTS.report),
  includeOrgDefaults: strictBoolean()
    .optional()
    .describe('site overrides: also deliver to the org defaults; ignored on the org defaults'),
});

const recipientOut = z
  .discriminatedUnion('kind', [
    z
      .object({
        kind: z.literal('user').describe('a member of the organization'),
        userId: z.string().describe("the member's user id; their current address is used at delivery"),
      })
      .strict(),
    z
      .object({
        kind: z.literal('email').describe('an address, member or not'),
        email: z.string().describe('the address'),
      })
      .strict(),
  ])
  .meta({
    id: 'NotificationRecipient',
    description: 'A member (resolved to their current address at delivery) or an address',
  });

const webhookOut = z
  .object({
    kind: z.enum(WEBHOOK_KINDS).describe(KIND_DESCRIPTION),
    url: z
      .string()
      .describe(`${URL_DESCRIPTION}; stored encrypted, read back in full by owners and admins only`),
  })
  .strict()
  .meta({
    id: 'NotificationWebhook',
    description: 'slack, discord, teams: formatted for the chat app; http: signed JSON',
  });

export const notificationSettingsSchema = z
  .object({
    uptimeRecipients: z.array(recipientOut).describe(`emailed ${LISTS.uptime}`),
    uptimeWebhooks: z.array(webhookOut).describe(`sent ${LISTS.uptime}`),
    crawlReportRecipients: z.array(recipientOut).describe(`emailed ${LISTS.crawl}`),
    searchAlertRecipients: z.array(recipientOut).describe(`emailed ${LISTS.search}`),
    searchAlertWebhooks: z.array(webhookOut).describe(`sent ${LISTS.search}`),
    perfAlertRecipients: z.array(recipientOut).describe(`emailed ${LISTS.perf}`),
    perfAlertWebhooks: z.array(webhookOut).describe(`sent ${LISTS.perf}`),
    reportRecipients: z.array(recipientOut).describe(`emailed ${LISTS.report}`),
    includeOrgDefaults: z
      .boolean()
      .describe('site overrides: the org defaults are delivered to as well; always true on the org defaults'),
  })
  .strict()
  .meta({
    id: 'NotificationSettings',
    description: 'The receivers of one scope: the org defaults or a site override',
  });

const secretFields = {
  signingSecret: z
    .string()
    .describe("the organization's Standard Webhooks secret (whsec_ + base64) that signs http webhooks"),
  previousSigningSecretExpiresAt: z
    .int()
    .nullable()
    .describe('after a rotation: until when (epoch ms) the previous secret still signs alongside; else null'),
};

/** GET /v1/notifications. */
export const orgNotificationsResponse = z
  .object({
    settings: notificationSettingsSchema.describe("the organization's defaults, the baseline of every site"),
    overriddenSiteIds: z.array(z.uuid()).describe('sites that carry their own override, oldest site first'),
    ...secretFields,
  })
  .strict();

/** PATCH /v1/notifications. */
export const notificationSettingsResponse = z
  .object({ settings: notificationSettingsSchema.describe('the org defaults as saved') })
  .strict();

/** GET and PATCH /v1/sites/{id}/notifications. */
export const siteNotificationsResponse = z
  .object({
    settings: notificationSettingsSchema.describe("the site's override, or where one starts"),
    overridden: z
      .boolean()
      .describe('false: the site follows the org defaults, and settings show where an override starts'),
  })
  .strict();

/** DELETE /v1/sites/{id}/notifications. */
export const deleteSiteNotificationsResponse = z
  .object({ deleted: z.boolean().describe('false when the site had no override') })
  .strict();

/** POST /v1/notifications/signing-secret. */
export const signingSecretResponse = z.object(secretFields).strict();

/** POST /v1/notifications/test: exactly one of `email` and `webhook`. */
export const testNotificationBody = z
  .strictObject({
    email: emailAddress.optional().describe('send the test to this address (not with webhook)'),
    webhook: notificationWebhook
      .optional()
      .describe('send the test to this webhook, saved or not (not with email)'),
  })
  .refine((body) => (body.email === undefined) !== (body.webhook === undefined), {
    error: 'must have exactly one of email and webhook',
    path: [],
  });

export const testNotificationResponse = z
  .object({
    ok: z.literal(true).describe('the receiver accepted the test (a 2xx, or the mail transport took it)'),
  })
  .strict();

// ---- the delivery log ------------------------------------------------------------------------------

export const deliveriesQuery = z.object({
  siteId: z.uuid({ error: 'must be a site id' }).optional().describe("only deliveries of this site's events"),
  kind: z.enum(NOTIFICATION_KINDS).optional().describe('only this kind of notification'),
  state: z.enum(DELIVERY_STATES).optional().describe('only deliveries in this state'),
  limit: queryInt(1, MAX_DELIVERIES_PAGE)
    .optional()
    .describe(`deliveries per page, default ${DEFAULT_DELIVERIES_PAGE}`),
  cursor: z
    .string()
    .max(4096)
    .optional()
    .describe('nextCursor of the previous page; omitted: the first page'),
});

const deliveryAttempt = z
  .object({
    attempt: z.int().min(1).describe('1 for the first try'),
    startedAt: z.int().describe('when it was claimed and sent (epoch ms)'),
    finishedAt: z.int().nullable().describe('when its outcome was recorded; null while in flight'),
    outcome: z
      .enum(['sent', 'failed', 'interrupted', 'cancelled'])
      .nullable()
      .describe('null while in flight; interrupted: the worker stopped before recording the answer'),
    status: z.int().nullable().describe("the receiver's HTTP status, when it answered"),
    detail: z.string().nullable().describe('what happened, in plain words'),
  })
  .strict();

export const deliverySchema = z
  .object({
    id: z.uuid().describe("the delivery's id"),
    eventId: z.uuid().describe('the notification: the same for every receiver of it (the http body id)'),
    kind: z.enum(NOTIFICATION_KINDS).describe('what the notification is about'),
    siteId: z.uuid().nullable().describe('the site it is about; null for organization-wide ones'),
    hostname: z
      .string()
      .nullable()
      .describe("the site's hostname; null for organization-wide or deleted sites"),
    receiver: z
      .discriminatedUnion('type', [
        z
          .object({
            type: z.literal('member').describe('a member, at their address'),
            userId: z.string().describe("the member's user id"),
            name: z.string().nullable().describe("the member's name; null when the account is gone"),
            email: z.string().describe('the address sent to'),
          })
          .strict(),
        z
          .object({
            type: z.literal('email').describe('an address from the settings or a monitor'),
            email: z.string().describe('the address sent to'),
          })
          .strict(),
        z
          .object({
            type: z.literal('webhook').describe('a webhook'),
            kind: z.enum(WEBHOOK_KINDS).describe(KIND_DESCRIPTION),
            url: z.string().describe('origin only: the path of a chat webhook is its credential'),
          })
          .strict(),
      ])
      .describe('who it went to'),
    state: z
      .enum(DELIVERY_STATES)
      .describe('pending (due at nextAttemptAt), sending, sent, failed (gave up), cancelled (member left)'),
    attempts: z.int().min(0).describe('attempts made so far'),
    maxAttempts: z.int().describe('attempts before giving up'),
    outcome: z.string().nullable().describe("the last attempt's outcome in plain words"),
    lastStatus: z.int().nullable().describe("the receiver's HTTP status on the last attempt, if it answered"),
    nextAttemptAt: z.int().nullable().describe('when a pending delivery is (re)tried; null otherwise'),
    createdAt: z.int().describe('when the receiver was resolved for the event (epoch ms)'),
    sentAt: z.int().nullable().describe('when the receiver accepted it; null until then'),
    history: z.array(deliveryAttempt).describe('every attempt, oldest first'),
  })
  .strict()
  .meta({ id: 'NotificationDelivery', description: 'One notification to one receiver, with every attempt' });

export const deliveriesResponse = z
  .object({
    deliveries: z.array(deliverySchema).describe('newest first'),
    nextCursor: z
      .string()
      .nullable()
      .describe('pass as ?cursor= (same filters) for the next page; null on the last'),
  })
  .strict();

/** The services answer exactly these schemas' output: typecheck fails on drift. */
export type NotificationResultsMatchSchemas = [
  Holds<Same<NotificationSettings, z.output<typeof notificationSettingsSchema>>>,
  Holds<Same<OrgNotificationsView, z.output<typeof orgNotificationsResponse>>>,
  Holds<Same<SiteSettingsView, z.output<typeof siteNotificationsResponse>>>,
  Holds<Same<SigningSecretView, z.output<typeof signingSecretResponse>>>,
  Holds<Same<DeliveryPage, z.output<typeof deliveriesResponse>>>,
  // Every settings list is one the kinds route to (lib/notify/kinds.ts), and the other way round.
  Holds<Same<keyof NotificationSettings, RecipientList | WebhookList | 'includeOrgDefaults'>>,
];
