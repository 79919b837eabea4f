import { and, asc, desc, eq, gte, sql } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { searchAnalytics, searchConnections } from '@/lib/db/schema';
import { NotFoundError } from '@/lib/errors';
import type { SearchTrafficDropPayload } from '@/lib/notify/kinds';
import { enqueueNotification } from '@/lib/notify/outbox';
import { getVisibleSite, siteOfTenant } from '@/lib/sites/access';
import { nextDailySlot } from '@/lib/sites/daily-slot';
import {
  addDays,
  compareWeeks,
  comparisonEnd,
  type DayClicks,
  isoDay,
  recovered,
  type TrafficComparison,
} from './comparison';
import { accessTokenOf, connectionOf, NOT_CONNECTED, SEO_OFF, type SearchConnectionRow } from './connection';
import {
  type AnalyticsDay,
  GoogleApiError,
  type GoogleCallOptions,
  GrantRevokedError,
  queryDailyAnalytics,
} from './google';

/** Outbox kind of the search-traffic-drop alert (searchAlertRecipients, searchAlertWebhooks). */
export const SEARCH_DROP_KIND = 'search-traffic-drop';
/** The job name of the analytics sync's daily slot (lib/sites/daily-slot). */
export const SEARCH_JOB = 'search-analytics';
/** Days fetched on a property's first sync. */
export const BACKFILL_DAYS = 90;
/** Days re-fetched before the newest stored one on later syncs (late-final days, corrections). */
const OVERLAP_DAYS = 7;

export const DEFAULT_ANALYTICS_DAYS = 28;
export const MAX_ANALYTICS_DAYS = 365;

export interface SearchAnalyticsReport {
  property: string;
  syncedAt: number | null;
  /** Days requested (`?days=`), ending on the newest stored day. */
  days: number;
  /** Oldest to newest; days without impressions are absent, as Search Console reports them. */
  series: AnalyticsDay[];
  /** Null until the first sync stored a day. */
  comparison: TrafficComparison | null;
}

const dayRows = (db: Db, c: Pick<SearchConnectionRow, 'tenant_id' | 'site_id'>, from: string) =>
  db
    .select({
      day: searchAnalytics.day,
      clicks: searchAnalytics.clicks,
      impressions: searchAnalytics.impressions,
      ctr: searchAnalytics.ctr,
      position: searchAnalytics.position,
    })
    .from(searchAnalytics)
    .where(
      and(
        eq(searchAnalytics.tenant_id, c.tenant_id),
        eq(searchAnalytics.site_id, c.site_id),
        gte(searchAnalytics.day, from),
      ),
    )
    .orderBy(asc(searchAnalytics.day));

async function newestDay(db: Db, c: Pick<SearchConnectionRow, 'tenant_id' | 'site_id'>) {
  const [row] = await db
    .select({ day: searchAnalytics.day })
    .from(searchAnalytics)
    .where(and(eq(searchAnalytics.tenant_id, c.tenant_id), eq(searchAnalytics.site_id, c.site_id)))
    .orderBy(desc(searchAnalytics.day))
    .limit(1);
  return row?.day ?? null;
}

async function comparisonOf(db: Db, c: SearchConnectionRow, now: number): Promise<TrafficComparison | null> {
  const end = comparisonEnd(await newestDay(db, c), now);
  if (!end) return null;
  const days: DayClicks[] = await dayRows(db, c, addDays(end, -13));
  return compareWeeks(days, end, { thresholdPct: c.drop_threshold_pct, minClicks: c.drop_min_clicks });
}

/** GET /v1/sites/{id}/search/analytics?days=: 404 with the SEO app off or no property connected. */
export async function getSearchAnalytics(
  db: Db,
  principal: Principal,
  siteId: string,
  days: number,
  now = Date.now(),
): Promise<SearchAnalyticsReport> {
  const site = await getVisibleSite(db, principal, siteId);
  if (site.seo_enabled !== 1) throw new NotFoundError(SEO_OFF);
  const connection = await connectionOf(db, site);
  if (!connection?.property || (connection.status !== 'connected' && connection.status !== 'error')) {
    throw new NotFoundError(NOT_CONNECTED);
  }
  const end = comparisonEnd(await newestDay(db, connection), now);
  return {
    property: connection.property,
    syncedAt: connection.analytics_synced_at,
    days,
    series: end ? await dayRows(db, connection, addDays(end, -(days - 1))) : [],
    comparison: await comparisonOf(db, connection, now),
  };
}

export type SearchSyncOutcome =
  | { status: 'skipped'; reason: string }
  | { status: 'synced'; days: number; from: string; to: string; alerted: boolean }
  | { status: 'error'; error: string };

/**
 * One site's analytics sync: final daily totals (90 days back on the property's first sync, the
 * last week again on later ones) upserted per day; then the traffic-drop check. A grant Google
 * refuses or a property the account can no longer read puts the connection in `error` (syncing
 * stops until fixed); other failures are thrown for the job to retry.
 */
export async function syncSearchAnalytics(
  db: Db,
  target: { tenantId: string; siteId: string },
  options: GoogleCallOptions & { now?: number } = {},
): Promise<SearchSyncOutcome> {
  const now = options.now ?? Date.now();
  const site = await siteOfTenant(db, { tenantId: target.tenantId, siteId: target.siteId });
  if (!site) return { status: 'skipped', reason: 'site not found' };
  if (site.seo_enabled !== 1) return { status: 'skipped', reason: 'the SEO app is off' };
  const connection = await connectionOf(db, site);
  if (connection?.status !== 'connected' || !connection.property) {
    return { status: 'skipped', reason: 'no connected property' };
  }

  let accessToken: string;
  try {
    accessToken = await accessTokenOf(db, connection, options);
  } catch (error) {
    if (error instanceof GrantRevokedError) return { status: 'error', error: 'grant refused' };
    throw error;
  }
  const newest = await newestDay(db, connection);
  const to = isoDay(now);
  const from = newest ? addDays(newest, -OVERLAP_DAYS) : addDays(to, -BACKFILL_DAYS);
  let rows: AnalyticsDay[];
  try {
    rows = await queryDailyAnalytics(
      accessToken,
      connection.property,
      { startDate: from, endDate: to },
      options,
    );
  } catch (error) {
    if (error instanceof GoogleApiError && (error.status === 403 || error.status === 404)) {
      const message = `the account can no longer read ${connection.property}: choose a property again`;
      await db
        .update(searchConnections)
        .set({ status: 'error', error: message, next_sync_at: null, updated_at: now })
        .where(and(eq(searchConnections.tenant_id, site.tenant_id), eq(searchConnections.id, connection.id)));
      return { status: 'error', error: message };
    }
    throw error;
  }

  return db.transaction(async (tx) => {
    if (rows.length > 0) {
      await tx
        .insert(searchAnalytics)
        .values(rows.map((r) => ({ tenant_id: site.tenant_id, site_id: site.id, ...r })))
        .onConflictDoUpdate({
          target: [searchAnalytics.site_id, searchAnalytics.day],
          setWhere: eq(searchAnalytics.tenant_id, site.tenant_id),
          set: {
            clicks: sql`excluded.clicks`,
            impressions: sql`excluded.impressions`,
            ctr: sql`excluded.ctr`,
            position: sql`excluded.position`,
          },
        });
    }
    const alerted = await checkTrafficDrop(tx, site, connection, now);
    await tx
      .update(searchConnections)
      .set({ analytics_synced_at: now, error: null, updated_at: now })
      .where(and(eq(searchConnections.tenant_id, site.tenant_id), eq(searchConnections.id, connection.id)));
    return { status: 'synced' as const, days: rows.length, from, to, alerted };
  });
}

/**
 * The traffic-drop alert, once per drop: a drop queues one notification and marks the connection
 * alerted; nothing more is queued until the drop is over (`recovered`), which clears the mark.
 */
async function checkTrafficDrop(
  tx: Db,
  site: { id: string; tenant_id: string; hostname: string },
  connection: SearchConnectionRow,
  now: number,
): Promise<boolean> {
  const comparison = await comparisonOf(tx, connection, now);
  if (!comparison) return false;
  const rule = { thresholdPct: connection.drop_threshold_pct, minClicks: connection.drop_min_clicks };
  const where = and(eq(searchConnections.tenant_id, site.tenant_id), eq(searchConnections.id, connection.id));
  if (comparison.drop) {
    const [marked] = await tx
      .update(searchConnections)
      .set({ drop_alerted: 1 })
      .where(and(where, eq(searchConnections.drop_alerted, 0)))
      .returning({ id: searchConnections.id });
    if (!marked) return false;
    return enqueueNotification(tx, {
      tenantId: site.tenant_id,
      siteId: site.id,
      kind: SEARCH_DROP_KIND,
      dedupeKey: `${SEARCH_DROP_KIND}:${site.id}:${comparison.last7.to}`,
      payload: {
        hostname: site.hostname,
        property: connection.property,
        last7: comparison.last7,
        previous7: comparison.previous7,
        clicksChangePct: comparison.clicksChangePct,
        thresholdPct: rule.thresholdPct,
        minClicks: rule.minClicks,
      } satisfies SearchTrafficDropPayload,
      now,
    });
  }
  if (connection.drop_alerted === 1 && recovered(comparison, rule)) {
    await tx.update(searchConnections).set({ drop_alerted: 0 }).where(where);
  }
  return false;
}

/** The next daily sync time of a connection (its site's own minute of the day). */
export const nextSearchSync = (siteId: string, now: number) => nextDailySlot(siteId, SEARCH_JOB, now);
