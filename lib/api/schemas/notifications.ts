import { z } from 'zod';
import type { AlertOfferView } from '@/lib/notify/alert-offer';
import { BREAKER_THRESHOLD } from '@/lib/notify/breaker';
import type { AddressState, Confirmed, Unsubscribed } from '@/lib/notify/consent';
import { MAIL_TOPICS, ORGANIZATION_KINDS, type RecipientList, type WebhookList } from '@/lib/notify/kinds';
import { MAX_RECIPIENTS, MAX_WEBHOOKS } from '@/lib/notify/limits';
import {
  DEFAULT_DELIVERIES_PAGE,
  DELIVERY_STATES,
  type DeliveryPage,
  MAX_DELIVERIES_PAGE,
  type ReceiverHealthEntry,
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

// ---- addresses: confirmation and unsubscribes (lib/notify/consent.ts) ---------------------------------

const topic = z
  .enum(MAIL_TOPICS, { error: `must be one of ${MAIL_TOPICS.join(', ')}` })
  .describe(
    'what an unsubscribe stops: uptime (incidents, certificates), crawl, search, performance, report (monthly), billing (allowance reached), all (everything from the organization; a test mail stops this)',
  );

export const addressStateSchema = z
  .object({
    email: z.string().describe('the address, lower-cased'),
    status: z
      .enum(['member', 'confirmed', 'pending', 'expired'])
      .describe(
        "member: a member's sign-in address (no confirmation needed); confirmed; pending: asked, nothing is sent until it confirms; expired: the link ran out unconfirmed (resend)",
      ),
    confirmationSentAt: z.int().nullable().describe('when the last confirmation mail went out (epoch ms)'),
    confirmationExpiresAt: z
      .int()
      .nullable()
      .describe('while pending: when the link of the last confirmation mail stops working'),
    confirmationError: z
      .string()
      .nullable()
      .describe('why the last confirmation mail did not go out (a limit, the mail provider), if it did not'),
    confirmedAt: z.int().nullable().describe('when the address confirmed'),
    unsubscribed: z
      .array(z.object({ topic, at: z.int().describe('when (epoch ms)') }).strict())
      .describe('topics it stopped with the one-click link of a mail, oldest first'),
  })
  .strict()
  .meta({
    id: 'NotificationAddress',
    description:
      'An address the notifications name: its confirmation (outside addresses) and what it unsubscribed from',
  });

/** GET /v1/notifications. */
export const orgNotificationsResponse = z
  .object({
    settings: notificationSettingsSchema.describe("the organization's defaults, the baseline of every site"),
    overriddenSiteIds: z.array(z.uuid()).describe('sites that carry their own override, oldest site first'),
    addresses: z
      .array(addressStateSchema)
      .describe(
        'every outside address the lists (defaults and overrides) and monitors name, with its confirmation, and every address that unsubscribed from something; by address',
      ),
    ...secretFields,
  })
  .strict();

/** POST /v1/notifications/confirmations. */
export const resendConfirmationBody = z.strictObject({
  email: emailAddress.describe('an outside address a list or monitor names that has not confirmed'),
});

/** POST /v1/notifications/resubscribe. */
export const resubscribeBody = z.strictObject({
  email: emailAddress.describe('the address that unsubscribed'),
  topic: topic.describe('the topic it unsubscribed from'),
});

export const addressStateResponse = z
  .object({ address: addressStateSchema.describe('the address as it is now') })
  .strict();

/** POST /v1/confirm/{token} and /v1/unsubscribe/{token}: the token from the mailed link. */
export const mailTokenParams = z.object({
  token: z.string().min(1).max(400).describe('the token from the link in the mail'),
});

export const confirmationResponse = z
  .object({
    email: z.string().describe('the address that confirmed'),
    organizationName: z.string().describe('the organization it agreed to receive notifications from'),
    confirmed: z.literal(true).describe('always true: confirming twice answers the same'),
  })
  .strict();

export const unsubscribeResponse = z
  .object({
    email: z.string().describe('the address'),
    organizationName: z.string().describe('the organization that stops mailing it the topic'),
    topic: topic.describe('what it stopped'),
    topicName: z.string().describe('the topic in words, e.g. "uptime alerts"'),
    unsubscribed: z.literal(true).describe('always true: unsubscribing twice answers the same'),
  })
  .strict();

/** PATCH /v1/notifications. */
export const notificationSettingsResponse = z
  .object({ settings: notificationSettingsSchema.describe('the org defaults as saved') })
  .strict();

/** GET /v1/notifications/alert-offer. */
export const alertOfferResponse = z
  .object({
    alertOffer: z
      .object({
        offeredAt: z.int().describe('when they became an owner or admin (epoch milliseconds)'),
      })
      .strict()
      .nullable()
      .describe(
        'the offer to receive uptime and performance alerts made to the signed-in member when they joined as, or were made, an owner or admin; null when none is open (answered, never made, or they already receive both)',
      ),
  })
  .strict();

/** POST /v1/notifications/alert-offer. */
export const alertOfferAnswerBody = z.strictObject({
  accept: strictBoolean().describe(
    'true ("Alert me"): add the signed-in member to uptimeRecipients and perfAlertRecipients; false: dismiss the offer',
  ),
});

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
  kind: z.enum(ORGANIZATION_KINDS).optional().describe('only this kind of notification'),
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

export const receiverHealthSchema = z
  .object({
    circuit: z
      .enum(['closed', 'open', 'half-open'])
      .describe(
        `closed: sent as due; open: ${BREAKER_THRESHOLD} or more failed attempts in a row, nothing is sent until retryAt; half-open: retryAt has passed, the next delivery goes out and its success closes the circuit`,
      ),
    consecutiveFailures: z.int().min(0).describe('failed attempts in a row since the last accepted one'),
    openedAt: z.int().nullable().describe('when the circuit opened; null when closed'),
    retryAt: z
      .int()
      .nullable()
      .describe(
        'when an open circuit lets its next delivery through (half-open from then); null when closed',
      ),
    slow: z
      .boolean()
      .describe('its last send timed out or took over 2 s: it is served by the slow lane of workers'),
    lastFailure: z.string().nullable().describe('what its last failed attempt got, in plain words'),
    lastFailureAt: z.int().nullable().describe('when it last failed (epoch ms)'),
    lastSuccessAt: z.int().nullable().describe('when it last accepted a delivery (epoch ms)'),
  })
  .strict()
  .meta({
    id: 'ReceiverHealth',
    description: "A webhook receiver's circuit breaker and delivery lane, shared by all its deliveries",
  });

export const receiversResponse = z
  .object({
    receivers: z
      .array(
        z
          .object({
            kind: z.enum(WEBHOOK_KINDS).describe(KIND_DESCRIPTION),
            url: z.string().describe('origin only: the path of a chat webhook is its credential'),
            health: receiverHealthSchema.describe('its circuit breaker and delivery lane now'),
            waiting: z.int().min(0).describe('its deliveries not yet sent (pending or in flight)'),
          })
          .strict(),
      )
      .describe('open and half-open circuits first, then failing, slow, and healthy receivers'),
  })
  .strict();

export const deliverySchema = z
  .object({
    id: z.uuid().describe("the delivery's id"),
    eventId: z.uuid().describe('the notification: the same for every receiver of it (the http body id)'),
    kind: z.enum(ORGANIZATION_KINDS).describe('what the notification is about'),
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
    receiverHealth: receiverHealthSchema
      .nullable()
      .describe(
        "the webhook receiver's circuit and lane now; null for email and for a webhook not yet sent to",
      ),
    state: z
      .enum(DELIVERY_STATES)
      .describe(
        'pending (due at nextAttemptAt), sending, sent, failed (gave up), cancelled (not sent, outcome says why: the member left, the address has not confirmed or unsubscribed)',
      ),
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
  Holds<Same<{ alertOffer: AlertOfferView | null }, z.output<typeof alertOfferResponse>>>,
  Holds<Same<OrgNotificationsView, z.output<typeof orgNotificationsResponse>>>,
  Holds<Same<SiteSettingsView, z.output<typeof siteNotificationsResponse>>>,
  Holds<Same<SigningSecretView, z.output<typeof signingSecretResponse>>>,
  Holds<Same<DeliveryPage, z.output<typeof deliveriesResponse>>>,
  Holds<Same<{ receivers: ReceiverHealthEntry[] }, z.output<typeof receiversResponse>>>,
  Holds<Same<AddressState, z.output<typeof addressStateSchema>>>,
  Holds<Same<Unsubscribed, z.output<typeof unsubscribeResponse>>>,
  Holds<Same<Confirmed, z.output<typeof confirmationResponse>>>,
  // Every settings list is one the kinds route to (lib/notify/kinds.ts), and the other way round.
  Holds<Same<keyof NotificationSettings, RecipientList | WebhookList | 'includeOrgDefaults'>>,
];
