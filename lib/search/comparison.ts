/**
 * The traffic comparison of the search connection, pure: the last 7 final days against the 7 days
 * before, and whether that is a drop worth an alert.
 */

export interface DayClicks {
  day: string;
  clicks: number;
  impressions: number;
}

export interface WeekTotals {
  /** First and last day, `YYYY-MM-DD`, inclusive. */
  from: string;
  to: string;
  clicks: number;
  impressions: number;
}

export interface TrafficComparison {
  last7: WeekTotals;
  previous7: WeekTotals;
  /** (last7 - previous7) / previous7 in percent, one decimal; null when the previous week had none. */
  clicksChangePct: number | null;
  impressionsChangePct: number | null;
  /** The alert's rule holds: previous7 has at least the minimum clicks and last7 fell by the threshold. */
  drop: boolean;
}

export interface DropRule {
  thresholdPct: number;
  minClicks: number;
}

const DAY_MS = 86_400_000;
/**
 * Final data lags two to three days. A property with no final row for this many days is not late
 * but silent (no impressions at all: dropped from the index, say): its days count as zero from here.
 */
export const SILENT_AFTER_DAYS = 7;

export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
export const addDays = (day: string, days: number) => isoDay(dayMs(day) + days * DAY_MS);

/**
 * The last final day the comparison ends on: the newest stored day, or `SILENT_AFTER_DAYS` before
 * today when the newest is older than that. Null when nothing was ever stored.
 */
export function comparisonEnd(newestDay: string | null, now: number): string | null {
  if (newestDay === null) return null;
  const silentFrom = isoDay(now - SILENT_AFTER_DAYS * DAY_MS);
  return newestDay < silentFrom ? silentFrom : newestDay;
}

const pct = (now: number, before: number) =>
  before === 0 ? null : Math.round(((now - before) / before) * 1000) / 10;

/** Days missing from `days` (Search Console omits days without impressions) count as zero. */
export function compareWeeks(days: DayClicks[], end: string, rule: DropRule): TrafficComparison {
  const total = (from: string, to: string): WeekTotals => {
    const inside = days.filter((d) => d.day >= from && d.day <= to);
    return {
      from,
      to,
      clicks: inside.reduce((sum, d) => sum + d.clicks, 0),
      impressions: inside.reduce((sum, d) => sum + d.impressions, 0),
    };
  };
  const last7 = total(addDays(end, -6), end);
  const previous7 = total(addDays(end, -13), addDays(end, -7));
  const clicksChangePct = pct(last7.clicks, previous7.clicks);
  return {
    last7,
    previous7,
    clicksChangePct,
    impressionsChangePct: pct(last7.impressions, previous7.impressions),
    drop:
      previous7.clicks > 0 &&
      previous7.clicks >= rule.minClicks &&
      last7.clicks <= previous7.clicks * (1 - rule.thresholdPct / 100),
  };
}

/**
 * Whether an alerted drop is over: the last 7 days came back within half the threshold (a 30% rule
 * recovers above -15%). The margin keeps a week hovering at the threshold from alerting every day.
 */
export function recovered(comparison: TrafficComparison, rule: DropRule): boolean {
  const { last7, previous7 } = comparison;
  return previous7.clicks === 0 || last7.clicks > previous7.clicks * (1 - rule.thresholdPct / 200);
}
