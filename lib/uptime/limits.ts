/** The spec's monitor limits (Limits; Uptime monitors), in one place for the schemas and the services. */

/** Probe cadences a monitor may use, in seconds. */
export const CADENCES_SECONDS = [60, 300, 900, 1800, 3600] as const;
export type CadenceSeconds = (typeof CADENCES_SECONDS)[number];
export const DEFAULT_CADENCE_SECONDS: CadenceSeconds = 60;

export const MIN_TIMEOUT_SECONDS = 1;
export const MAX_TIMEOUT_SECONDS = 30;
export const DEFAULT_TIMEOUT_SECONDS = 10;

export const MAX_MONITOR_NAME_LENGTH = 100;
export const MAX_ALERT_EMAILS = 10;
export const MAX_ALERT_WEBHOOKS = 5;

/** GET .../metrics?hours=: 1 hour to 90 days, 24 by default. */
export const MIN_METRICS_HOURS = 1;
export const MAX_METRICS_HOURS = 2160;
export const DEFAULT_METRICS_HOURS = 24;
