import { and, asc, desc, eq } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { appPauses, notificationSettings, type Run, runs, type Site, sites } from '@/lib/db/schema';
import { InvalidError } from '@/lib/errors';
import { getVisibleSite, visibleSitesCondition } from './access';
import { checkCadence } from './cadence';
import { type SiteCrawls, siteCrawls } from './crawl-summary';
import {
  DEFAULT_A11Y_CADENCE_MINUTES,
  DEFAULT_CADENCE_MINUTES,
  DEFAULT_MAX_CONCURRENCY,
  DEFAULT_MAX_PAGES,
} from './limits';
import {
  claimSiteSlot,
  getSiteQuota,
  lockTenantSites,
  refuseDuplicateRootUrl,
  type SiteQuota,
} from './quota';
import { type SiteResource, siteResource } from './resource';
import type { ParsedRootUrl } from './root-url';
import { effectiveA11yCadence, initialSchedule, rescheduleAfterEdit } from './schedule';

const flag = (on: boolean): 0 | 1 => (on ? 1 : 0);

/** Which apps run on a site; omitted: unchanged on edit, the default at creation. */
interface AppToggles {
  scannerEnabled?: boolean;
  a11yEnabled?: boolean;
  seoEnabled?: boolean;
  performanceEnabled?: boolean;
  uptimeEnabled?: boolean;
}

/** A new site, as validated by the caller (POST /v1/sites); omitted settings take the defaults. */
export interface CreateSiteInput extends AppToggles {
  rootUrl: ParsedRootUrl;
  cadenceMinutes?: number;
  maxPages?: number;
  maxConcurrency?: number;
  a11yCadenceMinutes?: number;
  excludePaths?: string[];
  stripParams?: string[];
}

/** An edit, as validated by the caller (PATCH /v1/sites/{id}); omitted fields keep their value. */
export interface UpdateSiteInput extends AppToggles {
  rootUrl?: ParsedRootUrl;
  cadenceMinutes?: number;
  /** null: fall back to the crawl cadence. */
  a11yCadenceMinutes?: number | null;
  excludePaths?: string[];
  stripParams?: string[];
}

/**
 * GET /v1/sites: the sites the caller may see, oldest first, the organization's site quota, and each
 * listed site's crawls at a glance (by siteId).
 */
export async function listSites(
  db: Db,
  principal: Principal,
): Promise<{ sites: SiteResource[]; quota: SiteQuota; crawls: SiteCrawls[] }> {
  const rows = await db
    .select()
    .from(sites)
    .where(and(eq(sites.tenant_id, principal.tenantId), visibleSitesCondition(principal)))
    .orderBy(asc(sites.created_at), asc(sites.id));
  const [quota, crawls] = await Promise.all([
    getSiteQuota(db, principal.tenantId),
    siteCrawls(db, principal),
  ]);
  // A site registered between the two reads is not listed: neither are its crawls.
  const listed = new Set(rows.map((r) => r.id));
  return { sites: rows.map(siteResource), quota, crawls: crawls.filter((c) => listed.has(c.siteId)) };
}

/**
 * POST /v1/sites (the route requires 'create-site'). Applies the spec's defaults, schedules the first
 * crawl at once when a crawl app is on, and takes a site slot under the tenant's lock (403 when the
 * included count is used up with overage off).
 */
export async function createSite(
  db: Db,
  principal: Principal,
  input: CreateSiteInput,
  now = Date.now(),
): Promise<SiteResource> {
  const a11yOn = input.a11yEnabled ?? false;
  const settings = {
    tenant_id: principal.tenantId,
    hostname: input.rootUrl.hostname,
    root_url: input.rootUrl.rootUrl,
    cadence_minutes: input.cadenceMinutes ?? DEFAULT_CADENCE_MINUTES,
    max_pages: input.maxPages ?? DEFAULT_MAX_PAGES,
    max_concurrency: input.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY,
    scanner_enabled: flag(input.scannerEnabled ?? true),
    a11y_enabled: flag(a11yOn),
    // Stored even with the app off, so switching it on later uses the cadence asked for.
    a11y_cadence_minutes: input.a11yCadenceMinutes ?? (a11yOn ? DEFAULT_A11Y_CADENCE_MINUTES : null),
    seo_enabled: flag(input.seoEnabled ?? true),
    performance_enabled: flag(input.performanceEnabled ?? true),
    uptime_enabled: flag(input.uptimeEnabled ?? true),
    exclude_paths: input.excludePaths ?? [],
    strip_params: input.stripParams ?? [],
    created_at: now,
  };
  const row = await db.transaction(async (tx) => {
    // A duplicate is refused before the quota is looked at: it is the more useful answer.
    await lockTenantSites(tx, principal.tenantId);
    await refuseDuplicateRootUrl(tx, { tenantId: principal.tenantId, rootUrl: settings.root_url });
    await claimSiteSlot(tx, principal.tenantId);
    const [inserted] = await tx
      .insert(sites)
      .values({ ...settings, ...initialSchedule(settings, now) })
      .returning();
    return inserted;
  });
  if (!row) throw new Error('site insert returned no row');
  return siteResource(row);
}

/**
 * PATCH /v1/sites/{id} (the route requires 'manage'). Omitted fields keep their value. Cadences obey
 * `checkCadence` (the floor, or a legacy below-floor cadence kept or slowed); newly enabling
 * Accessibility with no stored cadence makes it monthly; the schedule follows `rescheduleAfterEdit`.
 */
export async function updateSite(
  db: Db,
  principal: Principal,
  siteId: string,
  input: UpdateSiteInput,
  now = Date.now(),
): Promise<SiteResource> {
  const row = await db.transaction(async (tx) => {
    const before = await getVisibleSite(tx, principal, siteId, { forUpdate: true });
    if (input.rootUrl && input.rootUrl.rootUrl !== before.root_url) {
      await lockTenantSites(tx, before.tenant_id);
      await refuseDuplicateRootUrl(tx, {
        tenantId: before.tenant_id,
        rootUrl: input.rootUrl.rootUrl,
        exceptSiteId: before.id,
      });
    }
    const lastA11yRun = await latestRun(tx, { tenantId: before.tenant_id, siteId: before.id }, 'a11y');
    const after = applyEdit(before, input, lastA11yRun?.started_at ?? null, now);
    // Only what changed is written, so an edit never rewinds a column it did not touch.
    const changes = Object.fromEntries(
      Object.entries(after).filter(([key, value]) => before[key as keyof Site] !== value),
    ) as Partial<Site>;
    if (Object.keys(changes).length === 0) return before;
    const [updated] = await tx
      .update(sites)
      .set(changes)
      .where(and(eq(sites.tenant_id, before.tenant_id), eq(sites.id, before.id)))
      .returning();
    return updated ?? before;
  });
  return siteResource(row);
}

/** The site as edited: field rules first, then the schedule that follows from them. */
function applyEdit(before: Site, input: UpdateSiteInput, lastA11yRunAt: number | null, now: number): Site {
  const after: Site = { ...before };
  if (input.rootUrl) {
    after.root_url = input.rootUrl.rootUrl;
    after.hostname = input.rootUrl.hostname;
  }
  if (input.cadenceMinutes !== undefined) {
    const problem = checkCadence(input.cadenceMinutes, before.cadence_minutes);
    if (problem) throw new InvalidError('cadenceMinutes', problem);
    after.cadence_minutes = input.cadenceMinutes;
  }
  if (input.a11yCadenceMinutes !== undefined) {
    // The floor applies to the cadence the scan will actually run on: null falls back to the crawl
    // cadence, and a site without its own accessibility cadence already scans on the crawl's.
    const requested = input.a11yCadenceMinutes ?? after.cadence_minutes;
    const problem = checkCadence(requested, effectiveA11yCadence(before));
    if (problem) {
      throw new InvalidError(
        'a11yCadenceMinutes',
        input.a11yCadenceMinutes === null
          ? `null falls back to the crawl cadence (${requested}), which ${problem}`
          : problem,
      );
    }
    after.a11y_cadence_minutes = input.a11yCadenceMinutes;
  }
  if (input.scannerEnabled !== undefined) after.scanner_enabled = flag(input.scannerEnabled);
  if (input.a11yEnabled !== undefined) after.a11y_enabled = flag(input.a11yEnabled);
  if (input.seoEnabled !== undefined) after.seo_enabled = flag(input.seoEnabled);
  if (input.performanceEnabled !== undefined) after.performance_enabled = flag(input.performanceEnabled);
  if (input.uptimeEnabled !== undefined) after.uptime_enabled = flag(input.uptimeEnabled);
  if (input.excludePaths !== undefined) after.exclude_paths = input.excludePaths;
  if (input.stripParams !== undefined) after.strip_params = input.stripParams;

  if (before.a11y_enabled === 0 && after.a11y_enabled === 1 && after.a11y_cadence_minutes === null) {
    after.a11y_cadence_minutes = DEFAULT_A11Y_CADENCE_MINUTES;
  }
  return { ...after, ...rescheduleAfterEdit(before, after, lastA11yRunAt, now) };
}

/**
 * DELETE /v1/sites/{id} (the route requires 'manage'). Runs, reports, monitors and grants go with the
 * site (foreign keys cascade); the usage ledger keeps its rows (no foreign key, by design). Rows keyed
 * on the site without a foreign key (app pauses, the site's notification override) are removed here.
 * The slot is free as soon as this commits.
 */
export async function deleteSite(db: Db, principal: Principal, siteId: string): Promise<{ deleted: true }> {
  const site = await getVisibleSite(db, principal, siteId);
  await db.transaction(async (tx) => {
    await tx.delete(sites).where(and(eq(sites.tenant_id, site.tenant_id), eq(sites.id, site.id)));
    await tx
      .delete(appPauses)
      .where(and(eq(appPauses.tenant_id, site.tenant_id), eq(appPauses.site_id, site.id)));
    await tx
      .delete(notificationSettings)
      .where(
        and(eq(notificationSettings.tenant_id, site.tenant_id), eq(notificationSettings.scope, site.id)),
      );
  });
  return { deleted: true };
}

/** GET /v1/sites/{id}. */
export async function getSite(db: Db, principal: Principal, siteId: string): Promise<{ site: SiteResource }> {
  return { site: siteResource(await getVisibleSite(db, principal, siteId)) };
}

/** The site's most recent run of `kind`, or null. */
export async function latestRun(
  db: Db,
  { tenantId, siteId }: { tenantId: string; siteId: string },
  kind: Run['kind'],
): Promise<Run | null> {
  const [run] = await db
    .select()
    .from(runs)
    .where(and(eq(runs.tenant_id, tenantId), eq(runs.site_id, siteId), eq(runs.kind, kind)))
    .orderBy(desc(runs.started_at))
    .limit(1);
  return run ?? null;
}
