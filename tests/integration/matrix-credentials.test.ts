import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as searchCallbackRoute from '@/app/api/search/callback/route';
import * as billingRoute from '@/app/api/v1/billing/route';
import * as confirmRoute from '@/app/api/v1/confirm/[token]/route';
import * as rerollRoute from '@/app/api/v1/keys/[id]/reroll/route';
import * as revokeRoute from '@/app/api/v1/keys/[id]/revoke/route';
import * as keysRoute from '@/app/api/v1/keys/route';
import * as limitRequestsRoute from '@/app/api/v1/me/limit-requests/route';
import * as orgQuotaRoute from '@/app/api/v1/me/org-quota/route';
import * as accountSessionRoute from '@/app/api/v1/me/sessions/[sessionId]/route';
import * as accountSessionsRoute from '@/app/api/v1/me/sessions/route';
import * as memberAccessRoute from '@/app/api/v1/members/[memberId]/access/route';
import * as memberRoute from '@/app/api/v1/members/[memberId]/route';
import * as membersRoute from '@/app/api/v1/members/route';
import * as alertOfferRoute from '@/app/api/v1/notifications/alert-offer/route';
import * as confirmationsRoute from '@/app/api/v1/notifications/confirmations/route';
import * as deliveriesRoute from '@/app/api/v1/notifications/deliveries/route';
import * as receiversRoute from '@/app/api/v1/notifications/receivers/route';
import * as resubscribeRoute from '@/app/api/v1/notifications/resubscribe/route';
import * as notificationsRoute from '@/app/api/v1/notifications/route';
import * as signingSecretRoute from '@/app/api/v1/notifications/signing-secret/route';
import * as testNotificationRoute from '@/app/api/v1/notifications/test/route';
import * as organizationLogoRoute from '@/app/api/v1/organization/logo/route';
import * as organizationRoute from '@/app/api/v1/organization/route';
import * as a11yManualChecksRoute from '@/app/api/v1/sites/[id]/a11y-manual-checks/route';
import * as a11yReportRoute from '@/app/api/v1/sites/[id]/a11y-report/route';
import * as a11ySuppressionRoute from '@/app/api/v1/sites/[id]/a11y-suppressions/[suppressionId]/route';
import * as a11ySuppressionsRoute from '@/app/api/v1/sites/[id]/a11y-suppressions/route';
import * as brokenTargetsRoute from '@/app/api/v1/sites/[id]/broken-targets/route';
import * as crawlRoute from '@/app/api/v1/sites/[id]/crawl/route';
import * as fieldDataRoute from '@/app/api/v1/sites/[id]/fielddata/route';
import * as fieldDataSyncRoute from '@/app/api/v1/sites/[id]/fielddata/sync/route';
import * as maintenanceWindowRoute from '@/app/api/v1/sites/[id]/maintenance-windows/[windowId]/route';
import * as maintenanceWindowsRoute from '@/app/api/v1/sites/[id]/maintenance-windows/route';
import * as siteNotificationsRoute from '@/app/api/v1/sites/[id]/notifications/route';
import * as pagesRoute from '@/app/api/v1/sites/[id]/pages/route';
import * as redirectsRoute from '@/app/api/v1/sites/[id]/redirects/route';
import * as monthlyReportRoute from '@/app/api/v1/sites/[id]/reports/monthly/route';
import * as siteRoute from '@/app/api/v1/sites/[id]/route';
import * as runBrokenTargetsRoute from '@/app/api/v1/sites/[id]/runs/[runId]/broken-targets/route';
import * as runPagesRoute from '@/app/api/v1/sites/[id]/runs/[runId]/pages/route';
import * as runReportRoute from '@/app/api/v1/sites/[id]/runs/[runId]/report/route';
import * as runSeoReportRoute from '@/app/api/v1/sites/[id]/runs/[runId]/seo-report/route';
import * as runsRoute from '@/app/api/v1/sites/[id]/runs/route';
import * as searchAnalyticsRoute from '@/app/api/v1/sites/[id]/search/analytics/route';
import * as searchConnectRoute from '@/app/api/v1/sites/[id]/search/connect/route';
import * as searchPropertiesRoute from '@/app/api/v1/sites/[id]/search/properties/route';
import * as searchPropertyRoute from '@/app/api/v1/sites/[id]/search/property/route';
import * as searchRoute from '@/app/api/v1/sites/[id]/search/route';
import * as statusRoute from '@/app/api/v1/sites/[id]/status/route';
import * as monitorLiveRoute from '@/app/api/v1/sites/[id]/uptime/monitors/[monitorId]/live/route';
import * as monitorMetricsRoute from '@/app/api/v1/sites/[id]/uptime/monitors/[monitorId]/metrics/route';
import * as monitorPingUrlRotateRoute from '@/app/api/v1/sites/[id]/uptime/monitors/[monitorId]/ping-url/rotate/route';
import * as monitorRoute from '@/app/api/v1/sites/[id]/uptime/monitors/[monitorId]/route';
import * as monitorsRoute from '@/app/api/v1/sites/[id]/uptime/monitors/route';
import * as urlDetailsRoute from '@/app/api/v1/sites/[id]/url-details/route';
import * as siteUsageRoute from '@/app/api/v1/sites/[id]/usage/route';
import * as sitesRoute from '@/app/api/v1/sites/route';
import * as incidentUpdatesRoute from '@/app/api/v1/status-pages/[id]/incidents/[incidentId]/updates/route';
import * as pageIncidentsRoute from '@/app/api/v1/status-pages/[id]/incidents/route';
import * as statusPageRoute from '@/app/api/v1/status-pages/[id]/route';
import * as statusPagesRoute from '@/app/api/v1/status-pages/route';
import * as unsubscribeRoute from '@/app/api/v1/unsubscribe/[token]/route';
import * as usageRoute from '@/app/api/v1/usage/route';
import { storePageScans } from '@/lib/a11y/engine/store';
import type { Db } from '@/lib/db/client';
import {
  apiKeys,
  crawlUrls,
  fieldData,
  runs,
  searchAnalytics,
  searchConnections,
  sessions,
  sites,
} from '@/lib/db/schema';
import { type RequestBody, v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { addMember, call, signInOwner } from '../support/http';

/*
 * Requests made by hand, not through the typed client (tests/support/api-client): each row of
 * MATRIX is a method and a path whose placeholders the table fills per caller, sent to the handler
 * REQUESTS names; the paths are data, not literals a typed call can check. The fixtures go through
 * the typed client.
 */

/*
 * Who may do what (spec Authentication rules 6 to 8), one organization, every kind of caller:
 *
 * owner, admin           sessions with full management
 * member                 a member with no grants (default-deny) and no crawl permission
 * member+site            a member granted the site {granted}, without crawl permission
 * member+crawl           a member granted {granted}, with crawl permission
 * key                    an API key for every site
 * scoped-key             an API key restricted to {granted}
 * revoked-key            a revoked key; expired-key: a key past its lifetime
 * none                   no credential at all
 *
 * {granted} is the site granted to the members and the scoped key; {other} is a site outside those
 * grants; {fresh...} is a resource made for that one cell (so deleting it cannot spoil the next).
 * A site the caller cannot see is 404 before any role check (a 403 would confirm it exists); a
 * visible site the role may not change is 403.
 * `2xx` is a crawl trigger: 202 when it started a crawl, 200 when one was already running.
 * 409 on the field-data sync and the search connection's Google calls: the caller was allowed, but this
 * server has no CrUX key or Google client (tests/integration/fielddata.test.ts and search.test.ts
 * cover them configured). The search callback is 403 for every session: no state was issued to it.
 */
const MATRIX = `
  request                          | owner | admin | member | member+site | member+crawl | key | scoped-key | revoked-key | expired-key | none
  GET    /sites                    | 200   | 200   | 200    | 200         | 200          | 200 | 200        | 401         | 401         | 401
  POST   /sites                    | 201   | 201   | 403    | 403         | 403          | 201 | 403        | 401         | 401         | 401
  GET    /sites/{granted}          | 200   | 200   | 404    | 200         | 200          | 200 | 200        | 401         | 401         | 401
  GET    /sites/{other}            | 200   | 200   | 404    | 404         | 404          | 200 | 404        | 401         | 401         | 401
  PATCH  /sites/{granted}          | 200   | 200   | 404    | 403         | 403          | 200 | 200        | 401         | 401         | 401
  PATCH  /sites/{other}            | 200   | 200   | 404    | 404         | 404          | 200 | 404        | 401         | 401         | 401
  DELETE /sites/{fresh site}       | 200   | 200   | 404    | 404         | 404          | 200 | 404        | 401         | 401         | 401
  GET    /sites/{granted}/status   | 200   | 200   | 404    | 200         | 200          | 200 | 200        | 401         | 401         | 401
  GET    /sites/{other}/status     | 200   | 200   | 404    | 404         | 404          | 200 | 404        | 401         | 401         | 401
  GET    /sites/{granted}/usage    | 200   | 200   | 404    | 200         | 200          | 200 | 200        | 401         | 401         | 401
  GET    /sites/{granted}/a11y-report | 200 | 200   | 404    | 200         | 200          | 200 | 200        | 401         | 401         | 401
  GET    /sites/{other}/a11y-report | 200  | 200   | 404    | 404         | 404          | 200 | 404        | 401         | 401         | 401
  GET    /sites/{granted}/reports/monthly | 200 | 200 | 404 | 200       | 200          | 200 | 200        | 401         | 401         | 401
  GET    /sites/{other}/reports/monthly | 200 | 200 | 404  | 404         | 404          | 200 | 404        | 401         | 401         | 401
  GET    /sites/{granted}/runs     | 200   | 200   | 404    | 200         | 200          | 200 | 200        | 401         | 401         | 401
  GET    /sites/{other}/runs       | 200   | 200   | 404    | 404         | 404          | 200 | 404        | 401         | 401         | 401
  GET    /sites/{granted}/pages    | 200   | 200   | 404    | 200         | 200          | 200 | 200        | 401         | 401         | 401
  GET    /sites/{other}/pages      | 200   | 200   | 404    | 404         | 404          | 200 | 404        | 401         | 401         | 401
  GET    /sites/{granted}/broken-targets | 200 | 200 | 404  | 200         | 200          | 200 | 200        | 401         | 401         | 401
  GET    /sites/{other}/broken-targets | 200 | 200  | 404    | 404         | 404          | 200 | 404        | 401         | 401         | 401
  GET    /sites/{granted}/redirects | 200  | 200   | 404    | 200         | 200          | 200 | 200        | 401         | 401         | 401
  GET    /sites/{other}/redirects  | 200   | 200   | 404    | 404         | 404          | 200 | 404        | 401         | 401         | 401
  GET    /sites/{granted}/url-details | 200 | 200  | 404    | 200         | 200          | 200 | 200        | 401         | 401         | 401
  GET    /sites/{other}/url-details | 200  | 200   | 404    | 404         | 404          | 200 | 404        | 401         | 401         | 401
  GET    /sites/{granted}/runs/{crawl}/report | 200 | 200 | 404 | 200     | 200          | 200 | 200        | 401         | 401         | 401
  GET    /sites/{other}/runs/{crawl}/report | 200 | 200 | 404  | 404       | 404          | 200 | 404        | 401         | 401         | 401
  GET    /sites/{granted}/runs/{crawl}/seo-report | 200 | 200 | 404 | 200 | 200          | 200 | 200        | 401         | 401         | 401
  GET    /sites/{other}/runs/{crawl}/seo-report | 200 | 200 | 404 | 404   | 404          | 200 | 404        | 401         | 401         | 401
  GET    /sites/{granted}/runs/{crawl}/pages | 200 | 200 | 404 | 200      | 200          | 200 | 200        | 401         | 401         | 401
  GET    /sites/{other}/runs/{crawl}/pages | 200 | 200  | 404  | 404       | 404          | 200 | 404        | 401         | 401         | 401
  GET    /sites/{granted}/runs/{crawl}/broken-targets | 200 | 200 | 404 | 200 | 200       | 200 | 200        | 401         | 401         | 401
  GET    /sites/{other}/runs/{crawl}/broken-targets | 200 | 200 | 404 | 404 | 404          | 200 | 404        | 401         | 401         | 401
  PUT    /sites/{granted}/a11y-manual-checks | 200 | 200 | 404 | 403      | 403          | 200 | 200        | 401         | 401         | 401
  GET    /sites/{granted}/a11y-suppressions | 200 | 200 | 404 | 200       | 200          | 200 | 200        | 401         | 401         | 401
  POST   /sites/{granted}/a11y-suppressions | 201 | 201 | 404 | 403       | 403          | 201 | 201        | 401         | 401         | 401
  DELETE /sites/{granted}/a11y-suppressions/{fresh suppression} | 200 | 200 | 404 | 403 | 403 | 200 | 200  | 401         | 401         | 401
  GET    /sites/{granted}/uptime/monitors | 200 | 200 | 404  | 200         | 200          | 200 | 200        | 401         | 401         | 401
  GET    /sites/{other}/uptime/monitors | 200 | 200  | 404    | 404         | 404          | 200 | 404        | 401         | 401         | 401
  POST   /sites/{granted}/uptime/monitors | 201 | 201 | 404  | 403         | 403          | 201 | 201        | 401         | 401         | 401
  POST   /sites/{other}/uptime/monitors | 201 | 201  | 404    | 404         | 404          | 201 | 404        | 401         | 401         | 401
  GET    /sites/{granted}/uptime/monitors/{monitor} | 200 | 200 | 404 | 200 | 200          | 200 | 200        | 401         | 401         | 401
  GET    /sites/{other}/uptime/monitors/{monitor} | 200 | 200 | 404 | 404   | 404          | 200 | 404        | 401         | 401         | 401
  PATCH  /sites/{granted}/uptime/monitors/{monitor} | 200 | 200 | 404 | 403 | 403          | 200 | 200        | 401         | 401         | 401
  PATCH  /sites/{other}/uptime/monitors/{monitor} | 200 | 200 | 404 | 404   | 404          | 200 | 404        | 401         | 401         | 401
  DELETE /sites/{granted}/uptime/monitors/{fresh monitor} | 200 | 200 | 404 | 403 | 403  | 200 | 200        | 401         | 401         | 401
  GET    /sites/{granted}/uptime/monitors/{monitor}/live | 200 | 200 | 404 | 200 | 200     | 200 | 200        | 401         | 401         | 401
  GET    /sites/{other}/uptime/monitors/{monitor}/live | 200 | 200 | 404 | 404  | 404      | 200 | 404        | 401         | 401         | 401
  GET    /sites/{granted}/uptime/monitors/{monitor}/metrics | 200 | 200 | 404 | 200 | 200  | 200 | 200        | 401         | 401         | 401
  GET    /sites/{other}/uptime/monitors/{monitor}/metrics | 200 | 200 | 404 | 404 | 404    | 200 | 404        | 401         | 401         | 401
  GET    /sites/{granted}/maintenance-windows | 200 | 200 | 404 | 200      | 200          | 200 | 200        | 401         | 401         | 401
  GET    /sites/{other}/maintenance-windows | 200 | 200 | 404  | 404         | 404          | 200 | 404        | 401         | 401         | 401
  POST   /sites/{granted}/maintenance-windows | 201 | 201 | 404 | 403     | 403          | 201 | 201        | 401         | 401         | 401
  POST   /sites/{other}/maintenance-windows | 201 | 201 | 404  | 404         | 404          | 201 | 404        | 401         | 401         | 401
  GET    /sites/{granted}/maintenance-windows/{window} | 200 | 200 | 404 | 200 | 200      | 200 | 200        | 401         | 401         | 401
  GET    /sites/{other}/maintenance-windows/{window} | 200 | 200 | 404 | 404 | 404          | 200 | 404        | 401         | 401         | 401
  PATCH  /sites/{granted}/maintenance-windows/{window} | 200 | 200 | 404 | 403 | 403      | 200 | 200        | 401         | 401         | 401
  PATCH  /sites/{other}/maintenance-windows/{window} | 200 | 200 | 404 | 404 | 404        | 200 | 404        | 401         | 401         | 401
  DELETE /sites/{granted}/maintenance-windows/{fresh window} | 200 | 200 | 404 | 403 | 403 | 200 | 200      | 401         | 401         | 401
  POST   /sites/{granted}/uptime/monitors/{heartbeat}/ping-url/rotate | 200 | 200 | 404 | 403 | 403 | 200 | 200   | 401         | 401         | 401
  POST   /sites/{other}/uptime/monitors/{heartbeat}/ping-url/rotate | 200 | 200 | 404 | 404 | 404   | 200 | 404    | 401         | 401         | 401
  GET    /sites/{granted}/fielddata | 200  | 200   | 404    | 200         | 200          | 200 | 200        | 401         | 401         | 401
  GET    /sites/{other}/fielddata  | 200   | 200   | 404    | 404         | 404          | 200 | 404        | 401         | 401         | 401
  POST   /sites/{granted}/fielddata/sync | 409 | 409 | 404  | 403         | 403          | 409 | 409        | 401         | 401         | 401
  GET    /sites/{granted}/search   | 200   | 200   | 404    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  PATCH  /sites/{granted}/search   | 200   | 200   | 404    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  DELETE /sites/{granted}/search   | 200   | 200   | 404    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  POST   /sites/{granted}/search/connect | 409 | 409 | 404  | 403         | 403          | 403 | 403        | 401         | 401         | 401
  GET    /sites/{granted}/search/properties | 409 | 409 | 404 | 403       | 403          | 403 | 403        | 401         | 401         | 401
  POST   /sites/{granted}/search/property | 409 | 409 | 404 | 403         | 403          | 403 | 403        | 401         | 401         | 401
  GET    /sites/{granted}/search/analytics | 200 | 200 | 404 | 200        | 200          | 200 | 200        | 401         | 401         | 401
  GET    /sites/{other}/search/analytics | 200 | 200  | 404  | 404         | 404          | 200 | 404        | 401         | 401         | 401
  GET    /search/callback          | 403   | 403   | 403    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  POST   /sites/{granted}/crawl    | 2xx   | 2xx   | 404    | 403         | 2xx          | 2xx | 2xx        | 401         | 401         | 401
  POST   /sites/{other}/crawl      | 2xx   | 2xx   | 404    | 404         | 404          | 2xx | 404        | 401         | 401         | 401
  GET    /status-pages             | 200   | 200   | 403    | 403         | 403          | 200 | 403        | 401         | 401         | 401
  POST   /status-pages             | 201   | 201   | 403    | 403         | 403          | 201 | 403        | 401         | 401         | 401
  GET    /status-pages/{page}      | 200   | 200   | 403    | 403         | 403          | 200 | 403        | 401         | 401         | 401
  PATCH  /status-pages/{page}      | 200   | 200   | 403    | 403         | 403          | 200 | 403        | 401         | 401         | 401
  DELETE /status-pages/{fresh page} | 200  | 200   | 403    | 403         | 403          | 200 | 403        | 401         | 401         | 401
  GET    /status-pages/{page}/incidents | 200 | 200 | 403   | 403         | 403          | 200 | 403        | 401         | 401         | 401
  POST   /status-pages/{page}/incidents | 201 | 201 | 403   | 403         | 403          | 201 | 403        | 401         | 401         | 401
  POST   /status-pages/{page}/incidents/{incident}/updates | 201 | 201 | 403 | 403 | 403    | 201 | 403        | 401         | 401         | 401
  GET    /keys                     | 200   | 200   | 403    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  POST   /keys                     | 201   | 201   | 403    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  POST   /keys/{fresh key}/reroll  | 200   | 200   | 403    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  POST   /keys/{fresh key}/revoke  | 200   | 200   | 403    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  GET    /members                  | 200   | 200   | 403    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  PATCH  /members/{spare}          | 200   | 200   | 403    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  PATCH  /members/{spare}/access   | 200   | 200   | 403    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  DELETE /members/{fresh member}   | 200   | 200   | 403    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  GET    /billing                  | 200   | 200   | 403    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  PATCH  /billing                  | 200   | 200   | 403    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  GET    /usage                    | 200   | 200   | 403    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  GET    /organization             | 200   | 200   | 200    | 200         | 200          | 403 | 403        | 401         | 401         | 401
  PATCH  /organization             | 200   | 200   | 403    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  PUT    /organization/logo        | 200   | 200   | 403    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  DELETE /organization/logo        | 200   | 200   | 403    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  GET    /me/org-quota             | 200   | 200   | 200    | 200         | 200          | 403 | 403        | 401         | 401         | 401
  GET    /me/sessions              | 200   | 200   | 200    | 200         | 200          | 403 | 403        | 401         | 401         | 401
  DELETE /me/sessions/{fresh owner session} | 200 | 404 | 404 | 404       | 404          | 403 | 403        | 401         | 401         | 401
  GET    /notifications            | 200   | 200   | 403    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  PATCH  /notifications            | 200   | 200   | 403    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  POST   /notifications/test       | 200   | 200   | 403    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  GET    /notifications/alert-offer | 200  | 200   | 403    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  POST   /notifications/alert-offer | 200  | 200   | 403    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  POST   /notifications/signing-secret | 200 | 200 | 403    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  GET    /notifications/deliveries | 200   | 200   | 403    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  GET    /notifications/receivers  | 200   | 200   | 403    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  POST   /notifications/confirmations | 409 | 409  | 403    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  POST   /notifications/resubscribe | 404  | 404   | 403    | 403         | 403          | 403 | 403        | 401         | 401         | 401
  POST   /confirm/{bogus}          | 404   | 404   | 404    | 404         | 404          | 404 | 404        | 404         | 404         | 404
  POST   /unsubscribe/{bogus}      | 404   | 404   | 404    | 404         | 404          | 404 | 404        | 404         | 404         | 404
  GET    /sites/{granted}/notifications | 200 | 200 | 404   | 403         | 403          | 403 | 403        | 401         | 401         | 401
  GET    /sites/{other}/notifications | 200 | 200  | 404    | 404         | 404          | 403 | 403        | 401         | 401         | 401
  PATCH  /sites/{granted}/notifications | 200 | 200 | 404   | 403         | 403          | 403 | 403        | 401         | 401         | 401
  DELETE /sites/{granted}/notifications | 200 | 200 | 404   | 403         | 403          | 403 | 403        | 401         | 401         | 401
  POST   /me/limit-requests        | 201   | 201   | 201    | 201         | 201          | 403 | 403        | 401         | 401         | 401
`;

type Handler = Parameters<typeof call>[0];
type Fixture = { granted: string; other: string; spareMemberId: string };
type MatrixRequest = {
  handler: Handler;
  method: string;
  /** The target id for this cell: a fixture, or a resource made just for it. */
  target?: (f: Fixture) => Promise<string> | string;
  /** The body, or a function making one per call (a body that can be sent only once). */
  body?: unknown;
  /** The path param the target fills, or every param when the path names two resources. */
  params?: 'id' | 'memberId' | ((target: string) => Record<string, string>);
  path: (target: string) => string;
};

let db: Db;
let teardown: () => Promise<void>;
let ownerToken: string;
let ownerUserId: string;
let tenantId: string;
let fixture: Fixture;
const credentials: Record<string, { token?: string; apiKey?: string }> = {};

const freshSite = async () => {
  const res = await v1({ token: ownerToken }).POST('/v1/sites', {
    body: { rootUrl: `https://fresh-${Math.random().toString(36).slice(2)}.example/` },
  });
  if (res.status !== 201) throw new Error(`fixture site: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.site.id as string;
};
const freshKey = async () => {
  const res = await v1({ token: ownerToken }).POST('/v1/keys', { body: { name: 'fresh' } });
  return res.body.key.id as string;
};
const freshSuppression = async (f: Fixture) => {
  const res = await v1({ token: ownerToken }).POST('/v1/sites/{id}/a11y-suppressions', {
    params: { path: { id: f.granted } },
    body: { rule: 'region' },
  });
  if (res.status !== 201) throw new Error(`fixture suppression: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.suppression.id as string;
};
const freshMonitor = async (f: Fixture) => {
  const res = await v1({ token: ownerToken }).POST('/v1/sites/{id}/uptime/monitors', {
    params: { path: { id: f.granted } },
    body: { url: 'https://matrix.example/health' },
  });
  if (res.status !== 201) throw new Error(`fixture monitor: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.monitor.id as string;
};
let published = 0;
/** The status page listing {granted}'s monitor (beforeAll), and a manual incident open on it. */
let statusPageId: string;
let manualIncidentId: string;
const freshStatusPage = async () => {
  const res = await v1({ token: ownerToken }).POST('/v1/status-pages', {
    body: { slug: `matrix-fresh-${++published}`, title: 'Fresh', monitorIds: [monitorOf[fixture.granted]!] },
  });
  if (res.status !== 201) throw new Error(`fixture status page: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.statusPage.id as string;
};
/** The monitor made for each fixture site (beforeAll), by site id. */
const monitorOf: Record<string, string> = {};
/** The heartbeat monitor made for each fixture site (beforeAll), by site id. */
const heartbeatOf: Record<string, string> = {};
/** A request on {granted} and on {other}'s own monitor: `/sites/{site}/uptime/monitors/{monitor}<suffix>`. */
const perMonitor = (
  method: string,
  suffix: string,
  handler: Handler,
  body?: unknown,
): Record<string, MatrixRequest> =>
  Object.fromEntries(
    (['granted', 'other'] as const).map((which) => [
      `${method} /sites/{${which}}/uptime/monitors/{monitor}${suffix}`,
      {
        handler,
        method,
        body,
        target: (f: Fixture) => f[which],
        params: (siteId: string) => ({ id: siteId, monitorId: monitorOf[siteId]! }),
        path: (siteId: string) => `/api/v1/sites/${siteId}/uptime/monitors/${monitorOf[siteId]}${suffix}`,
      },
    ]),
  );

/** A window an hour ahead, on the site: the body a caller schedules one with. */
const windowBody = () => ({
  title: 'Matrix upgrade',
  startsAt: Date.now() + 3_600_000,
  endsAt: Date.now() + 7_200_000,
});
const freshWindow = async (siteId: string) => {
  const res = await v1({ token: ownerToken }).POST('/v1/sites/{id}/maintenance-windows', {
    params: { path: { id: siteId } },
    body: windowBody(),
  });
  if (res.status !== 201) throw new Error(`fixture window: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.maintenanceWindow.id as string;
};
/** The maintenance window made for each fixture site (beforeAll), by site id. */
const windowOf: Record<string, string> = {};
/** A request on {granted}'s and on {other}'s own window: `/sites/{site}/maintenance-windows/{window}`. */
const perWindow = (method: string, handler: Handler, body?: unknown): Record<string, MatrixRequest> =>
  Object.fromEntries(
    (['granted', 'other'] as const).map((which) => [
      `${method} /sites/{${which}}/maintenance-windows/{window}`,
      {
        handler,
        method,
        body,
        target: (f: Fixture) => f[which],
        params: (siteId: string) => ({ id: siteId, windowId: windowOf[siteId]! }),
        path: (siteId: string) => `/api/v1/sites/${siteId}/maintenance-windows/${windowOf[siteId]}`,
      },
    ]),
  );

/** A GET on {granted} and on {other}: `/sites/{site}<suffix>`. */
const perSite = (method: string, suffix: string, handler: Handler): Record<string, MatrixRequest> =>
  Object.fromEntries(
    (['granted', 'other'] as const).map((which) => [
      `${method} /sites/{${which}}${suffix}`,
      { handler, method, target: (f: Fixture) => f[which], params: 'id' as const, path: site(suffix) },
    ]),
  );
/** Stores a connected search property for the site (the OAuth flow is search.test.ts's). */
const connectSearch = async (siteId: string) => {
  const values = {
    status: 'connected' as const,
    property: 'https://matrix.example/',
    updated_at: Date.now(),
  };
  await db
    .insert(searchConnections)
    .values({ tenant_id: tenantId, site_id: siteId, created_at: Date.now(), ...values })
    .onConflictDoUpdate({ target: [searchConnections.tenant_id, searchConnections.site_id], set: values });
};

let joined = 0;
/** Another sign-in of the owner's (a second device): only the owner may end it; to anyone else it is not found. */
const freshOwnerSession = async () => {
  const id = randomUUID();
  await db.insert(sessions).values({
    id,
    token: randomUUID(),
    userId: ownerUserId,
    activeOrganizationId: tenantId,
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  return id;
};
const freshMember = async () =>
  (await addMember(db, { ownerToken, tenantId, email: `fresh-${++joined}@matrix.test`, role: 'member' }))
    .memberId;

const site =
  (suffix = '') =>
  (id: string) =>
    `/api/v1/sites/${id}${suffix}`;

/** The crawl run stored for each fixture site (beforeAll), by site id. */
const crawlRunOf: Record<string, string> = {};
/** GET /sites/{site}/runs/{its crawl}/<report>, on the granted site and on the other one. */
const perRun = (report: string, handler: Handler): Record<string, MatrixRequest> =>
  Object.fromEntries(
    (['granted', 'other'] as const).map((which) => [
      `GET /sites/{${which}}/runs/{crawl}/${report}`,
      {
        handler,
        method: 'GET',
        target: (f: Fixture) => f[which],
        params: (siteId: string) => ({ id: siteId, runId: crawlRunOf[siteId]! }),
        path: (siteId: string) => `/api/v1/sites/${siteId}/runs/${crawlRunOf[siteId]}/${report}`,
      },
    ]),
  );

/** What each row label of MATRIX sends. */
const REQUESTS: Record<string, MatrixRequest> = {
  'GET /sites': { handler: sitesRoute.GET, method: 'GET', path: () => '/api/v1/sites' },
  'POST /sites': {
    handler: sitesRoute.POST,
    method: 'POST',
    path: () => '/api/v1/sites',
    // An organization registers a root URL once: each cell registers its own.
    body: () => ({ rootUrl: `https://created-by-matrix-${Math.random().toString(36).slice(2)}.example/` }),
  },
  'GET /sites/{granted}': {
    handler: siteRoute.GET,
    method: 'GET',
    target: (f) => f.granted,
    params: 'id',
    path: site(),
  },
  'GET /sites/{other}': {
    handler: siteRoute.GET,
    method: 'GET',
    target: (f) => f.other,
    params: 'id',
    path: site(),
  },
  'PATCH /sites/{granted}': {
    handler: siteRoute.PATCH,
    method: 'PATCH',
    target: (f) => f.granted,
    params: 'id',
    path: site(),
    body: { seoEnabled: true },
  },
  'PATCH /sites/{other}': {
    handler: siteRoute.PATCH,
    method: 'PATCH',
    target: (f) => f.other,
    params: 'id',
    path: site(),
    body: { seoEnabled: true },
  },
  'DELETE /sites/{fresh site}': {
    handler: siteRoute.DELETE,
    method: 'DELETE',
    target: freshSite,
    params: 'id',
    path: site(),
  },
  'GET /sites/{granted}/status': {
    handler: statusRoute.GET,
    method: 'GET',
    target: (f) => f.granted,
    params: 'id',
    path: site('/status'),
  },
  'GET /sites/{other}/status': {
    handler: statusRoute.GET,
    method: 'GET',
    target: (f) => f.other,
    params: 'id',
    path: site('/status'),
  },
  'GET /sites/{granted}/usage': {
    handler: siteUsageRoute.GET,
    method: 'GET',
    target: (f) => f.granted,
    params: 'id',
    path: site('/usage'),
  },
  'GET /sites/{granted}/a11y-report': {
    handler: a11yReportRoute.GET,
    method: 'GET',
    target: (f) => f.granted,
    params: 'id',
    path: site('/a11y-report'),
  },
  'GET /sites/{other}/a11y-report': {
    handler: a11yReportRoute.GET,
    method: 'GET',
    target: (f) => f.other,
    params: 'id',
    path: site('/a11y-report'),
  },
  'GET /sites/{granted}/reports/monthly': {
    handler: monthlyReportRoute.GET,
    method: 'GET',
    target: (f) => f.granted,
    params: 'id',
    path: site('/reports/monthly'),
  },
  'GET /sites/{other}/reports/monthly': {
    handler: monthlyReportRoute.GET,
    method: 'GET',
    target: (f) => f.other,
    params: 'id',
    path: site('/reports/monthly'),
  },
  'GET /sites/{granted}/runs': {
    handler: runsRoute.GET,
    method: 'GET',
    target: (f) => f.granted,
    params: 'id',
    path: site('/runs'),
  },
  'GET /sites/{other}/runs': {
    handler: runsRoute.GET,
    method: 'GET',
    target: (f) => f.other,
    params: 'id',
    path: site('/runs'),
  },
  'GET /sites/{granted}/pages': {
    handler: pagesRoute.GET,
    method: 'GET',
    target: (f) => f.granted,
    params: 'id',
    path: site('/pages'),
  },
  'GET /sites/{other}/pages': {
    handler: pagesRoute.GET,
    method: 'GET',
    target: (f) => f.other,
    params: 'id',
    path: site('/pages'),
  },
  'GET /sites/{granted}/broken-targets': {
    handler: brokenTargetsRoute.GET,
    method: 'GET',
    target: (f) => f.granted,
    params: 'id',
    path: site(`/broken-targets`),
  },
  'GET /sites/{other}/broken-targets': {
    handler: brokenTargetsRoute.GET,
    method: 'GET',
    target: (f) => f.other,
    params: 'id',
    path: site(`/broken-targets`),
  },
  'GET /sites/{granted}/redirects': {
    handler: redirectsRoute.GET,
    method: 'GET',
    target: (f) => f.granted,
    params: 'id',
    path: site(`/redirects`),
  },
  'GET /sites/{other}/redirects': {
    handler: redirectsRoute.GET,
    method: 'GET',
    target: (f) => f.other,
    params: 'id',
    path: site(`/redirects`),
  },
  'GET /sites/{granted}/url-details': {
    handler: urlDetailsRoute.GET,
    method: 'GET',
    target: (f) => f.granted,
    params: 'id',
    path: site(`/url-details?url=${encodeURIComponent('https://matrix.example/')}`),
  },
  'GET /sites/{other}/url-details': {
    handler: urlDetailsRoute.GET,
    method: 'GET',
    target: (f) => f.other,
    params: 'id',
    path: site(`/url-details?url=${encodeURIComponent('https://matrix.example/')}`),
  },
  ...perRun('report', runReportRoute.GET),
  ...perRun('seo-report', runSeoReportRoute.GET),
  ...perRun('pages', runPagesRoute.GET),
  ...perRun('broken-targets', runBrokenTargetsRoute.GET),
  'PUT /sites/{granted}/a11y-manual-checks': {
    handler: a11yManualChecksRoute.PUT,
    method: 'PUT',
    target: (f) => f.granted,
    params: 'id',
    path: site('/a11y-manual-checks'),
    body: { sc: '1.4.3', status: 'verified', note: null },
  },
  'GET /sites/{granted}/a11y-suppressions': {
    handler: a11ySuppressionsRoute.GET,
    method: 'GET',
    target: (f) => f.granted,
    params: 'id',
    path: site('/a11y-suppressions'),
  },
  'POST /sites/{granted}/a11y-suppressions': {
    handler: a11ySuppressionsRoute.POST,
    method: 'POST',
    target: (f) => f.granted,
    params: 'id',
    path: site('/a11y-suppressions'),
    body: { rule: 'image-alt' },
  },
  'DELETE /sites/{granted}/a11y-suppressions/{fresh suppression}': {
    handler: a11ySuppressionRoute.DELETE,
    method: 'DELETE',
    target: freshSuppression,
    params: (suppressionId) => ({ id: fixture.granted, suppressionId }),
    path: (suppressionId) => `/api/v1/sites/${fixture.granted}/a11y-suppressions/${suppressionId}`,
  },
  'GET /sites/{granted}/uptime/monitors': {
    handler: monitorsRoute.GET,
    method: 'GET',
    target: (f) => f.granted,
    params: 'id',
    path: site('/uptime/monitors'),
  },
  'GET /sites/{other}/uptime/monitors': {
    handler: monitorsRoute.GET,
    method: 'GET',
    target: (f) => f.other,
    params: 'id',
    path: site('/uptime/monitors'),
  },
  'POST /sites/{granted}/uptime/monitors': {
    handler: monitorsRoute.POST,
    method: 'POST',
    target: (f) => f.granted,
    params: 'id',
    path: site('/uptime/monitors'),
    body: { url: 'https://matrix.example/health', cadenceSeconds: 300 },
  },
  'POST /sites/{other}/uptime/monitors': {
    handler: monitorsRoute.POST,
    method: 'POST',
    target: (f) => f.other,
    params: 'id',
    path: site('/uptime/monitors'),
    body: { url: 'https://matrix.example/health', cadenceSeconds: 300 },
  },
  ...perMonitor('GET', '', monitorRoute.GET),
  ...perMonitor('PATCH', '', monitorRoute.PATCH, { name: 'renamed by the matrix' }),
  'DELETE /sites/{granted}/uptime/monitors/{fresh monitor}': {
    handler: monitorRoute.DELETE,
    method: 'DELETE',
    target: freshMonitor,
    params: (monitorId) => ({ id: fixture.granted, monitorId }),
    path: (monitorId) => `/api/v1/sites/${fixture.granted}/uptime/monitors/${monitorId}`,
  },
  ...perMonitor('GET', '/live', monitorLiveRoute.GET),
  ...perMonitor('GET', '/metrics', monitorMetricsRoute.GET),
  ...perSite('GET', '/maintenance-windows', maintenanceWindowsRoute.GET),
  ...Object.fromEntries(
    (['granted', 'other'] as const).map((which) => [
      `POST /sites/{${which}}/maintenance-windows`,
      {
        handler: maintenanceWindowsRoute.POST,
        method: 'POST',
        target: (f: Fixture) => f[which],
        params: 'id' as const,
        path: site('/maintenance-windows'),
        body: windowBody,
      },
    ]),
  ),
  ...perWindow('GET', maintenanceWindowRoute.GET),
  ...perWindow('PATCH', maintenanceWindowRoute.PATCH, { title: 'renamed by the matrix' }),
  'DELETE /sites/{granted}/maintenance-windows/{fresh window}': {
    handler: maintenanceWindowRoute.DELETE,
    method: 'DELETE',
    target: () => freshWindow(fixture.granted),
    params: (windowId) => ({ id: fixture.granted, windowId }),
    path: (windowId) => `/api/v1/sites/${fixture.granted}/maintenance-windows/${windowId}`,
  },
  ...Object.fromEntries(
    (['granted', 'other'] as const).map((which) => [
      `POST /sites/{${which}}/uptime/monitors/{heartbeat}/ping-url/rotate`,
      {
        handler: monitorPingUrlRotateRoute.POST,
        method: 'POST',
        target: (f: Fixture) => f[which],
        params: (siteId: string) => ({ id: siteId, monitorId: heartbeatOf[siteId]! }),
        path: (siteId: string) =>
          `/api/v1/sites/${siteId}/uptime/monitors/${heartbeatOf[siteId]}/ping-url/rotate`,
      } satisfies MatrixRequest,
    ]),
  ),
  ...perSite('GET', '/fielddata', fieldDataRoute.GET),
  'POST /sites/{granted}/fielddata/sync': {
    handler: fieldDataSyncRoute.POST,
    method: 'POST',
    target: (f) => f.granted,
    params: 'id',
    path: site('/fielddata/sync'),
  },
  'GET /sites/{granted}/search': {
    handler: searchRoute.GET,
    method: 'GET',
    target: (f) => f.granted,
    params: 'id',
    path: site('/search'),
  },
  'PATCH /sites/{granted}/search': {
    handler: searchRoute.PATCH,
    method: 'PATCH',
    target: (f) => f.granted,
    params: 'id',
    path: site('/search'),
    body: { dropThresholdPct: 40 },
  },
  // Connected again before each cell, so the owner's disconnect does not leave the admin nothing.
  'DELETE /sites/{granted}/search': {
    handler: searchRoute.DELETE,
    method: 'DELETE',
    target: async (f) => {
      await connectSearch(f.granted);
      return f.granted;
    },
    params: 'id',
    path: site('/search'),
  },
  'POST /sites/{granted}/search/connect': {
    handler: searchConnectRoute.POST,
    method: 'POST',
    target: (f) => f.granted,
    params: 'id',
    path: site('/search/connect'),
  },
  'GET /sites/{granted}/search/properties': {
    handler: searchPropertiesRoute.GET,
    method: 'GET',
    target: (f) => f.granted,
    params: 'id',
    path: site('/search/properties'),
  },
  'POST /sites/{granted}/search/property': {
    handler: searchPropertyRoute.POST,
    method: 'POST',
    target: (f) => f.granted,
    params: 'id',
    path: site('/search/property'),
    body: { property: 'https://matrix.example/' },
  },
  ...perSite('GET', '/search/analytics', searchAnalyticsRoute.GET),
  'GET /search/callback': {
    handler: searchCallbackRoute.GET,
    method: 'GET',
    path: () => '/api/search/callback',
  },
  'POST /sites/{granted}/crawl': {
    handler: crawlRoute.POST,
    method: 'POST',
    target: (f) => f.granted,
    params: 'id',
    path: site('/crawl'),
    body: { chainA11y: false },
  },
  'POST /sites/{other}/crawl': {
    handler: crawlRoute.POST,
    method: 'POST',
    target: (f) => f.other,
    params: 'id',
    path: site('/crawl'),
    body: { chainA11y: false },
  },
  'GET /keys': { handler: keysRoute.GET, method: 'GET', path: () => '/api/v1/keys' },
  'POST /keys': {
    handler: keysRoute.POST,
    method: 'POST',
    path: () => '/api/v1/keys',
    body: { name: 'matrix' },
  },
  'POST /keys/{fresh key}/reroll': {
    handler: rerollRoute.POST,
    method: 'POST',
    target: freshKey,
    params: 'id',
    path: (id) => `/api/v1/keys/${id}/reroll`,
  },
  'POST /keys/{fresh key}/revoke': {
    handler: revokeRoute.POST,
    method: 'POST',
    target: freshKey,
    params: 'id',
    path: (id) => `/api/v1/keys/${id}/revoke`,
  },
  'GET /members': { handler: membersRoute.GET, method: 'GET', path: () => '/api/v1/members' },
  'PATCH /members/{spare}': {
    handler: memberRoute.PATCH,
    method: 'PATCH',
    target: (f) => f.spareMemberId,
    params: 'memberId',
    path: (id) => `/api/v1/members/${id}`,
    body: { role: 'member' },
  },
  'PATCH /members/{spare}/access': {
    handler: memberAccessRoute.PATCH,
    method: 'PATCH',
    target: (f) => f.spareMemberId,
    params: 'memberId',
    path: (id) => `/api/v1/members/${id}/access`,
    body: { siteIds: [], canCrawl: false },
  },
  'DELETE /members/{fresh member}': {
    handler: memberRoute.DELETE,
    method: 'DELETE',
    target: freshMember,
    params: 'memberId',
    path: (id) => `/api/v1/members/${id}`,
  },
  'GET /billing': { handler: billingRoute.GET, method: 'GET', path: () => '/api/v1/billing' },
  'PATCH /billing': {
    handler: billingRoute.PATCH,
    method: 'PATCH',
    path: () => '/api/v1/billing',
    body: { overageEnabled: true },
  },
  'GET /usage': { handler: usageRoute.GET, method: 'GET', path: () => '/api/v1/usage' },
  'GET /status-pages': { handler: statusPagesRoute.GET, method: 'GET', path: () => '/api/v1/status-pages' },
  'POST /status-pages': {
    handler: statusPagesRoute.POST,
    method: 'POST',
    path: () => '/api/v1/status-pages',
    // A slug is taken once across the service: each cell publishes its own.
    body: () => ({
      slug: `matrix-${++published}`,
      title: 'Matrix',
      monitorIds: [monitorOf[fixture.granted]],
    }),
  },
  'GET /status-pages/{page}': {
    handler: statusPageRoute.GET,
    method: 'GET',
    target: () => statusPageId,
    params: 'id',
    path: (id) => `/api/v1/status-pages/${id}`,
  },
  'PATCH /status-pages/{page}': {
    handler: statusPageRoute.PATCH,
    method: 'PATCH',
    target: () => statusPageId,
    params: 'id',
    path: (id) => `/api/v1/status-pages/${id}`,
    body: { title: 'renamed by the matrix' },
  },
  'DELETE /status-pages/{fresh page}': {
    handler: statusPageRoute.DELETE,
    method: 'DELETE',
    target: freshStatusPage,
    params: 'id',
    path: (id) => `/api/v1/status-pages/${id}`,
  },
  'GET /status-pages/{page}/incidents': {
    handler: pageIncidentsRoute.GET,
    method: 'GET',
    target: () => statusPageId,
    params: 'id',
    path: (id) => `/api/v1/status-pages/${id}/incidents`,
  },
  'POST /status-pages/{page}/incidents': {
    handler: pageIncidentsRoute.POST,
    method: 'POST',
    target: () => statusPageId,
    params: 'id',
    path: (id) => `/api/v1/status-pages/${id}/incidents`,
    body: { title: 'Mail is slow', status: 'investigating', message: 'Looking into it.' },
  },
  'POST /status-pages/{page}/incidents/{incident}/updates': {
    handler: incidentUpdatesRoute.POST,
    method: 'POST',
    target: () => statusPageId,
    params: (id) => ({ id, incidentId: manualIncidentId }),
    path: (id) => `/api/v1/status-pages/${id}/incidents/${manualIncidentId}/updates`,
    body: { status: 'monitoring', message: 'A fix is out.' },
  },
  'GET /organization': { handler: organizationRoute.GET, method: 'GET', path: () => '/api/v1/organization' },
  'PATCH /organization': {
    handler: organizationRoute.PATCH,
    method: 'PATCH',
    path: () => '/api/v1/organization',
    body: { name: 'Credential matrix org' },
  },
  'PUT /organization/logo': {
    handler: organizationLogoRoute.PUT,
    method: 'PUT',
    path: () => '/api/v1/organization/logo',
    // A 1x1 PNG.
    body: {
      contentType: 'image/png',
      data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    },
  },
  'DELETE /organization/logo': {
    handler: organizationLogoRoute.DELETE,
    method: 'DELETE',
    path: () => '/api/v1/organization/logo',
  },
  'GET /me/org-quota': { handler: orgQuotaRoute.GET, method: 'GET', path: () => '/api/v1/me/org-quota' },
  'GET /me/sessions': {
    handler: accountSessionsRoute.GET,
    method: 'GET',
    path: () => '/api/v1/me/sessions',
  },
  'DELETE /me/sessions/{fresh owner session}': {
    handler: accountSessionRoute.DELETE,
    method: 'DELETE',
    target: freshOwnerSession,
    params: (id) => ({ sessionId: id }),
    path: (id) => `/api/v1/me/sessions/${id}`,
  },
  'POST /me/limit-requests': {
    handler: limitRequestsRoute.POST,
    method: 'POST',
    path: () => '/api/v1/me/limit-requests',
    body: { kind: 'user_orgs', requestedLimit: 5, reason: 'credential matrix' },
  },
  'GET /notifications': {
    handler: notificationsRoute.GET,
    method: 'GET',
    path: () => '/api/v1/notifications',
  },
  'PATCH /notifications': {
    handler: notificationsRoute.PATCH,
    method: 'PATCH',
    path: () => '/api/v1/notifications',
    body: { crawlReportRecipients: [{ kind: 'email', email: 'reports@matrix.test' }] },
  },
  'GET /notifications/alert-offer': {
    handler: alertOfferRoute.GET,
    method: 'GET',
    path: () => '/api/v1/notifications/alert-offer',
  },
  // Dismissing: it changes no list, so the next cells see the same settings.
  'POST /notifications/alert-offer': {
    handler: alertOfferRoute.POST,
    method: 'POST',
    path: () => '/api/v1/notifications/alert-offer',
    body: { accept: false },
  },
  'POST /notifications/test': {
    handler: testNotificationRoute.POST,
    method: 'POST',
    path: () => '/api/v1/notifications/test',
    // The owner's own address: a member's needs no confirmation (an outside one must confirm first).
    body: { email: 'owner@matrix.test' },
  },
  // The owner's address needs no confirmation (409) and unsubscribed from nothing (404): both past
  // the permission check; tests/integration/notify-consent.test.ts covers their successes.
  'POST /notifications/confirmations': {
    handler: confirmationsRoute.POST,
    method: 'POST',
    path: () => '/api/v1/notifications/confirmations',
    body: { email: 'owner@matrix.test' },
  },
  'POST /notifications/resubscribe': {
    handler: resubscribeRoute.POST,
    method: 'POST',
    path: () => '/api/v1/notifications/resubscribe',
    body: { email: 'owner@matrix.test', topic: 'uptime' },
  },
  // Public: the token is the credential, whoever calls; a session or key adds nothing.
  'POST /confirm/{bogus}': {
    handler: confirmRoute.POST,
    method: 'POST',
    target: () => 'A'.repeat(43),
    params: (token) => ({ token }),
    path: (token) => `/api/v1/confirm/${token}`,
  },
  'POST /unsubscribe/{bogus}': {
    handler: unsubscribeRoute.POST,
    method: 'POST',
    target: () => 'eyJhIjoiMSIsInQiOiJhbGwifQ.forged',
    params: (token) => ({ token }),
    path: (token) => `/api/v1/unsubscribe/${token}`,
  },
  'POST /notifications/signing-secret': {
    handler: signingSecretRoute.POST,
    method: 'POST',
    path: () => '/api/v1/notifications/signing-secret',
  },
  'GET /notifications/deliveries': {
    handler: deliveriesRoute.GET,
    method: 'GET',
    path: () => '/api/v1/notifications/deliveries',
  },
  'GET /notifications/receivers': {
    handler: receiversRoute.GET,
    method: 'GET',
    path: () => '/api/v1/notifications/receivers',
  },
  'GET /sites/{granted}/notifications': {
    handler: siteNotificationsRoute.GET,
    method: 'GET',
    target: (f) => f.granted,
    params: 'id',
    path: site('/notifications'),
  },
  'GET /sites/{other}/notifications': {
    handler: siteNotificationsRoute.GET,
    method: 'GET',
    target: (f) => f.other,
    params: 'id',
    path: site('/notifications'),
  },
  'PATCH /sites/{granted}/notifications': {
    handler: siteNotificationsRoute.PATCH,
    method: 'PATCH',
    target: (f) => f.granted,
    params: 'id',
    path: site('/notifications'),
    body: { includeOrgDefaults: false },
  },
  'DELETE /sites/{granted}/notifications': {
    handler: siteNotificationsRoute.DELETE,
    method: 'DELETE',
    target: (f) => f.granted,
    params: 'id',
    path: site('/notifications'),
  },
};

// ---- the table, parsed -----------------------------------------------------------------------

const [header, ...lines] = MATRIX.trim()
  .split('\n')
  .map((line) => line.split('|').map((cell) => cell.trim()));
const CALLERS = header!.slice(1);
const ROWS = lines.map(([label, ...cells]) => ({
  label: label!.replace(/\s+/, ' '),
  expected: Object.fromEntries(CALLERS.map((caller, i) => [caller, cells[i]!])),
}));

const matches = (expected: string, status: number) =>
  expected === '2xx' ? status === 200 || status === 202 : status === Number(expected);

// ---- the organization and its callers --------------------------------------------------------

const grant = (memberId: string, body: RequestBody<'/v1/members/{memberId}/access', 'patch'>) =>
  v1({ token: ownerToken }).PATCH('/v1/members/{memberId}/access', { params: { path: { memberId } }, body });

const mintKey = async (body: RequestBody<'/v1/keys', 'post'>) =>
  (await v1({ token: ownerToken }).POST('/v1/keys', { body })).body as {
    key: { id: string };
    secret: string;
  };

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  const owner = await signInOwner(db, 'owner@matrix.test');
  ownerToken = owner.token;
  ownerUserId = owner.userId;
  tenantId = owner.tenantId;
  // Overage on, so site creation in the matrix is about credentials, not the included-site count.
  await v1({ token: ownerToken }).PATCH('/v1/billing', { body: { overageEnabled: true } });
  const granted = await freshSite();
  const other = await freshSite();

  const join = (email: string, role: 'admin' | 'member') =>
    addMember(db, { ownerToken, tenantId, email, role });
  const admin = await join('admin@matrix.test', 'admin');
  const member = await join('member@matrix.test', 'member');
  const memberSite = await join('member-site@matrix.test', 'member');
  const memberCrawl = await join('member-crawl@matrix.test', 'member');
  const spare = await join('spare@matrix.test', 'member');
  expect((await grant(memberSite.memberId, { siteIds: [granted] })).status).toBe(200);
  expect((await grant(memberCrawl.memberId, { siteIds: [granted], canCrawl: true })).status).toBe(200);

  const key = await mintKey({ name: 'all sites' });
  const scoped = await mintKey({ name: 'one site', siteIds: [granted] });
  const revoked = await mintKey({ name: 'revoked' });
  await v1({ token: ownerToken }).POST('/v1/keys/{id}/revoke', { params: { path: { id: revoked.key.id } } });
  const expired = await mintKey({ name: 'expired', expiresInDays: 1 });
  await db
    .update(apiKeys)
    .set({ expires_at: Date.now() - 1 })
    .where(eq(apiKeys.id, expired.key.id));

  Object.assign(credentials, {
    owner: { token: ownerToken },
    admin: { token: admin.token },
    member: { token: member.token },
    'member+site': { token: memberSite.token },
    'member+crawl': { token: memberCrawl.token },
    key: { apiKey: key.secret },
    'scoped-key': { apiKey: scoped.secret },
    'revoked-key': { apiKey: revoked.secret },
    'expired-key': { apiKey: expired.secret },
    none: {},
  });
  fixture = { granted, other, spareMemberId: spare.memberId };
  // Both sites have a completed crawl with a crawled page and the SEO app on, so a report's or the
  // pages list's 200 or 404 is about the caller.
  for (const siteId of [granted, other]) {
    await db.update(sites).set({ seo_enabled: 1 }).where(eq(sites.id, siteId));
    const [crawl] = await db
      .insert(runs)
      .values({
        site_id: siteId,
        tenant_id: tenantId,
        started_at: Date.now() - 1000,
        state: 'completed',
        kind: 'crawl',
      })
      .returning({ id: runs.id });
    crawlRunOf[siteId] = crawl!.id;
    await db.insert(crawlUrls).values({
      run_id: crawl!.id,
      url: 'https://matrix.example/',
      kind: 'internal',
      state: 'done',
      verdict: 'ok',
      status_code: 200,
      is_page: 1,
    });
  }
  // Both sites have field data and a connected search property with a day of analytics, so those
  // reports' 200 or 404 is about the caller.
  for (const siteId of [granted, other]) {
    await db
      .update(sites)
      .set({ fielddata_status: 'ok', fielddata_checked_at: Date.now() })
      .where(eq(sites.id, siteId));
    await db.insert(fieldData).values({
      tenant_id: tenantId,
      site_id: siteId,
      form_factor: 'ALL',
      period_end: '2026-11-15',
      lcp: 2000,
      inp: 150,
      cls: 0.05,
      ttfb: 600,
      collected_at: Date.now(),
    });
    await connectSearch(siteId);
    await db.insert(searchAnalytics).values({
      tenant_id: tenantId,
      site_id: siteId,
      day: '2026-11-20',
      clicks: 10,
      impressions: 100,
      ctr: 0.1,
      position: 4,
    });
  }
  // Both sites have a monitor, so a monitor route's 200 or 404 is about the caller.
  for (const siteId of [granted, other]) {
    monitorOf[siteId] = await freshMonitor({ ...fixture, granted: siteId });
    const heartbeat = await v1({ token: ownerToken }).POST('/v1/sites/{id}/uptime/monitors', {
      params: { path: { id: siteId } },
      body: { kind: 'heartbeat', periodSeconds: 3600 },
    });
    if (heartbeat.status !== 201)
      throw new Error(`fixture heartbeat: ${heartbeat.status} ${JSON.stringify(heartbeat.body)}`);
    heartbeatOf[siteId] = heartbeat.body.monitor.id as string;
  }
  statusPageId = await freshStatusPage();
  for (const siteId of [granted, other]) windowOf[siteId] = await freshWindow(siteId);
  const incident = await v1({ token: ownerToken }).POST('/v1/status-pages/{id}/incidents', {
    params: { path: { id: statusPageId } },
    body: { title: 'Matrix incident', status: 'investigating', message: 'Open for the matrix.' },
  });
  if (incident.status !== 201) throw new Error(`fixture incident: ${incident.status}`);
  manualIncidentId = incident.body.incident.id;
  // Both sites have stored accessibility results, so a report's 200 or 404 is about the caller.
  for (const siteId of [granted, other]) {
    const [run] = await db
      .insert(runs)
      .values({
        site_id: siteId,
        tenant_id: tenantId,
        started_at: Date.now(),
        state: 'completed',
        kind: 'a11y',
      })
      .returning({ id: runs.id });
    await storePageScans(db, { tenantId, runId: run!.id }, [
      {
        url: 'https://matrix.example/',
        status: 'scanned',
        findings: [],
        passes: ['image-alt'],
        inapplicable: [],
      },
    ]);
  }
});
afterAll(() => teardown());

// ---- checks ----------------------------------------------------------------------------------

it('has a request for every row, a row for every request and a credential for every column', () => {
  expect(ROWS.map((r) => r.label).sort()).toEqual(Object.keys(REQUESTS).sort());
  expect(Object.keys(credentials).sort()).toEqual([...CALLERS].sort());
});

it('lists for each caller exactly the sites it may see', async () => {
  const visible = async (caller: string) => {
    const res = await v1(credentials[caller]).GET('/v1/sites');
    return (res.body.sites as { id: string }[]).map((s) => s.id).sort();
  };
  const everything = [fixture.granted, fixture.other].sort();
  for (const caller of ['owner', 'admin', 'key']) expect(await visible(caller)).toEqual(everything);
  expect(await visible('member')).toEqual([]);
  for (const caller of ['member+site', 'member+crawl', 'scoped-key']) {
    expect(await visible(caller)).toEqual([fixture.granted]);
  }
});

describe.each(ROWS)('$label', ({ label, expected }) => {
  it.each(CALLERS)('as %s', async (caller) => {
    const request = REQUESTS[label];
    if (!request) throw new Error(`no request for matrix row "${label}": add it to REQUESTS`);
    const target = request.target ? await request.target(fixture) : '';
    const res = await call(request.handler, {
      method: request.method,
      path: request.path(target),
      params:
        typeof request.params === 'function'
          ? request.params(target)
          : request.params
            ? { [request.params]: target }
            : undefined,
      body: typeof request.body === 'function' ? request.body() : request.body,
      ...credentials[caller],
    });
    const want = expected[caller]!;
    expect(
      matches(want, res.status),
      `${label} as ${caller}: want ${want}, got ${res.status} ${JSON.stringify(res.body)}`,
    ).toBe(true);
    if (res.status >= 400) expect(Object.keys(res.body)).toEqual(['error']);
  });
});
