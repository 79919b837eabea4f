import * as billing from '@/app/api/v1/billing/route';
import * as keyReroll from '@/app/api/v1/keys/[id]/reroll/route';
import * as keyRevoke from '@/app/api/v1/keys/[id]/revoke/route';
import * as keys from '@/app/api/v1/keys/route';
import * as limitRequests from '@/app/api/v1/me/limit-requests/route';
import * as orgQuota from '@/app/api/v1/me/org-quota/route';
import * as memberAccess from '@/app/api/v1/members/[memberId]/access/route';
import * as member from '@/app/api/v1/members/[memberId]/route';
import * as members from '@/app/api/v1/members/route';
import * as siteA11yManualChecks from '@/app/api/v1/sites/[id]/a11y-manual-checks/route';
import * as siteA11yReport from '@/app/api/v1/sites/[id]/a11y-report/route';
import * as siteA11ySuppression from '@/app/api/v1/sites/[id]/a11y-suppressions/[suppressionId]/route';
import * as siteA11ySuppressions from '@/app/api/v1/sites/[id]/a11y-suppressions/route';
import * as siteCrawl from '@/app/api/v1/sites/[id]/crawl/route';
import * as siteReport from '@/app/api/v1/sites/[id]/report/route';
import * as site from '@/app/api/v1/sites/[id]/route';
import * as siteSeoReport from '@/app/api/v1/sites/[id]/seo-report/route';
import * as siteStatus from '@/app/api/v1/sites/[id]/status/route';
import * as siteUsage from '@/app/api/v1/sites/[id]/usage/route';
import * as sites from '@/app/api/v1/sites/route';
import * as usage from '@/app/api/v1/usage/route';
import type { RouteEntry } from '@/lib/api/openapi';

/** Every /v1 route, by public path. tests/integration/openapi.test.ts fails when one is missing. */
export const ROUTES: RouteEntry[] = [
  { path: '/v1/sites', handlers: sites },
  { path: '/v1/sites/{id}', handlers: site },
  { path: '/v1/sites/{id}/status', handlers: siteStatus },
  { path: '/v1/sites/{id}/crawl', handlers: siteCrawl },
  { path: '/v1/sites/{id}/report', handlers: siteReport },
  { path: '/v1/sites/{id}/seo-report', handlers: siteSeoReport },
  { path: '/v1/sites/{id}/a11y-report', handlers: siteA11yReport },
  { path: '/v1/sites/{id}/a11y-manual-checks', handlers: siteA11yManualChecks },
  { path: '/v1/sites/{id}/a11y-suppressions', handlers: siteA11ySuppressions },
  { path: '/v1/sites/{id}/a11y-suppressions/{suppressionId}', handlers: siteA11ySuppression },
  { path: '/v1/sites/{id}/usage', handlers: siteUsage },
  { path: '/v1/usage', handlers: usage },
  { path: '/v1/billing', handlers: billing },
  { path: '/v1/keys', handlers: keys },
  { path: '/v1/keys/{id}/reroll', handlers: keyReroll },
  { path: '/v1/keys/{id}/revoke', handlers: keyRevoke },
  { path: '/v1/members', handlers: members },
  { path: '/v1/members/{memberId}', handlers: member },
  { path: '/v1/members/{memberId}/access', handlers: memberAccess },
  { path: '/v1/me/limit-requests', handlers: limitRequests },
  { path: '/v1/me/org-quota', handlers: orgQuota },
];
