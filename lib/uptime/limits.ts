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

/** A heartbeat monitor's period: a minute (the deadline check runs every minute) to 30 days. */
export const MIN_PERIOD_SECONDS = 60;
export const MAX_PERIOD_SECONDS = 30 * 86_400;
/** The grace after a missed period before the incident opens: none to 7 days; 5 minutes by default. */
export const MIN_GRACE_SECONDS = 0;
export const MAX_GRACE_SECONDS = 7 * 86_400;
export const DEFAULT_GRACE_SECONDS = 300;
/** Pings counted per token and minute; past it a ping is refused (429) and changes nothing. */
export const PINGS_PER_MINUTE = 60;

/** An http monitor's expectations: at most this many status entries, and a text this long. */
export const MAX_EXPECTED_STATUSES = 20;
export const MAX_KEYWORD_LENGTH = 200;
/** The body bytes a keyword is looked for in (a bounded read through lib/net). */
export const KEYWORD_SCAN_BYTES = 1024 * 1024;

/** GET .../metrics?hours=: 1 hour to 90 days, 24 by default. */
export const MIN_METRICS_HOURS = 1;
export const MAX_METRICS_HOURS = 2160;
export const DEFAULT_METRICS_HOURS = 24;

/** Maintenance windows (README.md, "Maintenance windows"). */
export const MAX_WINDOW_TITLE_LENGTH = 100;
/** The longest window: a week. Longer work is a pause of the monitor, not maintenance. */
export const MAX_WINDOW_MS = 7 * 24 * 3_600_000;
/** How far ahead a window may be scheduled: a year. */
export const MAX_WINDOW_LEAD_MS = 365 * 24 * 3_600_000;
/**
 * A start at most this far in the past starts now (the form's "now" reaches the server a moment
 * later); earlier is refused, since a window cannot excuse downtime already measured.
 */
export const WINDOW_START_GRACE_MS = 5 * 60_000;
/** Windows not over yet, per site. */
export const MAX_OPEN_WINDOWS = 50;
/** Monitors a window may list (a site has a handful; all of them: omit the list). */
export const MAX_WINDOW_MONITORS = 50;
/** GET .../maintenance-windows: windows per answer. */
export const MAX_WINDOWS_LIST = 100;
