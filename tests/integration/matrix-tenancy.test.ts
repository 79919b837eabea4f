import { readdirSync } from 'node:fs';
import path from 'node:path';
import { eq, getTableColumns, getTableName, inArray, is } from 'drizzle-orm';
import { type PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/client';
import * as schema from '@/lib/db/schema';
import { unsubscribeToken } from '@/lib/notify/consent';
import { v1 } from '../support/api-client';
import { useTestDatabase } from '../support/db';
import { addMember, call, insertApiKey, signInOwner } from '../support/http';

/*
 * Requests made by hand, not through the typed client (tests/support/api-client): every route is
 * discovered from the route files and attacked with the params, bodies and credentials SAMPLES
 * gives it, so the paths are data, not literals a typed call can check. The fixtures go through the
 * typed client.
 */

/*
 * Tenant isolation, for every /v1 route there is.
 *
 * Routes are discovered from app/api/v1/**\/route.ts when the file is collected, so a route added
 * later is attacked automatically. Each (route, method) is called twice by organization B, once as
 * B's owner and once with B's unscoped API key, aimed at organization A's resources (site, key and
 * member ids). The answer must be 404 (or 403 for a session-only route called with a key; a route
 * that names no resource of A states what B gets), the body must not mention any of A's identifiers
 * the caller did not send itself, and every row A owns must be byte-for-byte unchanged.
 *
 * A route without an entry in SAMPLES fails with a message saying what to add.
 */

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** Organization A's resources, the targets of every attack. Add fixtures here as resources appear. */
type TenantA = {
  tenantId: string;
  ownerEmail: string;
  ownerUserId: string;
  /** The session A's owner signed in with. */
  ownerSessionId: string;
  siteId: string;
  hostname: string;
  keyId: string;
  memberId: string;
  memberEmail: string;
  suppressionId: string;
  /** A completed crawl of A's site, with a crawled page. */
  runId: string;
  /** An uptime monitor of A's site. */
  monitorId: string;
  /** A status page of A listing that monitor. */
  statusPageId: string;
  /** An upcoming maintenance window of A's site covering that monitor. */
  windowId: string;
  statusPageSlug: string;
  /** A consensus incident of that monitor, and a manual incident of the page. */
  incidentId: string;
  manualIncidentId: string;
};

type Sample = {
  /** Path params naming A's resources. */
  params?: (a: TenantA) => Record<string, string | string[]>;
  /** A body that would succeed if the tenant check were missing (so a 422 cannot hide a leak). */
  body?: (a: TenantA) => unknown;
  /** A query string (`?url=...`) a required query parameter needs, for the same reason. */
  query?: (a: TenantA) => string;
  /** Session-only (spec rule 7): B's key gets 403 before anything else. */
  sessionOnly?: boolean;
  /**
   * For routes that name no resource of A (lists, creates, /me): the status B gets acting on its own
   * organization. Omitted: 404 for both callers (403 for a key on a session-only route).
   */
  expect?: { owner: number; key: number };
};

const site = (a: TenantA) => ({ id: a.siteId });
const siteRun = (a: TenantA) => ({ id: a.siteId, runId: a.runId });
const siteMonitor = (a: TenantA) => ({ id: a.siteId, monitorId: a.monitorId });
/** The catch-all answers 404 to any path, whoever asks. */
const unmatched = (withBody: boolean): Sample => ({
  params: (a) => ({ unknown: ['sites', a.siteId, 'no-such-thing'] }),
  body: withBody ? () => ({}) : undefined,
  expect: { owner: 404, key: 404 },
});

/** A 1x1 PNG: an organization's logo (A's in the fixtures, B's upload in the samples). */
const TINY_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** One entry per route file (path relative to app/api, params in brackets) and exported method. */
let registered = 0;
const SAMPLES: Record<string, Partial<Record<Method, Sample>>> = {
  '/v1/[[...unknown]]': {
    GET: unmatched(false),
    POST: unmatched(true),
    PUT: unmatched(true),
    PATCH: unmatched(true),
    DELETE: unmatched(false),
  },
  // Public API reference: no tenant data, the same document for everyone.
  '/v1/openapi.json': { GET: { expect: { owner: 200, key: 200 } } },
  '/v1/sites': {
    GET: { expect: { owner: 200, key: 200 } },
    // A root URL of its own per call: an organization registers a root URL once.
    POST: {
      body: () => ({ rootUrl: `https://b-own-${++registered}.example/` }),
      expect: { owner: 201, key: 201 },
    },
  },
  '/v1/sites/[id]': {
    GET: { params: site },
    PATCH: { params: site, body: () => ({ cadenceMinutes: 2880, seoEnabled: false }) },
    DELETE: { params: site },
  },
  '/v1/sites/[id]/status': { GET: { params: site } },
  '/v1/sites/[id]/report': { GET: { params: site } },
  '/v1/sites/[id]/seo-report': { GET: { params: site } },
  '/v1/sites/[id]/pages': { GET: { params: site } },
  '/v1/sites/[id]/broken-targets': { GET: { params: site } },
  '/v1/sites/[id]/redirects': { GET: { params: site } },
  '/v1/sites/[id]/url-details': {
    GET: { params: site, query: () => `?url=${encodeURIComponent('https://tenant-a-private.example/')}` },
  },
  '/v1/sites/[id]/runs': { GET: { params: site } },
  '/v1/sites/[id]/runs/[runId]/report': { GET: { params: siteRun } },
  '/v1/sites/[id]/runs/[runId]/seo-report': { GET: { params: siteRun } },
  '/v1/sites/[id]/runs/[runId]/pages': { GET: { params: siteRun } },
  '/v1/sites/[id]/runs/[runId]/broken-targets': { GET: { params: siteRun } },
  '/v1/sites/[id]/usage': { GET: { params: site } },
  '/v1/sites/[id]/a11y-report': { GET: { params: site } },
  '/v1/sites/[id]/reports/monthly': { GET: { params: site } },
  '/v1/sites/[id]/a11y-manual-checks': {
    PUT: { params: site, body: () => ({ sc: '1.4.3', status: 'verified', note: null }) },
  },
  '/v1/sites/[id]/a11y-suppressions': {
    GET: { params: site },
    POST: { params: site, body: () => ({ rule: 'image-alt' }) },
  },
  '/v1/sites/[id]/a11y-suppressions/[suppressionId]': {
    DELETE: { params: (a) => ({ id: a.siteId, suppressionId: a.suppressionId }) },
  },
  '/v1/sites/[id]/fielddata': { GET: { params: site } },
  '/v1/sites/[id]/fielddata/sync': { POST: { params: site } },
  '/v1/sites/[id]/search': {
    GET: { sessionOnly: true, params: site },
    PATCH: { sessionOnly: true, params: site, body: () => ({ dropThresholdPct: 40, dropMinClicks: 10 }) },
    DELETE: { sessionOnly: true, params: site },
  },
  '/v1/sites/[id]/search/connect': { POST: { sessionOnly: true, params: site } },
  '/v1/sites/[id]/search/properties': { GET: { sessionOnly: true, params: site } },
  '/v1/sites/[id]/search/property': {
    POST: {
      sessionOnly: true,
      params: site,
      body: () => ({ property: 'https://tenant-a-private.example/' }),
    },
  },
  '/v1/sites/[id]/search/analytics': { GET: { params: site } },
  '/v1/sites/[id]/crawl': { POST: { params: site, body: () => ({ chainA11y: true }) } },
  '/v1/sites/[id]/uptime/monitors': {
    GET: { params: site },
    POST: { params: site, body: () => ({ url: 'https://b-reaches-into-a.example/' }) },
  },
  '/v1/sites/[id]/uptime/monitors/[monitorId]': {
    GET: { params: siteMonitor },
    PATCH: { params: siteMonitor, body: () => ({ enabled: false, name: 'renamed by B' }) },
    DELETE: { params: siteMonitor },
  },
  '/v1/sites/[id]/uptime/monitors/[monitorId]/live': { GET: { params: siteMonitor } },
  '/v1/sites/[id]/uptime/monitors/[monitorId]/metrics': { GET: { params: siteMonitor } },
  '/v1/sites/[id]/maintenance-windows': {
    GET: { params: site },
    POST: {
      params: site,
      body: () => ({ title: 'B at work', startsAt: Date.now() + 3_600_000, endsAt: Date.now() + 7_200_000 }),
    },
  },
  '/v1/sites/[id]/maintenance-windows/[windowId]': {
    GET: { params: (a) => ({ id: a.siteId, windowId: a.windowId }) },
    PATCH: {
      params: (a) => ({ id: a.siteId, windowId: a.windowId }),
      body: () => ({ title: 'renamed by B' }),
    },
    DELETE: { params: (a) => ({ id: a.siteId, windowId: a.windowId }) },
  },
  '/v1/sites/[id]/uptime/monitors/[monitorId]/ping-url/rotate': { POST: { params: siteMonitor } },
  '/v1/status-pages': {
    GET: { expect: { owner: 200, key: 200 } },
    // Listing A's monitor on a page of B's must be refused as a monitor B does not own.
    POST: {
      body: (a) => ({ slug: `b-reaches-${++registered}`, title: 'B', monitorIds: [a.monitorId] }),
      expect: { owner: 422, key: 422 },
    },
  },
  '/v1/status-pages/[id]': {
    GET: { params: (a) => ({ id: a.statusPageId }) },
    PATCH: {
      params: (a) => ({ id: a.statusPageId }),
      body: () => ({ title: 'renamed by B', published: false }),
    },
    DELETE: { params: (a) => ({ id: a.statusPageId }) },
  },
  '/v1/status-pages/[id]/incidents': {
    GET: { params: (a) => ({ id: a.statusPageId }) },
    POST: {
      params: (a) => ({ id: a.statusPageId }),
      body: () => ({ title: 'opened by B', status: 'investigating', message: 'B was here' }),
    },
  },
  '/v1/status-pages/[id]/incidents/[incidentId]/updates': {
    POST: {
      params: (a) => ({ id: a.statusPageId, incidentId: a.manualIncidentId }),
      body: () => ({ status: 'resolved', message: 'resolved by B' }),
    },
  },
  '/v1/usage': { GET: { sessionOnly: true, expect: { owner: 200, key: 403 } } },
  '/v1/billing': {
    GET: { sessionOnly: true, expect: { owner: 200, key: 403 } },
    PATCH: { sessionOnly: true, body: () => ({ overageEnabled: true }), expect: { owner: 200, key: 403 } },
  },
  '/v1/keys': {
    GET: { sessionOnly: true, expect: { owner: 200, key: 403 } },
    // Scoping a new key of B to A's site must be refused as a site B does not own.
    POST: {
      sessionOnly: true,
      body: (a) => ({ name: 'reach into A', siteIds: [a.siteId] }),
      expect: { owner: 422, key: 403 },
    },
  },
  '/v1/keys/[id]/reroll': { POST: { sessionOnly: true, params: (a) => ({ id: a.keyId }) } },
  '/v1/keys/[id]/revoke': { POST: { sessionOnly: true, params: (a) => ({ id: a.keyId }) } },
  '/v1/members': { GET: { sessionOnly: true, expect: { owner: 200, key: 403 } } },
  '/v1/members/[memberId]': {
    PATCH: { sessionOnly: true, params: (a) => ({ memberId: a.memberId }), body: () => ({ role: 'admin' }) },
    DELETE: { sessionOnly: true, params: (a) => ({ memberId: a.memberId }) },
  },
  '/v1/members/[memberId]/access': {
    PATCH: {
      sessionOnly: true,
      params: (a) => ({ memberId: a.memberId }),
      body: (a) => ({ siteIds: [a.siteId], canCrawl: true }),
    },
  },
  '/v1/me/limit-requests': {
    POST: {
      sessionOnly: true,
      body: () => ({ kind: 'user_orgs', requestedLimit: 5, reason: 'tenancy matrix' }),
      expect: { owner: 201, key: 403 },
    },
  },
  '/v1/me/org-quota': { GET: { sessionOnly: true, expect: { owner: 200, key: 403 } } },
  '/v1/me/sessions': { GET: { sessionOnly: true, expect: { owner: 200, key: 403 } } },
  // Ending A's owner's session: another account's session is not found, and it keeps working.
  '/v1/me/sessions/[sessionId]': {
    DELETE: { sessionOnly: true, params: (a) => ({ sessionId: a.ownerSessionId }) },
  },
  // The caller's own organization, never one named in the request: B renames and brands B.
  '/v1/organization': {
    GET: { sessionOnly: true, expect: { owner: 200, key: 403 } },
    PATCH: { sessionOnly: true, body: () => ({ name: 'B renamed' }), expect: { owner: 200, key: 403 } },
  },
  '/v1/organization/logo': {
    PUT: {
      sessionOnly: true,
      body: () => ({ contentType: 'image/png', data: TINY_PNG }),
      expect: { owner: 200, key: 403 },
    },
    DELETE: { sessionOnly: true, expect: { owner: 200, key: 403 } },
  },
  '/v1/notifications': {
    GET: { sessionOnly: true, expect: { owner: 200, key: 403 } },
    // Naming A's owner as a recipient of B's notifications must be refused: not a member of B.
    PATCH: {
      sessionOnly: true,
      body: (a) => ({ uptimeRecipients: [{ kind: 'user', userId: a.ownerUserId }] }),
      expect: { owner: 422, key: 403 },
    },
  },
  // B's own owner's address: a member's, so no confirmation is needed.
  '/v1/notifications/test': {
    POST: {
      sessionOnly: true,
      body: () => ({ email: 'owner@tenant-b.test' }),
      expect: { owner: 200, key: 403 },
    },
  },
  '/v1/notifications/signing-secret': { POST: { sessionOnly: true, expect: { owner: 200, key: 403 } } },
  // The caller's own offer: B's owner answers B's, with nothing of A's to name.
  '/v1/notifications/alert-offer': {
    GET: { sessionOnly: true, expect: { owner: 200, key: 403 } },
    POST: { sessionOnly: true, body: () => ({ accept: false }), expect: { owner: 200, key: 403 } },
  },
  // A's outside address, named in A's settings (fixtures): B's lists do not name it.
  '/v1/notifications/confirmations': {
    POST: { sessionOnly: true, body: () => ({ email: 'board@tenant-a-outside.test' }) },
  },
  // A's address unsubscribed in A (fixtures): nothing of it is B's to take back.
  '/v1/notifications/resubscribe': {
    POST: {
      sessionOnly: true,
      body: () => ({ email: 'board@tenant-a-outside.test', topic: 'uptime' }),
    },
  },
  // Public: the token is the credential; a made-up one is 404 whoever calls (matrix-public.test.ts).
  '/v1/confirm/[token]': { POST: { params: () => ({ token: 'A'.repeat(43) }) } },
  '/v1/unsubscribe/[token]': { POST: { params: () => ({ token: 'eyJhIjoiMSJ9.forged' }) } },
  '/v1/notifications/deliveries': { GET: { sessionOnly: true, expect: { owner: 200, key: 403 } } },
  '/v1/notifications/receivers': { GET: { sessionOnly: true, expect: { owner: 200, key: 403 } } },
  '/v1/sites/[id]/notifications': {
    GET: { sessionOnly: true, params: site },
    PATCH: { sessionOnly: true, params: site, body: () => ({ includeOrgDefaults: false }) },
    DELETE: { sessionOnly: true, params: site },
  },
};

// ---- discovery -------------------------------------------------------------------------------

const API_DIR = path.resolve('app/api');
const routeFiles = readdirSync(path.join(API_DIR, 'v1'), { recursive: true, encoding: 'utf8' })
  .filter((file) => path.basename(file) === 'route.ts')
  .map((file) => path.join('v1', file))
  .sort();

type Endpoint = { route: string; method: Method; handler: Handler };
const endpoints: Endpoint[] = [];
/** Route files that could not even be loaded: each becomes a failing test instead of a dead suite. */
const unloadable: { route: string; error: string }[] = [];
for (const file of routeFiles) {
  const route = `/${path.dirname(file).split(path.sep).join('/')}`;
  let mod: Partial<Record<Method, Handler>>;
  try {
    mod = await import(path.join(API_DIR, file));
  } catch (error) {
    unloadable.push({ route, error: error instanceof Error ? error.message : String(error) });
    continue;
  }
  for (const method of METHODS) {
    const handler = mod[method];
    if (handler) endpoints.push({ route, method, handler });
  }
}

/** `/v1/sites/[id]` + `{id}` -> `/api/v1/sites/<id>`; catch-alls (optional ones too) take an array. */
function urlPath(route: string, params: Record<string, string | string[]>): string {
  const filled = route.replace(/\[{1,2}(?:\.\.\.)?([^\]]+)\]{1,2}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`sample for ${route} gives no value for [${name}]`);
    return Array.isArray(value) ? value.map(encodeURIComponent).join('/') : encodeURIComponent(value);
  });
  return `/api${filled}`;
}

// ---- snapshot of everything A owns -----------------------------------------------------------

const tables = (Object.values(schema) as unknown[]).filter((t): t is PgTable => is(t, PgTable));
const column = (table: PgTable, name: string): PgColumn | undefined =>
  (getTableColumns(table) as Record<string, PgColumn>)[name];

/**
 * Every row of organization A, table by table: rows with A's tenant_id or organizationId, A's
 * organization row, and rows that hang off A's runs (crawl frontier, links) without a tenant column.
 */
async function snapshotOf(db: Db, tenantId: string): Promise<Record<string, string[]>> {
  const snapshot: Record<string, string[]> = {};
  const runIds = (
    await db.select({ id: schema.runs.id }).from(schema.runs).where(eq(schema.runs.tenant_id, tenantId))
  ).map((r) => r.id);
  for (const table of tables) {
    const name = getTableName(table);
    const owner = column(table, 'tenant_id') ?? column(table, 'organizationId');
    const runId = column(table, 'run_id');
    let rows: unknown[] | undefined;
    if (owner) rows = await db.select().from(table).where(eq(owner, tenantId));
    else if (table === schema.organizations)
      rows = await db.select().from(table).where(eq(schema.organizations.id, tenantId));
    else if (runId) rows = runIds.length ? await db.select().from(table).where(inArray(runId, runIds)) : [];
    if (rows) snapshot[name] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return snapshot;
}

// ---- fixtures --------------------------------------------------------------------------------

let db: Db;
let teardown: () => Promise<void>;
let a: TenantA;
let ownerB: { token: string; tenantId: string };
let keyB: string;

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  const ownerA = await signInOwner(db, 'owner@tenant-a.test');
  const created = await v1({ token: ownerA.token }).POST('/v1/sites', {
    body: { rootUrl: 'https://tenant-a-private.example/' },
  });
  expect(created.status).toBe(201);
  const key = await v1({ token: ownerA.token }).POST('/v1/keys', { body: { name: 'A key' } });
  expect(key.status).toBe(201);
  const member = await addMember(db, {
    ownerToken: ownerA.token,
    tenantId: ownerA.tenantId,
    email: 'member@tenant-a.test',
    role: 'member',
  });
  const suppression = await v1({ token: ownerA.token }).POST('/v1/sites/{id}/a11y-suppressions', {
    params: { path: { id: created.body.site.id } },
    body: { rule: 'region' },
  });
  expect(suppression.status).toBe(201);
  // A's site overrides A's notification settings (a DELETE from B must not remove it).
  const override = await v1({ token: ownerA.token }).PATCH('/v1/sites/{id}/notifications', {
    params: { path: { id: created.body.site.id } },
    body: {
      includeOrgDefaults: false,
      crawlReportRecipients: [
        { kind: 'user', userId: ownerA.userId },
        { kind: 'email', email: 'board@tenant-a-outside.test' },
      ],
    },
  });
  expect(override.status).toBe(200);
  // A's outside address was asked to confirm, and unsubscribed from A's uptime alerts.
  const [board] = await db
    .select({ id: schema.notificationAddresses.id })
    .from(schema.notificationAddresses)
    .where(eq(schema.notificationAddresses.address, 'board@tenant-a-outside.test'));
  const stopToken = unsubscribeToken(board!.id, 'uptime');
  const stopped = await v1().POST('/v1/unsubscribe/{token}', { params: { path: { token: stopToken } } });
  expect(stopped.status).toBe(200);
  const monitor = await v1({ token: ownerA.token }).POST('/v1/sites/{id}/uptime/monitors', {
    params: { path: { id: created.body.site.id } },
    body: { url: 'https://tenant-a-private.example/health' },
  });
  expect(monitor.status).toBe(201);
  const statusPage = await v1({ token: ownerA.token }).POST('/v1/status-pages', {
    body: { slug: 'tenant-a-status', title: 'A status', monitorIds: [monitor.body.monitor.id] },
  });
  expect(statusPage.status).toBe(201);
  const window = await v1({ token: ownerA.token }).POST('/v1/sites/{id}/maintenance-windows', {
    params: { path: { id: created.body.site.id } },
    body: {
      title: 'A at work',
      startsAt: Date.now() + 3_600_000,
      endsAt: Date.now() + 7_200_000,
      monitorIds: [monitor.body.monitor.id],
    },
  });
  expect(window.status).toBe(201);
  const [incident] = await db
    .insert(schema.uptimeIncidents)
    .values({
      tenant_id: ownerA.tenantId,
      monitor_id: monitor.body.monitor.id,
      down_at: Date.now() - 60_000,
      cause: 'timeout',
      created_at: Date.now() - 60_000,
    })
    .returning({ id: schema.uptimeIncidents.id });
  const manualIncident = await v1({ token: ownerA.token }).POST('/v1/status-pages/{id}/incidents', {
    params: { path: { id: statusPage.body.statusPage.id } },
    body: { title: 'A mail delays', status: 'identified', message: 'A knows why' },
  });
  expect(manualIncident.status).toBe(201);
  // A's site has a completed crawl, so its reports and pages would answer 200 to A.
  const [run] = await db
    .insert(schema.runs)
    .values({
      site_id: created.body.site.id,
      tenant_id: ownerA.tenantId,
      started_at: Date.now(),
      state: 'completed',
      kind: 'crawl',
    })
    .returning({ id: schema.runs.id });
  await db.insert(schema.crawlUrls).values({
    run_id: run!.id,
    url: 'https://tenant-a-private.example/',
    kind: 'internal',
    state: 'done',
    verdict: 'ok',
    status_code: 200,
    is_page: 1,
  });
  await db.insert(schema.organizationLogos).values({
    tenant_id: ownerA.tenantId,
    content_type: 'image/png',
    image: new Uint8Array(Buffer.from(TINY_PNG, 'base64')),
    size: 70,
    sha256: 'a'.repeat(64),
    updated_at: Date.now(),
  });
  a = {
    tenantId: ownerA.tenantId,
    ownerEmail: 'owner@tenant-a.test',
    ownerUserId: ownerA.userId,
    ownerSessionId: (
      await db
        .select({ id: schema.sessions.id })
        .from(schema.sessions)
        .where(eq(schema.sessions.userId, ownerA.userId))
    )[0]!.id,
    siteId: created.body.site.id,
    hostname: created.body.site.hostname,
    keyId: key.body.key.id,
    memberId: member.memberId,
    memberEmail: 'member@tenant-a.test',
    suppressionId: suppression.body.suppression.id,
    runId: run!.id,
    monitorId: monitor.body.monitor.id,
    statusPageId: statusPage.body.statusPage.id,
    statusPageSlug: 'tenant-a-status',
    windowId: window.body.maintenanceWindow.id,
    incidentId: incident!.id,
    manualIncidentId: manualIncident.body.incident.id,
  };
  ownerB = await signInOwner(db, 'owner@tenant-b.test');
  keyB = await insertApiKey(db, ownerB.tenantId, { name: 'B key' });
});
afterAll(() => teardown());

// ---- the matrix ------------------------------------------------------------------------------

it('discovers the /v1 routes', () => {
  expect(routeFiles.length).toBeGreaterThan(10);
  expect(endpoints.map((e) => `${e.method} ${e.route}`)).toContain('PATCH /v1/sites/[id]');
});

it.each(unloadable)('route file of $route loads', ({ route, error }) => {
  throw new Error(`app/api${route}/route.ts cannot be imported, so its tenancy is unchecked: ${error}`);
});

it('has no sample for a route that no longer exists', () => {
  const known = new Set(endpoints.map((e) => `${e.method} ${e.route}`));
  const unchecked = new Set(unloadable.map((u) => u.route));
  const stale = Object.entries(SAMPLES).flatMap(([route, byMethod]) =>
    Object.keys(byMethod)
      .filter(() => !unchecked.has(route))
      .map((method) => `${method} ${route}`)
      .filter((key) => !known.has(key)),
  );
  expect(stale, 'remove these entries from SAMPLES in tests/integration/matrix-tenancy.test.ts').toEqual([]);
});

/**
 * A method the route file does not declare answers 405 to anyone (see `otherMethods`); it is
 * called with the params of one of the route's declared samples.
 */
function notAllowedSample(route: string, handler: Handler): Sample | undefined {
  if (!('allows' in handler)) return undefined;
  const declared = Object.values(SAMPLES[route] ?? {})[0];
  return { params: declared?.params, expect: { owner: 405, key: 405 } };
}

describe.each(endpoints)('$method $route called by another organization', ({ route, method, handler }) => {
  const sample = SAMPLES[route]?.[method] ?? notAllowedSample(route, handler);

  it.each([
    { caller: 'owner' as const, label: 'as its owner' },
    { caller: 'key' as const, label: 'with its API key' },
  ])('$label: refused, leaks nothing, changes nothing of A', async ({ caller }) => {
    if (!sample) {
      throw new Error(
        `no tenancy sample for ${method} ${route}: add SAMPLES['${route}'].${method} to ` +
          'tests/integration/matrix-tenancy.test.ts (params naming tenant A resources, a valid body, ' +
          'and whether the route is session-only)',
      );
    }
    const params = sample.params?.(a) ?? {};
    const body = sample.body?.(a);
    const expected = sample.expect?.[caller] ?? (caller === 'key' && sample.sessionOnly ? 403 : 404);
    const requestPath = urlPath(route, params) + (sample.query?.(a) ?? '');

    const before = await snapshotOf(db, a.tenantId);
    const res = await call(handler as Parameters<typeof call>[0], {
      method,
      path: requestPath,
      params: params as Record<string, string>,
      body,
      ...(caller === 'owner' ? { token: ownerB.token } : { apiKey: keyB }),
    });
    const after = await snapshotOf(db, a.tenantId);

    expect(res.status, `${method} ${requestPath} answered ${JSON.stringify(res.body)}`).toBe(expected);
    // Every refusal is {error}; a 422 adds the problems one by one (issues).
    if (res.status >= 400)
      expect(Object.keys(res.body)).toEqual(res.status === 422 ? ['error', 'issues'] : ['error']);
    const sent = `${requestPath} ${JSON.stringify(body ?? null)}`;
    const identifiersOfA = [
      a.tenantId,
      a.siteId,
      a.hostname,
      a.keyId,
      a.memberId,
      a.monitorId,
      a.statusPageId,
      a.statusPageSlug,
      a.windowId,
      a.incidentId,
      a.manualIncidentId,
      a.ownerEmail,
      a.ownerUserId,
      a.ownerSessionId,
      a.memberEmail,
    ];
    const text = JSON.stringify(res.body);
    for (const identifier of identifiersOfA.filter((id) => !sent.includes(id))) {
      expect(text, `the answer mentions A's ${identifier}`).not.toContain(identifier);
    }
    expect(after).toEqual(before);
  });
});
