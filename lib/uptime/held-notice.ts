import { sql } from 'drizzle-orm';
import { monitorPool, monitorsOverAllowance } from '@/lib/billing/monitors';
import { billingPeriod } from '@/lib/billing/period';
import { overageState } from '@/lib/billing/settings';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import { enqueueNotification } from '@/lib/notify/outbox';

/**
 * Tells each organization that has monitors held at the allowance, once per period and per
 * overage re-arm (spec: "a notification is sent when an allowance is reached with overage off";
 * turning overage off re-arms it). Run by the minute scheduler. Returns how many were queued.
 */
export async function notifyMonitorsHeld(db: Db, now: number): Promise<number> {
  const held = await queryRows<{ tenant_id: string; held: string | number }>(
    db,
    sql`select over.tenant_id, count(*) as held from (${monitorsOverAllowance()}) over group by over.tenant_id`,
  );
  const period = billingPeriod(now);
  let queued = 0;
  for (const { tenant_id: tenantId, held: count } of held) {
    const [{ used, pool }, overage] = await Promise.all([
      monitorPool(db, tenantId),
      overageState(db, tenantId),
    ]);
    const fresh = await enqueueNotification(db, {
      tenantId,
      siteId: null,
      kind: 'allowance-reached',
      dedupeKey: `allowance-reached:${tenantId}:monitors:${period}:${overage.armedAt}`,
      payload: { app: 'monitors', hostname: null, period, allowance: pool, used, held: Number(count) },
      now,
    });
    if (fresh) queued += 1;
  }
  return queued;
}
