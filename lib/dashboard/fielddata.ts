import { and, eq } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import { config } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { fieldDataSyncs } from '@/lib/db/schema';
import { NotFoundError } from '@/lib/errors';
import { FORM_FACTORS, type FormFactor } from '@/lib/fielddata/metrics';
import { type FieldDataReport, getFieldDataReport } from '@/lib/fielddata/report';
import { getVisibleSite } from '@/lib/sites/access';

/** Where the site's field data stands, for what the Performance tab says instead of showing zeros. */
export type PerformanceView =
  | { state: 'off' }
  | ({ state: 'never-synced' } & SyncFacts)
  | ({ state: 'no-data'; checkedAt: number } & SyncFacts)
  | ({
      state: 'ok';
      checkedAt: number;
      /** Each device's report; null where Chrome's dataset has too few such visits. */
      reports: Record<FormFactor, FieldDataReport | null>;
    } & SyncFacts);

type SyncFacts = {
  /** The server has a CrUX API key: without one nothing syncs and "Sync now" cannot be offered. */
  configured: boolean;
  /** The origin last asked about (the root URL's, after its redirects); null before the first sync. */
  origin: string | null;
  /** Why the last sync failed; null after a good one. */
  lastError: string | null;
};

/**
 * Whether this server can sync field data at all (it has a CrUX API key). The Performance app is on
 * by default (spec: Apps), so without a key every form and list says the app is inactive rather
 * than showing it as simply "on".
 */
export function fieldDataConfigured(): boolean {
  return Boolean(config().CRUX_API_KEY);
}

/**
 * The Performance tab's view of a visible site: the app off, never synced, no data in Chrome's
 * dataset, or the report of every device from the service the API answers with
 * (GET /v1/sites/{id}/fielddata), so the page and the API cannot disagree.
 */
export async function performanceView(
  db: Db,
  principal: Principal,
  siteId: string,
): Promise<PerformanceView> {
  const site = await getVisibleSite(db, principal, siteId);
  if (site.performance_enabled !== 1) return { state: 'off' };
  const [sync] = await db
    .select({ origin: fieldDataSyncs.origin, lastError: fieldDataSyncs.last_error })
    .from(fieldDataSyncs)
    .where(and(eq(fieldDataSyncs.tenant_id, site.tenant_id), eq(fieldDataSyncs.site_id, site.id)));
  const facts: SyncFacts = {
    configured: fieldDataConfigured(),
    origin: sync?.origin ?? null,
    lastError: sync?.lastError ?? null,
  };
  const checkedAt = site.fielddata_checked_at;
  if (site.fielddata_status === null || checkedAt === null) return { state: 'never-synced', ...facts };
  if (site.fielddata_status === 'no-data') return { state: 'no-data', checkedAt, ...facts };
  const reports = Object.fromEntries(
    await Promise.all(FORM_FACTORS.map(async (f) => [f, await reportOrNull(db, principal, site.id, f)])),
  ) as Record<FormFactor, FieldDataReport | null>;
  return { state: 'ok', checkedAt, reports, ...facts };
}

/** The report of one device; null where the service's 404 says it has no windows for it. */
async function reportOrNull(
  db: Db,
  principal: Principal,
  siteId: string,
  formFactor: FormFactor,
): Promise<FieldDataReport | null> {
  try {
    return await getFieldDataReport(db, principal, siteId, formFactor);
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}
