import { createHash } from 'node:crypto';

/**
 * Daily jobs per site (field data, search analytics) run at a minute of the day of their own, taken
 * from a hash of the site id and the job's name, so a thousand sites spread over the day instead of
 * all calling a third-party API at midnight, and each site keeps its time from day to day.
 */
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** The site's minute of the UTC day (0 to 1439) for the job `job`. */
export function dailyMinute(siteId: string, job: string): number {
  const digest = createHash('sha256').update(`${job}:${siteId}`).digest();
  return digest.readUInt32BE(0) % 1440;
}

/** The first time strictly after `now` at the site's minute of the day. */
export function nextDailySlot(siteId: string, job: string, now: number): number {
  const today = Math.floor(now / DAY_MS) * DAY_MS + dailyMinute(siteId, job) * MINUTE_MS;
  return today > now ? today : today + DAY_MS;
}
