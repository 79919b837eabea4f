import type { Db } from '@/lib/db/client';
import type { PerfRegressionPayload } from '@/lib/notify/kinds';
import { enqueueNotification } from '@/lib/notify/outbox';
import { CORE_WEB_VITALS, type CoreWebVital, type FieldWindow, failingMetrics } from './metrics';

/** Outbox kind of the spec's "Performance regressions" event (perfAlertRecipients, perfAlertWebhooks). */
export const PERF_REGRESSION_KIND = 'perf-regression';

export interface Regression {
  tenantId: string;
  siteId: string;
  hostname: string;
  origin: string;
  /** The last window judged `pass` (null when it is no longer in the series). */
  before: FieldWindow | null;
  /** The window judged `fail`. */
  after: FieldWindow;
  now: number;
}

/** What the notification says failed: each Core Web Vital over its bound, with its value before and after. */
export interface FailingMetric {
  metric: CoreWebVital;
  threshold: number;
  before: number | null;
  after: number;
}

/**
 * Queues the performance-regression notification for a verdict that flipped from pass to fail.
 * Keyed on the site and the failing window, so a retried sync queues it once; the caller calls it
 * only on the flip (the remembered verdict was pass), so a verdict that stays `fail` never repeats it.
 */
export async function queueRegressionAlert(db: Db, r: Regression): Promise<boolean> {
  const failing: FailingMetric[] = failingMetrics(r.after).map((metric) => ({
    metric,
    threshold: CORE_WEB_VITALS[metric],
    before: r.before?.[metric] ?? null,
    after: r.after[metric] as number,
  }));
  return enqueueNotification(db, {
    tenantId: r.tenantId,
    siteId: r.siteId,
    kind: PERF_REGRESSION_KIND,
    dedupeKey: `${PERF_REGRESSION_KIND}:${r.siteId}:${r.after.periodEnd}`,
    payload: {
      hostname: r.hostname,
      origin: r.origin,
      formFactor: 'ALL',
      verdict: { before: 'pass', after: 'fail' },
      periodEnd: r.after.periodEnd,
      previousPeriodEnd: r.before?.periodEnd ?? null,
      failing,
      before: r.before,
      after: r.after,
    } satisfies PerfRegressionPayload & Record<string, unknown>,
    now: r.now,
  });
}
