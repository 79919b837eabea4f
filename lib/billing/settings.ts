import { and, eq } from 'drizzle-orm';
import { config } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { appPauses, billingSettings } from '@/lib/db/schema';
import { billingPeriod } from './period';

/** Sites the subscription includes (INCLUDED_SITES); more need overage on. */
export const includedSites = (): number => config().INCLUDED_SITES;

export interface OverageState {
  /** Overage billing is off until an owner or admin turns it on (spec: pause-by-default). */
  enabled: boolean;
  /**
   * When the overage setting last changed. Turning overage off re-arms pause-and-notify: the
   * notification's dedupe key includes this, so a pause after re-arming notifies again.
   */
  armedAt: number;
}

/** The columns the state is read from; a listing that joins billing_settings selects these. */
export const overageColumns = {
  enabled: billingSettings.overage_enabled,
  armedAt: billingSettings.updated_at,
};

/** The state from those columns; a tenant without a settings row has overage off. */
export function toOverageState(row: { enabled: number; armedAt: number } | null | undefined): OverageState {
  return { enabled: row?.enabled === 1, armedAt: row?.armedAt ?? 0 };
}

/** The one reader of the tenant's overage setting. */
export async function overageState(db: Db, tenantId: string): Promise<OverageState> {
  const [row] = await db
    .select(overageColumns)
    .from(billingSettings)
    .where(eq(billingSettings.tenant_id, tenantId))
    .limit(1);
  return toOverageState(row);
}

/**
 * Turns overage billing on or off. A real change also clears the period's app pauses:
 * - turning it on un-pauses the apps (the scheduler's next tick finds nothing paused);
 * - turning it off re-arms pause-and-notify: the next app to reach its allowance pauses and notifies
 *   again instead of being found "already paused" by a stale row.
 */
export async function setOverage(
  db: Db,
  tenantId: string,
  enabled: boolean,
  now = Date.now(),
): Promise<void> {
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ on: billingSettings.overage_enabled })
      .from(billingSettings)
      .where(eq(billingSettings.tenant_id, tenantId))
      .for('update')
      .limit(1);
    const value = enabled ? 1 : 0;
    await tx
      .insert(billingSettings)
      .values({ tenant_id: tenantId, overage_enabled: value, updated_at: now })
      .onConflictDoUpdate({
        target: billingSettings.tenant_id,
        set: { overage_enabled: value, updated_at: now },
      });
    if ((before?.on ?? 0) !== value) {
      await tx
        .delete(appPauses)
        .where(and(eq(appPauses.tenant_id, tenantId), eq(appPauses.billing_period, billingPeriod(now))));
    }
  });
}
