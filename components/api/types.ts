/**
 * The /v1 bodies the dashboard reads, as the API's response schemas declare them: one description
 * per resource, so a field the API adds or retypes reaches these types without a hand-written copy.
 *
 * Type-only imports, and they must stay so: they are erased at build, whereas a value import would
 * pull the zod schemas and everything they import (lib/net, the database schema) into the browser
 * bundle.
 */
import type { z } from 'zod';
import type { a11yReportResponse, suppressionResponse } from '@/lib/api/schemas/a11y';
import type { accountSessionsResponse } from '@/lib/api/schemas/account';
import type { billingResponse } from '@/lib/api/schemas/billing';
import type { seoReportResponse } from '@/lib/api/schemas/crawl';
import type {
  brokenTargetsResponse,
  redirectsResponse,
  urlDetailsResponse,
} from '@/lib/api/schemas/crawl-views';
import type {
  fieldDataResponse,
  fieldDataSyncResponse,
  fieldWindowSchema,
} from '@/lib/api/schemas/fielddata';
import type { pagesResponse, runsResponse } from '@/lib/api/schemas/history';
import type { apiKeyView, keyWithSecretResponse, listKeysResponse } from '@/lib/api/schemas/keys';
import type { limitRequestView, orgQuotaResponse } from '@/lib/api/schemas/limits';
import type { listMaintenanceWindowsResponse, maintenanceWindowSchema } from '@/lib/api/schemas/maintenance';
import type { listMembersResponse, memberView } from '@/lib/api/schemas/members';
import type {
  alertOfferResponse,
  deliveriesResponse,
  notificationSettingsSchema,
  orgNotificationsResponse,
  receiverHealthSchema,
  receiversResponse,
  signingSecretResponse,
  siteNotificationsResponse,
  testNotificationBody,
} from '@/lib/api/schemas/notifications';
import type {
  a11yLiveStateSchema,
  brokenLinkReportResponse,
  brokenLinkSchema,
  crawlTriggerResponse,
  listSitesResponse,
  liveCrawlStateSchema,
  runSchema,
  siteQuotaSchema,
  siteResponse,
  siteSchema,
  siteStatusResponse,
} from '@/lib/api/schemas/resources';
import type {
  searchAnalyticsResponse,
  searchConnectionResponse,
  searchConnectResponse,
  searchPropertiesResponse,
} from '@/lib/api/schemas/search';
import type {
  listPageIncidentsResponse,
  listStatusPagesResponse,
  pageIncidentSchema,
  statusPageSchema,
} from '@/lib/api/schemas/statuspages';
import type {
  hourlyBucketSchema,
  incidentSchema,
  monitorListResponse,
  monitorLiveResponse,
  monitorLiveState,
  monitorMetricsResponse,
  monitorResponse,
  monitorSchema,
  regionProbeSchema,
  roundConsensusSchema,
} from '@/lib/api/schemas/uptime';
import type { orgUsageResponse } from '@/lib/api/schemas/usage';

export type Site = z.output<typeof siteSchema>;
export type Run = z.output<typeof runSchema>;
export type LiveCrawlState = z.output<typeof liveCrawlStateSchema>;
export type A11yLiveState = z.output<typeof a11yLiveStateSchema>;
export type BrokenLink = z.output<typeof brokenLinkSchema>;
export type Quota = z.output<typeof siteQuotaSchema>;

export type SiteResponse = z.output<typeof siteResponse>;
export type SitesResponse = z.output<typeof listSitesResponse>;
export type SiteStatus = z.output<typeof siteStatusResponse>;
export type CrawlTriggerResponse = z.output<typeof crawlTriggerResponse>;
export type BrokenLinkReport = z.output<typeof brokenLinkReportResponse>;
export type SeoReport = z.output<typeof seoReportResponse>;
export type SeoReportCheck = SeoReport['checks'][number];
export type BrokenTargetList = z.output<typeof brokenTargetsResponse>;
export type BrokenTarget = BrokenTargetList['targets'][number];
export type RedirectList = z.output<typeof redirectsResponse>;
export type Redirect = RedirectList['redirects'][number];
export type UrlDetails = z.output<typeof urlDetailsResponse>;
export type PageList = z.output<typeof pagesResponse>;
export type CrawledPage = PageList['pages'][number];
export type RunList = z.output<typeof runsResponse>;

export type A11yReport = z.output<typeof a11yReportResponse>;
export type A11yFinding = A11yReport['issues'][number];
export type A11yCriterion =
  A11yReport['coverage']['principles'][number]['guidelines'][number]['criteria'][number];
export type A11yManualCheck = A11yReport['manualChecks'][string];
export type A11ySuppression = A11yReport['suppressions'][number];
export type A11ySuppressionResponse = z.output<typeof suppressionResponse>;

export type Billing = z.output<typeof billingResponse>;
export type OrgUsage = z.output<typeof orgUsageResponse>;

export type ApiKeyView = z.output<typeof apiKeyView>;
export type KeysResponse = z.output<typeof listKeysResponse>;
export type KeyWithSecret = z.output<typeof keyWithSecretResponse>;

export type MemberView = z.output<typeof memberView>;
export type MembersResponse = z.output<typeof listMembersResponse>;

export type OrgQuota = z.output<typeof orgQuotaResponse>;
export type AccountSessions = z.output<typeof accountSessionsResponse>;
export type AccountSession = AccountSessions['sessions'][number];
export type LimitRequestView = z.output<typeof limitRequestView>;

export type StatusPage = z.output<typeof statusPageSchema>;
export type StatusPagesResponse = z.output<typeof listStatusPagesResponse>;
export type PageIncident = z.output<typeof pageIncidentSchema>;
export type PageIncidentsResponse = z.output<typeof listPageIncidentsResponse>;

export type UptimeMonitor = z.output<typeof monitorSchema>;
export type UptimeIncident = z.output<typeof incidentSchema>;
export type HourlyBucket = z.output<typeof hourlyBucketSchema>;
export type RegionProbe = z.output<typeof regionProbeSchema>;
export type RoundConsensus = z.output<typeof roundConsensusSchema>;
export type MonitorResponse = z.output<typeof monitorResponse>;
export type MonitorsResponse = z.output<typeof monitorListResponse>;
/** The monitor page's one read: the live state with the uptime windows and incidents read with it. */
export type MonitorSnapshot = z.output<typeof monitorLiveResponse>;
/** The live state alone, as the monitors list has it for each monitor. */
export type MonitorLive = z.output<typeof monitorLiveState>;
export type UptimeWindow = MonitorSnapshot['uptime'][number];
export type MonitorLiveRegion = MonitorLive['regions'][number];
export type MonitorMetrics = z.output<typeof monitorMetricsResponse>;
export type MaintenanceWindow = z.output<typeof maintenanceWindowSchema>;
export type MaintenanceWindowsResponse = z.output<typeof listMaintenanceWindowsResponse>;

export type FieldDataReport = z.output<typeof fieldDataResponse>;
export type FieldWindow = z.output<typeof fieldWindowSchema>;
export type FieldDataSyncResponse = z.output<typeof fieldDataSyncResponse>;
export type SearchConnection = z.output<typeof searchConnectionResponse>;
export type SearchConnectResponse = z.output<typeof searchConnectResponse>;
export type SearchProperties = z.output<typeof searchPropertiesResponse>;
export type SearchAnalytics = z.output<typeof searchAnalyticsResponse>;

export type OrgNotifications = z.output<typeof orgNotificationsResponse>;
export type AlertOfferResponse = z.output<typeof alertOfferResponse>;
export type NotificationSettings = z.output<typeof notificationSettingsSchema>;
export type NotificationRecipient = NotificationSettings['uptimeRecipients'][number];
export type NotificationWebhook = NotificationSettings['uptimeWebhooks'][number];
export type SiteNotifications = z.output<typeof siteNotificationsResponse>;
export type SigningSecret = z.output<typeof signingSecretResponse>;
/** POST /v1/notifications/test's body (one of `email` and `webhook`; parsed, it has the same shape). */
export type NotificationTestBody = z.output<typeof testNotificationBody>;
export type DeliveryList = z.output<typeof deliveriesResponse>;
export type Delivery = DeliveryList['deliveries'][number];
export type ReceiversResponse = z.output<typeof receiversResponse>;
export type ReceiverHealth = z.output<typeof receiverHealthSchema>;
/** An address the notifications name: its confirmation and unsubscribes (GET /v1/notifications `addresses`). */
export type NotificationAddress = OrgNotifications['addresses'][number];
