import { formatDayAndTime, formatMonthDay } from '@/lib/format';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Tick steps a time axis may use, shortest first: whole minutes, hours, days, then weeks. */
const STEPS = [
  MINUTE,
  5 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
  14 * DAY,
  28 * DAY,
  91 * DAY,
];

export interface TimeAxis {
  /** The axis runs from the first point to the last (a lone point gets a day either side). */
  domain: [number, number];
  /** Round UTC times inside the domain, at most `maxTicks` (its two ends when none falls inside). */
  ticks: number[];
  /** A tick's label: the day, or the day and time when ticks are less than a day apart. */
  format: (ms: number) => string;
}

/**
 * A time-scaled x axis for points at irregular times (crawls, scans, weekly windows): the axis is
 * proportional to time, so two crawls a week apart sit a week apart and a gap shows as a gap (a
 * category axis spaced them evenly whatever the time between them). Ticks fall on whole UTC hours or
 * days, the shortest step that keeps them to `maxTicks`. Pure: the recharts XAxis reads it.
 */
export function timeAxis(times: readonly number[], maxTicks = 6): TimeAxis {
  const known = times.filter(Number.isFinite);
  let from = known.length ? Math.min(...known) : 0;
  let to = known.length ? Math.max(...known) : 0;
  if (to === from) {
    from -= DAY;
    to += DAY;
  }
  const step = STEPS.find((s) => Math.floor(to / s) - Math.ceil(from / s) + 1 <= maxTicks) ?? STEPS.at(-1)!;
  const ticks: number[] = [];
  for (let t = Math.ceil(from / step) * step; t <= to; t += step) ticks.push(t);
  if (ticks.length === 0) return { domain: [from, to], ticks: [from, to], format: formatDayAndTime };
  return { domain: [from, to], ticks, format: step < DAY ? formatDayAndTime : formatMonthDay };
}
