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
import type { billingResponse } from '@/lib/api/schemas/billing';
import type { seoReportResponse } from '@/lib/api/schemas/crawl';
import type { apiKeyView, keyWithSecretResponse, listKeysResponse } from '@/lib/api/schemas/keys';
import type { limitRequestView, orgQuotaResponse } from '@/lib/api/schemas/limits';
import type { listMembersResponse, memberView } from '@/lib/api/schemas/members';
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

export type A11yReport = z.output<typeof a11yReportResponse>;
export type A11yFinding = A11yReport['issues'][number];
export type A11yCriterion =
  A11yReport['coverage']['principles'][number]['guidelines'][number]['criteria'][number];
export type A11yManualCheck = A11yReport['manualChecks'][string];
export type A11ySuppression = A11yReport['suppressions'][number];
export type A11ySuppressionResponse = z.output<typeof suppressionResponse>;

export type Billing = z.output<typeof billingResponse>;

export type ApiKeyView = z.output<typeof apiKeyView>;
export type KeysResponse = z.output<typeof listKeysResponse>;
export type KeyWithSecret = z.output<typeof keyWithSecretResponse>;

export type MemberView = z.output<typeof memberView>;
export type MembersResponse = z.output<typeof listMembersResponse>;

export type OrgQuota = z.output<typeof orgQuotaResponse>;
export type LimitRequestView = z.output<typeof limitRequestView>;
