/**
 * The site settings' bounds (spec "Limits"). One place, so the request schemas, the service and the
 * tests agree on the numbers.
 */

/** Neither cadence may be more frequent than daily (see `checkCadence` for rows created below it). */
export const CADENCE_FLOOR_MINUTES = 1440;
/** Weekly re-crawl unless told otherwise. */
export const DEFAULT_CADENCE_MINUTES = 10_080;
/** Monthly (30 days) standalone accessibility scan when the app is on and no cadence is stored. */
export const DEFAULT_A11Y_CADENCE_MINUTES = 43_200;
/**
 * Not in the spec: a year. Beyond it a "cadence" is just "never", which is what switching the app off
 * says; the bound also keeps the value inside the 32-bit column.
 */
export const CADENCE_CEILING_MINUTES = 525_600;

export const DEFAULT_MAX_PAGES = 5000;
/**
 * Not in the spec: 20 times the default. maxPages is fixed at creation and sizes the crawl frontier;
 * an unbounded value would let one request commit the crawler to an arbitrarily large run.
 */
export const MAX_PAGES_CEILING = 100_000;

export const DEFAULT_MAX_CONCURRENCY = 100;
/** maxConcurrency is clamped into this range, never refused (spec). */
export const MIN_CONCURRENCY = 2;
export const MAX_CONCURRENCY = 200;

export const MAX_ROOT_URL_LENGTH = 2048;

export const clampConcurrency = (n: number) => Math.min(MAX_CONCURRENCY, Math.max(MIN_CONCURRENCY, n));

export const MINUTE_MS = 60_000;
