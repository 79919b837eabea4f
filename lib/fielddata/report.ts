import { and, asc, eq } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import { config } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { fieldData } from '@/lib/db/schema';
import { ConflictError, NotFoundError } from '@/lib/errors';
import { getVisibleSite } from '@/lib/sites/access';
import type { FieldDataEvents } from './events';
import {
  deltasOf,
  type FieldWindow,
  type FormFactor,
  type MetricValues,
  type Verdict,
  verdictOf,
} from './metrics';

/** GET /v1/sites/{id}/fielddata (spec: Field performance data). */
export interface FieldDataReport {
  formFactor: FormFactor;
  checkedAt: number;
  latest: FieldWindow;
  verdict: Verdict | null;
  deltas: { d7: MetricValues; d28: MetricValues };
  series: FieldWindow[];
}

export const PERFORMANCE_OFF = 'the Performance app is not enabled for this site';
/**
 * The Performance app is on by default (spec: Apps) whether or not the server can sync: without a
 * key the answer says the app is inactive and how it is enabled, not only that nothing was synced.
 */
export const NOT_CONFIGURED =
  'field data is not configured on this server (CRUX_API_KEY is not set), so no data has been synced: the Performance app stays inactive until whoever runs the server sets CRUX_API_KEY to a Google Cloud API key with the Chrome UX Report API enabled';

/**
 * The report of one form factor, from the stored windows. 404s, each saying why: the site is not
 * visible, the app is off, the origin has not been synced yet, or Chrome's dataset has no data for it.
 */
export async function getFieldDataReport(
  db: Db,
  principal: Principal,
  siteId: string,
  formFactor: FormFactor,
): Promise<FieldDataReport> {
  const site = await getVisibleSite(db, principal, siteId);
  if (site.performance_enabled !== 1) throw new NotFoundError(PERFORMANCE_OFF);
  if (site.fielddata_status === null || site.fielddata_checked_at === null) {
    throw new NotFoundError(
      config().CRUX_API_KEY
        ? 'no field data yet: the daily sync has not checked this origin yet'
        : NOT_CONFIGURED,
    );
  }
  if (site.fielddata_status === 'no-data') {
    throw new NotFoundError(
      "no field data: Chrome's real-user dataset (CrUX) does not have enough data for this site's origin",
    );
  }
  const rows = await db
    .select()
    .from(fieldData)
    .where(
      and(
        eq(fieldData.tenant_id, site.tenant_id),
        eq(fieldData.site_id, site.id),
        eq(fieldData.form_factor, formFactor),
      ),
    )
    .orderBy(asc(fieldData.period_end));
  const series: FieldWindow[] = rows.map((r) => ({
    periodEnd: r.period_end,
    lcp: r.lcp,
    inp: r.inp,
    cls: r.cls,
    ttfb: r.ttfb,
  }));
  const latest = series.at(-1);
  if (!latest) {
    const devices = { ALL: 'any device', PHONE: 'phones', DESKTOP: 'desktops' }[formFactor];
    throw new NotFoundError(
      `no field data for ${devices}: Chrome's dataset has too few such visits to this origin`,
    );
  }
  return {
    formFactor,
    checkedAt: site.fielddata_checked_at,
    latest,
    verdict: verdictOf(latest),
    deltas: deltasOf(series),
    series,
  };
}

/**
 * POST /v1/sites/{id}/fielddata/sync: queues a sync of the site now (202). 404 with the app off (as
 * the report), 409 when the server has no CrUX key. Requests within the same minute are one sync.
 */
export async function requestFieldDataSync(
  db: Db,
  principal: Principal,
  siteId: string,
  events: FieldDataEvents,
  now = Date.now(),
): Promise<{ queued: true }> {
  const site = await getVisibleSite(db, principal, siteId);
  if (site.performance_enabled !== 1) throw new NotFoundError(PERFORMANCE_OFF);
  if (!config().CRUX_API_KEY) throw new ConflictError(NOT_CONFIGURED);
  await events.syncRequested([
    { siteId: site.id, tenantId: site.tenant_id, key: `manual:${Math.floor(now / 60_000)}` },
  ]);
  return { queued: true };
}
