import { and, eq, sql } from 'drizzle-orm';
import { config } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { fieldData, fieldDataSyncs, sites } from '@/lib/db/schema';
import type { RetryPolicy } from '@/lib/net/api';
import { siteOfTenant } from '@/lib/sites/access';
import { nextDailySlot } from '@/lib/sites/daily-slot';
import { queueRegressionAlert } from './alert';
import { type CruxHistory, queryHistory } from './crux';
import { type FieldWindow, FORM_FACTORS, type FormFactor, verdictOf } from './metrics';
import { siteOrigin } from './origin';
import { CRUX_PACE, type PaceClock, takeSlot } from './pacing';

/** The job name of the field-data sync's daily slot (lib/sites/daily-slot). */
export const FIELDDATA_JOB = 'fielddata';

export interface SyncTarget {
  tenantId: string;
  siteId: string;
}

export interface SyncOptions {
  now?: number;
  /** Tests: the retry policy's sleep and attempts (pacing is always added). */
  retry?: Omit<RetryPolicy, 'beforeAttempt'>;
  /** Tests: the pacing's clock. */
  paceClock?: PaceClock;
}

export type SyncOutcome =
  | { status: 'skipped'; reason: string }
  | {
      status: 'ok' | 'no-data';
      origin: string;
      /** Windows written (inserted or refreshed), over the three form factors. */
      windows: number;
      verdict: 'pass' | 'fail' | null;
      /** A performance-regression notification was queued by this sync. */
      alerted: boolean;
    };

/**
 * One site's daily sync: the origin (root URL after redirects), then the CrUX History API for all
 * devices, phones and desktops, each paced under the shared quota and retried on 429/5xx. Every
 * weekly window is upserted (a re-sync refreshes, never duplicates); the site's `fielddata_status`
 * becomes `ok`, or `no-data` when CrUX has no record of the origin, and `fielddata_checked_at` now.
 * A verdict that flips from pass to fail queues one regression alert, in the same transaction.
 * A failure leaves what was stored as it was, records `last_error` and is thrown for the job to retry.
 */
export async function syncFieldData(
  db: Db,
  target: SyncTarget,
  options: SyncOptions = {},
): Promise<SyncOutcome> {
  const c = config();
  const site = await siteOfTenant(db, { tenantId: target.tenantId, siteId: target.siteId });
  if (!site) return { status: 'skipped', reason: 'site not found' };
  if (site.performance_enabled !== 1) return { status: 'skipped', reason: 'the Performance app is off' };
  if (!c.CRUX_API_KEY) return { status: 'skipped', reason: 'CRUX_API_KEY is not set' };
  const now = options.now ?? Date.now();

  const origin = await siteOrigin(site.root_url);
  const client = {
    apiKey: c.CRUX_API_KEY,
    baseUrl: c.CRUX_API_URL,
    retry: { ...options.retry, beforeAttempt: () => takeSlot(db, CRUX_PACE, options.paceClock) },
  };
  const histories = new Map<FormFactor, CruxHistory>();
  try {
    for (const formFactor of FORM_FACTORS)
      histories.set(formFactor, await queryHistory(client, origin, formFactor));
  } catch (error) {
    await recordFailure(db, target, error, now);
    throw error;
  }

  const all = histories.get('ALL');
  const status = all?.kind === 'ok' && all.windows.length > 0 ? 'ok' : 'no-data';
  const latest = all?.kind === 'ok' ? all.windows.at(-1) : undefined;
  const verdict = latest ? verdictOf(latest) : null;

  return db.transaction(async (tx) => {
    const [state] = await tx
      .select()
      .from(fieldDataSyncs)
      .where(and(eq(fieldDataSyncs.tenant_id, target.tenantId), eq(fieldDataSyncs.site_id, target.siteId)))
      .for('update');
    // Another origin (the root URL now redirects elsewhere): its history is not this one's.
    if (state?.origin && state.origin !== origin) {
      await tx
        .delete(fieldData)
        .where(and(eq(fieldData.tenant_id, target.tenantId), eq(fieldData.site_id, target.siteId)));
    }
    let windows = 0;
    for (const [formFactor, history] of histories) {
      if (history.kind === 'ok') windows += await upsertWindows(tx, target, formFactor, history.windows, now);
    }
    await tx
      .update(sites)
      .set({ fielddata_status: status, fielddata_checked_at: now })
      .where(and(eq(sites.tenant_id, target.tenantId), eq(sites.id, target.siteId)));

    let alerted = false;
    if (latest && verdict === 'fail' && state?.verdict === 'pass') {
      const allWindows = (all as { windows: FieldWindow[] }).windows;
      const before = allWindows.find((w) => w.periodEnd === state.verdict_period_end) ?? null;
      alerted = await queueRegressionAlert(tx, {
        tenantId: target.tenantId,
        siteId: target.siteId,
        hostname: site.hostname,
        origin,
        before,
        after: latest,
        now,
      });
    }
    // The remembered verdict is the last one that could be judged: pass, a gap, then fail still alerts.
    const remembered = verdict ? { verdict, verdict_period_end: latest?.periodEnd ?? null } : {};
    await tx
      .insert(fieldDataSyncs)
      .values({
        site_id: target.siteId,
        tenant_id: target.tenantId,
        origin,
        ...remembered,
        next_sync_at: nextDailySlot(target.siteId, FIELDDATA_JOB, now),
        last_error: null,
        updated_at: now,
      })
      .onConflictDoUpdate({
        target: fieldDataSyncs.site_id,
        set: { origin, ...remembered, last_error: null, updated_at: now },
        setWhere: eq(fieldDataSyncs.tenant_id, target.tenantId),
      });
    return { status, origin, windows, verdict, alerted };
  });
}

async function upsertWindows(
  tx: Db,
  target: SyncTarget,
  formFactor: FormFactor,
  windows: FieldWindow[],
  now: number,
): Promise<number> {
  if (windows.length === 0) return 0;
  await tx
    .insert(fieldData)
    .values(
      windows.map((w) => ({
        tenant_id: target.tenantId,
        site_id: target.siteId,
        form_factor: formFactor,
        period_end: w.periodEnd,
        lcp: w.lcp,
        inp: w.inp,
        cls: w.cls,
        ttfb: w.ttfb,
        collected_at: now,
      })),
    )
    .onConflictDoUpdate({
      target: [fieldData.tenant_id, fieldData.site_id, fieldData.form_factor, fieldData.period_end],
      set: {
        lcp: sql`excluded.lcp`,
        inp: sql`excluded.inp`,
        cls: sql`excluded.cls`,
        ttfb: sql`excluded.ttfb`,
        collected_at: sql`excluded.collected_at`,
      },
    });
  return windows.length;
}

async function recordFailure(db: Db, target: SyncTarget, error: unknown, now: number): Promise<void> {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
  await db
    .insert(fieldDataSyncs)
    .values({
      site_id: target.siteId,
      tenant_id: target.tenantId,
      next_sync_at: nextDailySlot(target.siteId, FIELDDATA_JOB, now),
      last_error: message,
      updated_at: now,
    })
    .onConflictDoUpdate({
      target: fieldDataSyncs.site_id,
      set: { last_error: message, updated_at: now },
      setWhere: eq(fieldDataSyncs.tenant_id, target.tenantId),
    });
}
