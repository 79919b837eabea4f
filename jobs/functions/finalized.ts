import { billingPeriod } from '@/lib/billing/period';
import type { Run } from '@/lib/db/schema';

/*
 * What the crawl's and the render pass's finalize functions share: the finalize step's result (step
 * results travel as JSON, so the run is handed on as the few fields the steps after it read) and
 * the event that tells the usage function an app's allowance was reached.
 */

interface Finalized {
  run: Run;
  finalizedNow: boolean;
  allowanceNotified: boolean;
}

/** The finalize step's result: whether this call finalized, and the run it finalized. */
export function finalizedStepResult({ run, finalizedNow, allowanceNotified }: Finalized) {
  return {
    finalizedNow,
    allowanceNotified,
    tenantId: run.tenant_id,
    siteId: run.site_id,
    state: run.state,
    startedAt: run.started_at,
  };
}

/** `usage/allowance-reached` for the run's month, when its finalization paused `app`. */
export function allowanceReachedEvent(
  { tenantId, siteId, startedAt }: ReturnType<typeof finalizedStepResult>,
  app: 'crawl' | 'a11y',
) {
  return {
    name: 'usage/allowance-reached' as const,
    data: { tenantId, siteId, app, period: billingPeriod(startedAt) },
  };
}
