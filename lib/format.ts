const dateTime = new Intl.DateTimeFormat('en', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

/** Epoch ms as a fixed UTC timestamp, identical on server and client (no hydration drift). */
export function formatDateTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  return `${dateTime.format(new Date(ms))} UTC`;
}

const dateOnly = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });

/** "Nov 24, 2026": the UTC day alone, where the time of day is not worth showing. */
export function formatDate(ms: number): string {
  return dateOnly.format(new Date(ms));
}

const dayAndTime = new Intl.DateTimeFormat('en', {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** "Nov 24, 14:00": a day and a 24-hour time in UTC, for chart axes and hourly figures. */
export function formatDayAndTime(ms: number): string {
  return dayAndTime.format(new Date(ms));
}

const shortDay = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** "Nov 24": the day alone in UTC, for chart axes where the time does not matter. */
export function formatMonthDay(ms: number): string {
  return shortDay.format(new Date(ms));
}

/** "<1s", "42s", "3m 5s", "2h 10m". */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  // Not "0s": a crawl that failed at once read "after 0s", as if it had taken no time at all.
  if (s === 0) return '<1s';
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  const h = Math.floor(m / 60);
  return `${h}h ${m % 60}m`;
}

export function formatCadence(minutes: number | null | undefined): string {
  if (!minutes) return '—';
  if (minutes % 10080 === 0) {
    const w = minutes / 10080;
    return w === 1 ? 'Weekly' : `Every ${w} weeks`;
  }
  if (minutes % 1440 === 0) {
    const d = minutes / 1440;
    return d === 1 ? 'Daily' : d === 30 ? 'Monthly' : `Every ${d} days`;
  }
  return `Every ${minutes} minutes`;
}

export const formatNumber = (n: number) => new Intl.NumberFormat('en').format(n);

/** Parses a JSON-encoded string array (exclude_paths, strip_params); anything else reads as empty. */
export function parseStringArray(json: string | null | undefined): string[] {
  if (!json) return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}
