import type { SealedWebhook } from '@/lib/crypto/webhook-urls';

/**
 * What a notification is about: the `kind` a producer queues (`enqueueNotification`), which decides
 * who receives it (`KIND_RECEIVERS`), how each format words it (lib/notify/message.ts) and the
 * `type` of the generic http webhook's JSON (`HTTP_EVENT_TYPES`).
 *
 * Producers queue these kinds with the payloads typed below; a payload missing optional fields is
 * still delivered (the formats leave out what is missing).
 */
export const NOTIFICATION_KINDS = [
  'uptime-down',
  'uptime-recovered',
  'certificate-expiring',
  'domain-expiring',
  'crawl-summary',
  'allowance-reached',
  'perf-regression',
  'search-traffic-drop',
  'stakeholder-report',
  'status-incident',
  'status-maintenance',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const isNotificationKind = (kind: string): kind is NotificationKind =>
  (NOTIFICATION_KINDS as readonly string[]).includes(kind);

/** The settings lists of recipients (spec: Notification settings). */
export const RECIPIENT_LISTS = [
  'uptimeRecipients',
  'crawlReportRecipients',
  'searchAlertRecipients',
  'perfAlertRecipients',
  'reportRecipients',
] as const;
export type RecipientList = (typeof RECIPIENT_LISTS)[number];

/** The settings lists of webhooks. */
export const WEBHOOK_LISTS = ['uptimeWebhooks', 'searchAlertWebhooks', 'perfAlertWebhooks'] as const;
export type WebhookList = (typeof WEBHOOK_LISTS)[number];

/** The kinds that go to a status page's subscribers (./subscribers.ts), never to the organization. */
export const SUBSCRIBER_KINDS = ['status-incident', 'status-maintenance'] as const;
export type SubscriberKind = (typeof SUBSCRIBER_KINDS)[number];
export const isSubscriberKind = (kind: string): kind is SubscriberKind =>
  (SUBSCRIBER_KINDS as readonly string[]).includes(kind);

/**
 * The kinds the organization's own receivers get, and its delivery log shows: a subscriber's
 * delivery names their address, which the organization never sees (only how many subscribed).
 */
export const ORGANIZATION_KINDS = NOTIFICATION_KINDS.filter(
  (k): k is Exclude<NotificationKind, SubscriberKind> => !isSubscriberKind(k),
) as [Exclude<NotificationKind, SubscriberKind>, ...Exclude<NotificationKind, SubscriberKind>[]];
export type OrganizationKind = Exclude<NotificationKind, SubscriberKind>;

export interface KindReceivers {
  /**
   * The settings list of recipients, `admins` (the organization's owners and admins), or
   * `subscribers`: the confirmed subscribers of the status page the payload names.
   */
  recipients: RecipientList | 'admins' | 'subscribers';
  /** The settings list of webhooks, or null when the kind goes to people only. */
  webhooks: WebhookList | null;
  /** A monitor's `alertEmails` and `alertWebhooks`, carried in the payload, are added on top. */
  monitorTargets: boolean;
}

/**
 * Who gets each kind (spec: Events). An allowance reached is billing news, which the settings have no
 * list for: it goes to the organization's owners and admins, who alone can turn overage on.
 */
export const KIND_RECEIVERS: Record<NotificationKind, KindReceivers> = {
  'uptime-down': { recipients: 'uptimeRecipients', webhooks: 'uptimeWebhooks', monitorTargets: true },
  'uptime-recovered': { recipients: 'uptimeRecipients', webhooks: 'uptimeWebhooks', monitorTargets: true },
  'certificate-expiring': {
    recipients: 'uptimeRecipients',
    webhooks: 'uptimeWebhooks',
    monitorTargets: true,
  },
  'domain-expiring': { recipients: 'uptimeRecipients', webhooks: 'uptimeWebhooks', monitorTargets: true },
  'crawl-summary': { recipients: 'crawlReportRecipients', webhooks: null, monitorTargets: false },
  'allowance-reached': { recipients: 'admins', webhooks: null, monitorTargets: false },
  'perf-regression': {
    recipients: 'perfAlertRecipients',
    webhooks: 'perfAlertWebhooks',
    monitorTargets: false,
  },
  'search-traffic-drop': {
    recipients: 'searchAlertRecipients',
    webhooks: 'searchAlertWebhooks',
    monitorTargets: false,
  },
  'stakeholder-report': { recipients: 'reportRecipients', webhooks: null, monitorTargets: false },
  'status-incident': { recipients: 'subscribers', webhooks: null, monitorTargets: false },
  'status-maintenance': { recipients: 'subscribers', webhooks: null, monitorTargets: false },
};

/**
 * What a one-click unsubscribe stops (lib/notify/consent.ts): the kinds a person would think of as
 * one kind of mail. `all` is what a test mail's link stops: everything from that organization.
 */
export const MAIL_TOPICS = ['uptime', 'crawl', 'search', 'performance', 'report', 'billing', 'all'] as const;
export type MailTopic = (typeof MAIL_TOPICS)[number];

/** Subscriber mail has its own consent and unsubscribe (./subscribers.ts): no topic of the organization's. */
export const KIND_TOPIC: Record<Exclude<NotificationKind, SubscriberKind> | 'test', MailTopic> = {
  'uptime-down': 'uptime',
  'uptime-recovered': 'uptime',
  'certificate-expiring': 'uptime',
  'domain-expiring': 'uptime',
  'crawl-summary': 'crawl',
  'allowance-reached': 'billing',
  'perf-regression': 'performance',
  'search-traffic-drop': 'search',
  'stakeholder-report': 'report',
  test: 'all',
};

/** Each topic in words: "unsubscribed from uptime alerts". */
export const TOPIC_NAMES: Record<MailTopic, string> = {
  uptime: 'uptime alerts',
  crawl: 'crawl summaries',
  search: 'search traffic alerts',
  performance: 'performance alerts',
  report: 'monthly reports',
  billing: 'billing notices',
  all: 'all notifications',
};

/** `type` of the http webhook's body: dotted names, as the Standard Webhooks specification suggests. */
export const HTTP_EVENT_TYPES: Record<NotificationKind | 'test', string> = {
  'uptime-down': 'uptime.down',
  'uptime-recovered': 'uptime.recovered',
  'certificate-expiring': 'uptime.certificate_expiring',
  'domain-expiring': 'uptime.domain_expiring',
  'crawl-summary': 'crawl.summary',
  'allowance-reached': 'usage.allowance_reached',
  'perf-regression': 'performance.regression',
  'search-traffic-drop': 'search.traffic_drop',
  'stakeholder-report': 'report.monthly',
  'status-incident': 'status_page.incident',
  'status-maintenance': 'status_page.maintenance',
  test: 'notification.test',
};

// ---- payloads, as producers queue them ------------------------------------------------------------

/** What every uptime kind carries about its monitor, with the monitor's own extra targets. */
export interface MonitorPayload {
  monitorId: string;
  /** null shows the URL. */
  monitorName?: string | null;
  /** null for a heartbeat monitor, which has none. */
  url: string | null;
  /** Delivered on top of whatever the settings resolve to (spec: Events rule 3). */
  alertEmails?: string[];
  /** Sealed, as the monitor stores them (lib/notify/stored-webhooks.ts); delivery opens them. */
  alertWebhooks?: SealedWebhook[];
}

export interface UptimeDownPayload extends MonitorPayload {
  /** The incident's id (null only if its row could not be read back). */
  incidentId: string | null;
  /** Epoch ms: the round that confirmed the outage. */
  downAt: number;
  cause?: string | null;
  /** Regions that failed, e.g. ['eu', 'na']; empty when the probes ran from one server (`probedFrom`). */
  failingRegions?: string[];
  /** `regions`: the hosted regions probed it; `server`: this one server did (lib/uptime probeLocations). */
  probedFrom?: 'regions' | 'server';
  /** A short reason, e.g. "connection refused", if the producer has one. */
  detail?: string | null;
  /** `heartbeat`: a job's pings stopped (cause missed_heartbeat); absent for a probed monitor. */
  monitorKind?: 'http' | 'heartbeat';
  /** A heartbeat's latest ping (null: none yet), its period and grace. */
  lastPingAt?: number | null;
  periodSeconds?: number | null;
  graceSeconds?: number | null;
}

export interface UptimeRecoveredPayload extends UptimeDownPayload {
  recoveredAt: number;
}

export interface CertificateExpiringPayload extends MonitorPayload {
  /** Epoch ms of the certificate's notAfter. */
  expiresAt: number;
  /** The warning threshold crossed: 14 or 3 days. */
  days: number;
}

/** Queued by lib/uptime/domain-expiry.ts: the monitored host's domain registration nears its expiry. */
export interface DomainExpiringPayload extends MonitorPayload {
  /** The registrable domain (eTLD+1) of the monitor's host. */
  domain: string;
  /** Epoch ms of the registration's expiry, as the registry's RDAP server gives it. */
  expiresAt: number;
  /** The warning threshold crossed: 30, 14 or 7 days. */
  days: number;
}

export interface CrawlSummaryPayload {
  runId: string;
  hostname: string;
  state: 'completed' | 'failed';
  error: string | null;
  startedAt: number;
  finishedAt: number;
  pagesCrawled: number;
  linksChecked: number;
  /** Distinct broken targets; null when the Broken Links app is off. */
  brokenCount: number | null;
  /** Distinct crawled pages holding a broken link; null when the Broken Links app is off (absent before it was sent). */
  pagesWithBroken?: number | null;
  internalBroken?: number;
  externalBroken?: number;
  /** 0-100; null when the SEO app did not run. */
  seoScore: number | null;
  seoIssueCount?: number;
  /** The chained accessibility pass, once it finished; null when none ran. */
  a11y: {
    score: number | null;
    critical: number;
    serious: number;
    moderate: number;
    minor: number;
    pagesScanned: number;
  } | null;
  /** Pages a limit kept from the run, if any ("5000 pages: the max-pages cap"). */
  limitsHit?: string[];
  /** Against the previous completed crawl; null for a failed crawl (absent before it was sent). */
  changes?: CrawlSummaryChanges | null;
}

/**
 * What changed since the previous completed crawl; a summary is only sent when something did
 * (lib/crawl/runs/summary-notification.ts `hasChanges`).
 */
export interface CrawlSummaryChanges {
  /** null: the site's first completed crawl, nothing to compare with. */
  previousRunId: string | null;
  /** Distinct broken targets this crawl found that the previous one did not, and the reverse. */
  brokenNew: number;
  brokenFixed: number;
  /** SEO issues (check, page) new and fixed; 0 unless both crawls ran the SEO app. */
  seoNew: number;
  seoFixed: number;
  /** The chained accessibility scan's score or violations differ from the previous scan's. */
  a11yChanged: boolean;
}

export interface AllowanceReachedPayload {
  /** `monitors`: the organization's pooled uptime monitor allowance (no site; `hostname` null). */
  app: 'crawl' | 'a11y' | 'monitors' | string;
  hostname: string | null;
  /** YYYY-MM. */
  period: string;
  allowance: number;
  used: number;
  /** `monitors` only: how many of the newest monitors are not probed. */
  held?: number;
}

/** Queued by lib/fielddata/alert.ts when the Core Web Vitals verdict flips from pass to fail. */
export interface PerfRegressionPayload {
  hostname: string;
  origin?: string;
  /** `ALL`: every device. */
  formFactor?: string;
  /** YYYY-MM-DD, the last day of the collection window that failed, and of the last one that passed. */
  periodEnd?: string;
  previousPeriodEnd?: string | null;
  /** Each Core Web Vital over its bound: p75 before (last passing window) and after, and the bound. */
  failing: { metric: string; threshold: number; before: number | null; after: number }[];
  /** For the http webhook's data: the verdict's flip and the two windows as the field data has them. */
  verdict?: { before: 'pass'; after: 'fail' };
  before?: object | null;
  after?: object;
}

/** A week of search traffic, `YYYY-MM-DD` inclusive. */
export interface SearchWeek {
  from: string;
  to: string;
  clicks: number;
  impressions: number;
}

/** Queued by lib/search/analytics.ts when the last 7 days' clicks fell past the alert's threshold. */
export interface SearchTrafficDropPayload {
  hostname: string;
  property?: string | null;
  last7: SearchWeek;
  previous7: SearchWeek;
  /** Change of clicks in percent (negative for a drop). */
  clicksChangePct: number | null;
  thresholdPct?: number;
  minClicks?: number;
}

export interface StakeholderReportPayload {
  hostname: string;
  /** YYYY-MM. */
  period: string;
}

/** What a status page's subscribers are told of: where, and which page to open (./subscribers.ts). */
export interface StatusPageNews {
  statusPageId: string;
  pageTitle: string;
  /** The page's slug when queued; the mail links to /status/{slug}. */
  slug: string;
}

/** An incident on a status page opened, updated or resolved, as the page words it. */
export interface StatusIncidentPayload extends StatusPageNews {
  incidentId: string;
  event: 'opened' | 'update' | 'resolved';
  /** The incident as the page names it: a manual incident's title, a monitor's name and cause. */
  name: string;
  /** The update's status and message, for an update (and a manual incident's first words). */
  status?: 'investigating' | 'identified' | 'monitoring' | 'resolved' | null;
  message?: string | null;
  startedAt: number;
  resolvedAt?: number | null;
}

/** A maintenance window announced on a status page. */
export interface StatusMaintenancePayload extends StatusPageNews {
  windowId: string;
  /** Scheduled, begun, moved (new times), cancelled before it began, or ended early (deleted while under way). */
  event: 'scheduled' | 'started' | 'rescheduled' | 'cancelled' | 'ended';
  title: string;
  startsAt: number;
  endsAt: number;
  /** The page's services it covers, by their names on the page. */
  services: string[];
}

// ---- a notification: a kind and its payload ------------------------------------------------------

/** Each kind's payload. */
export interface NotificationPayloads {
  'uptime-down': UptimeDownPayload;
  'uptime-recovered': UptimeRecoveredPayload;
  'certificate-expiring': CertificateExpiringPayload;
  'domain-expiring': DomainExpiringPayload;
  'crawl-summary': CrawlSummaryPayload;
  'allowance-reached': AllowanceReachedPayload;
  'perf-regression': PerfRegressionPayload;
  'search-traffic-drop': SearchTrafficDropPayload;
  'stakeholder-report': StakeholderReportPayload;
  'status-incident': StatusIncidentPayload;
  'status-maintenance': StatusMaintenancePayload;
}

/** A notification as a producer queues it, discriminated by its kind. */
export type Notification = {
  [K in NotificationKind]: { kind: K; payload: NotificationPayloads[K] };
}[NotificationKind];

/**
 * A payload as the formats read it: one queued by an earlier release may lack a field added since,
 * and is still delivered (the formats leave out what is missing). A test send has no payload.
 */
export type StoredPayloads = { [K in NotificationKind]: Partial<NotificationPayloads[K]> } & {
  test: Record<string, never>;
};

/** A queued notification as the outbox row holds it, discriminated by its kind. */
export type StoredNotification = {
  [K in keyof StoredPayloads]: { kind: K; payload: StoredPayloads[K] };
}[keyof StoredPayloads];

/**
 * An outbox row's kind and payload as the notification they are. The payload is the jsonb that
 * `enqueueNotification` wrote from a `Notification` of that very kind, so it is taken as that kind's
 * (fields may be missing, see StoredPayloads); null for a kind this release does not know.
 */
export function storedNotification(row: { kind: string; payload: unknown }): StoredNotification | null {
  if (!isNotificationKind(row.kind)) return null;
  return { kind: row.kind, payload: row.payload ?? {} } as StoredNotification;
}
