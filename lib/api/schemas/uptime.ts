import { z } from 'zod';
import {
  CADENCES_SECONDS,
  DEFAULT_CADENCE_SECONDS,
  DEFAULT_METRICS_HOURS,
  DEFAULT_TIMEOUT_SECONDS,
  MAX_ALERT_EMAILS,
  MAX_ALERT_WEBHOOKS,
  MAX_METRICS_HOURS,
  MAX_MONITOR_NAME_LENGTH,
  MAX_TIMEOUT_SECONDS,
  MIN_METRICS_HOURS,
  MIN_TIMEOUT_SECONDS,
} from '@/lib/uptime/limits';
import { strictBoolean, wholeNumber } from './common';
import { emailList, webhookList } from './notifications';
import { targetUrl } from './target-url';

/*
 * Request side of the uptime monitor endpoints (spec: Uptime monitors; Limits). Not wired to
 * routes yet: the storage and API come next. Defaults are applied here rather than by the service
 * (unlike sites, whose defaults depend on stored state): a monitor's defaults are constants, and
 * a complete `CreateMonitorInput` leaves the service nothing to forget.
 */

const cadenceSeconds = () =>
  wholeNumber().refine((n) => (CADENCES_SECONDS as readonly number[]).includes(n), {
    error: `must be one of ${CADENCES_SECONDS.join(', ')}`,
  });

const timeoutSeconds = () =>
  wholeNumber()
    .min(MIN_TIMEOUT_SECONDS, `must be at least ${MIN_TIMEOUT_SECONDS}`)
    .max(MAX_TIMEOUT_SECONDS, `must be at most ${MAX_TIMEOUT_SECONDS}`);

/** null (or a blank string) shows the URL instead. */
const name = () =>
  z
    .string({ error: 'must be a string or null' })
    .trim()
    .max(MAX_MONITOR_NAME_LENGTH, `must be at most ${MAX_MONITOR_NAME_LENGTH} characters`)
    .nullable()
    .transform((value) => (value === '' ? null : value));

const alertEmails = () => emailList(MAX_ALERT_EMAILS);
const alertWebhooks = () => webhookList(MAX_ALERT_WEBHOOKS);

/** POST /v1/sites/{id}/uptime/monitors. */
export const createMonitorBody = z.strictObject({
  url: targetUrl,
  name: name().default(null),
  cadenceSeconds: cadenceSeconds().default(DEFAULT_CADENCE_SECONDS),
  timeoutSeconds: timeoutSeconds().default(DEFAULT_TIMEOUT_SECONDS),
  enabled: strictBoolean().default(true),
  alertEmails: alertEmails().default([]),
  alertWebhooks: alertWebhooks().default([]),
});
export type CreateMonitorInput = z.output<typeof createMonitorBody>;

/** PATCH /v1/sites/{id}/uptime/monitors/{monitorId}: omitted fields keep their value. */
export const updateMonitorBody = z.strictObject({
  url: targetUrl.optional(),
  name: name().optional(),
  cadenceSeconds: cadenceSeconds().optional(),
  timeoutSeconds: timeoutSeconds().optional(),
  enabled: strictBoolean().optional(),
  alertEmails: alertEmails().optional(),
  alertWebhooks: alertWebhooks().optional(),
});
export type UpdateMonitorInput = z.output<typeof updateMonitorBody>;

/** GET .../metrics?hours=: query strings are text, so the digits are read here. */
export const monitorMetricsQuery = z.object({
  hours: z
    .string()
    .regex(/^\d+$/, 'must be a whole number of hours')
    .transform(Number)
    .pipe(
      wholeNumber()
        .min(MIN_METRICS_HOURS, `must be at least ${MIN_METRICS_HOURS}`)
        .max(MAX_METRICS_HOURS, `must be at most ${MAX_METRICS_HOURS} (90 days)`),
    )
    .default(DEFAULT_METRICS_HOURS),
});
export type MonitorMetricsQuery = z.output<typeof monitorMetricsQuery>;
