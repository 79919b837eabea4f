import type { Site } from '@/lib/db/schema';
import { MINUTE_MS } from './limits';

/** The fields the scheduler reads, and the ones a settings change can move. */
export type ScheduleInputs = Pick<
  Site,
  | 'scanner_enabled'
  | 'a11y_enabled'
  | 'cadence_minutes'
  | 'a11y_cadence_minutes'
  | 'last_run_at'
  | 'next_run_at'
  | 'a11y_next_run_at'
>;
export type Schedule = Pick<Site, 'enabled' | 'next_run_at' | 'a11y_next_run_at'>;

/**
 * The crawl is shared infrastructure: it stays scheduled while Broken Links or Accessibility is on,
 * and is unscheduled only when both are off (SEO alone rides on crawls but does not cause them).
 */
export const crawlWanted = (s: Pick<Site, 'scanner_enabled' | 'a11y_enabled'>) =>
  s.scanner_enabled === 1 || s.a11y_enabled === 1;

/** A null accessibility cadence falls back to the crawl cadence (spec, Site resource). */
export const effectiveA11yCadence = (s: Pick<Site, 'a11y_cadence_minutes' | 'cadence_minutes'>) =>
  s.a11y_cadence_minutes ?? s.cadence_minutes;

/**
 * A new site: the first crawl is due at once when a crawl app is on. That first crawl chains the
 * accessibility pass (a full scan does when the app is installed), so the standalone accessibility
 * clock starts one accessibility cadence later.
 */
export function initialSchedule(
  site: Pick<Site, 'scanner_enabled' | 'a11y_enabled' | 'cadence_minutes' | 'a11y_cadence_minutes'>,
  now: number,
): Schedule {
  const crawl = crawlWanted(site);
  return {
    enabled: crawl ? 1 : 0,
    next_run_at: crawl ? now : null,
    a11y_next_run_at: site.a11y_enabled === 1 ? now + effectiveA11yCadence(site) * MINUTE_MS : null,
  };
}

/**
 * A manual crawl of a site whose first crawl is still pending (never ran, scheduled) is that first
 * crawl: the clock records it as the last run and counts the next one from it, so registering a site
 * and crawling it at once does not crawl it twice a minute apart. Otherwise (null) a manual crawl
 * leaves the clock alone.
 */
export function scheduleAfterManualCrawl(
  site: Pick<Site, 'enabled' | 'last_run_at' | 'next_run_at' | 'cadence_minutes'>,
  now: number,
): Pick<Site, 'last_run_at' | 'next_run_at'> | null {
  if (site.enabled !== 1 || site.last_run_at !== null || site.next_run_at === null) return null;
  return { last_run_at: now, next_run_at: now + site.cadence_minutes * MINUTE_MS };
}

/**
 * The schedule after a settings edit, from the row before and the row as edited.
 *
 * Crawl clock:
 * - both crawl apps off: unscheduled (`enabled` 0, `next_run_at` null);
 * - the first crawl app turned on (or a scheduled site without a due time): due at once if the site
 *   never ran, else one cadence after the last run (which may already be past: then due at once);
 * - cadence changed: recomputed from the last run, so it takes effect without waiting out the old
 *   cycle; a site that never ran keeps its due time (its first crawl is already pending);
 * - otherwise unchanged.
 *
 * Accessibility clock (standalone scans over the crawl's persisted pages, `lastA11yRunAt` = start of
 * the latest accessibility run):
 * - app off: null;
 * - app newly on: one cadence after its last scan; never scanned: at once when a crawl has left a
 *   page set to scan, else one cadence out (the site's first crawl chains the pass);
 * - effective cadence changed: recomputed from the last scan, or kept if it never scanned;
 * - otherwise unchanged.
 */
export function rescheduleAfterEdit(
  before: ScheduleInputs,
  after: ScheduleInputs,
  lastA11yRunAt: number | null,
  now: number,
): Schedule {
  return {
    ...crawlClock(before, after, now),
    a11y_next_run_at: a11yClock(before, after, lastA11yRunAt, now),
  };
}

function crawlClock(
  before: ScheduleInputs,
  after: ScheduleInputs,
  now: number,
): Omit<Schedule, 'a11y_next_run_at'> {
  if (!crawlWanted(after)) return { enabled: 0, next_run_at: null };
  const cadenceMs = after.cadence_minutes * MINUTE_MS;
  if (!crawlWanted(before) || before.next_run_at === null) {
    return { enabled: 1, next_run_at: after.last_run_at === null ? now : after.last_run_at + cadenceMs };
  }
  if (after.cadence_minutes !== before.cadence_minutes && after.last_run_at !== null) {
    return { enabled: 1, next_run_at: after.last_run_at + cadenceMs };
  }
  return { enabled: 1, next_run_at: before.next_run_at };
}

function a11yClock(
  before: ScheduleInputs,
  after: ScheduleInputs,
  lastA11yRunAt: number | null,
  now: number,
): number | null {
  if (after.a11y_enabled !== 1) return null;
  const cadenceMs = effectiveA11yCadence(after) * MINUTE_MS;
  if (before.a11y_enabled !== 1 || before.a11y_next_run_at === null) {
    if (lastA11yRunAt !== null) return lastA11yRunAt + cadenceMs;
    return after.last_run_at !== null ? now : now + cadenceMs;
  }
  if (effectiveA11yCadence(after) !== effectiveA11yCadence(before) && lastA11yRunAt !== null) {
    return lastA11yRunAt + cadenceMs;
  }
  return before.a11y_next_run_at;
}
