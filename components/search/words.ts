/*
 * The Search tab's words and figures, pure: what the OAuth callback's outcome means, and the
 * series as the chart and table show it.
 */
import type { SearchAnalytics } from '@/components/api/types';
import { formatMonthDay } from '@/lib/format';

/**
 * The callback's `?error=` values (lib/search/connection.ts CallbackError), in plain words. An
 * unknown value (a hand-edited address) gets the generic one.
 */
const CALLBACK_ERRORS: Record<string, string> = {
  access_denied: 'Access was not granted on Google’s screen, so nothing was connected.',
  expired: 'The Google sign-in took longer than 30 minutes and expired. Start it again.',
  scope:
    'Google connected the account without access to Search Console (the permission was unticked). Connect again and allow Search Console access.',
  exchange_failed: 'Google did not complete the connection. Try again in a moment.',
  not_available:
    'The connection could not be completed: the SEO app was turned off or this server’s Google client was removed meanwhile.',
};

export const callbackErrorText = (code: string) =>
  // Own keys only: `?error=toString` must not find Object.prototype's.
  (Object.hasOwn(CALLBACK_ERRORS, code) ? CALLBACK_ERRORS[code] : undefined) ??
  'The connection to Google did not complete. Try again.';

export type SearchDay = SearchAnalytics['series'][number];
const DAY_MS = 86_400_000;

/**
 * Every day from the first stored day to the last: Search Console leaves out days without
 * impressions, which are zero clicks and zero impressions (CTR and position have no value).
 */
export function dailyPoints(series: SearchDay[]) {
  const first = series[0];
  const last = series.at(-1);
  if (!first || !last) return [];
  const byDay = new Map(series.map((d) => [d.day, d]));
  const points = [];
  for (
    let at = Date.parse(`${first.day}T00:00:00Z`);
    at <= Date.parse(`${last.day}T00:00:00Z`);
    at += DAY_MS
  ) {
    const day = new Date(at).toISOString().slice(0, 10);
    const stored = byDay.get(day);
    points.push({
      day,
      at,
      clicks: stored?.clicks ?? 0,
      impressions: stored?.impressions ?? 0,
      ctr: stored ? stored.ctr : null,
      position: stored ? stored.position : null,
    });
  }
  return points;
}
export type DailyPoint = ReturnType<typeof dailyPoints>[number];

/** The range's totals: CTR over all its impressions, position weighted by impressions. */
export function rangeTotals(series: SearchDay[]) {
  const clicks = series.reduce((sum, d) => sum + d.clicks, 0);
  const impressions = series.reduce((sum, d) => sum + d.impressions, 0);
  const weighted = series.reduce((sum, d) => sum + d.position * d.impressions, 0);
  return {
    clicks,
    impressions,
    ctr: impressions > 0 ? clicks / impressions : null,
    position: impressions > 0 ? weighted / impressions : null,
  };
}

export const formatCtr = (ctr: number | null) => (ctr === null ? '—' : `${(ctr * 100).toFixed(1)}%`);
export const formatPosition = (position: number | null) => (position === null ? '—' : position.toFixed(1));
export const formatChange = (pct: number | null) =>
  pct === null ? 'no earlier clicks to compare' : `${pct > 0 ? '+' : ''}${pct.toFixed(1)}%`;

const dayFormat = new Intl.DateTimeFormat('en', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});
/** "Mon, Nov 24" for a `YYYY-MM-DD` day (a calendar day, no time zone shift). */
export const formatDay = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));
/** "Nov 24". */
export const formatShortDay = (day: string) => formatMonthDay(Date.parse(`${day}T00:00:00Z`));
