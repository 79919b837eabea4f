import type { FieldWindow } from '@/components/api/types';
import {
  type FormFactor,
  failingMetrics,
  type Metric,
  RATING_BOUNDS,
  type Rating,
  ratingOf,
  type Verdict,
} from '@/lib/fielddata/metrics';
import { formatDate, formatMonthDay } from '@/lib/format';

/*
 * The Performance tab's words for the field data: metric names, values with their units, Google's
 * ratings, the verdict and week-on-week movement. Pure, so unit tests read them without a browser.
 */

export const METRIC_NAMES: Record<Metric, { short: string; long: string }> = {
  lcp: { short: 'LCP', long: 'Largest Contentful Paint' },
  inp: { short: 'INP', long: 'Interaction to Next Paint' },
  cls: { short: 'CLS', long: 'Cumulative Layout Shift' },
  ttfb: { short: 'TTFB', long: 'Time to First Byte' },
};

export const DEVICE_LABELS: Record<FormFactor, string> = {
  ALL: 'All devices',
  PHONE: 'Phones',
  DESKTOP: 'Desktops',
};

/** "phones" in a sentence; "all devices" for ALL. */
export const deviceWords = (formFactor: FormFactor) => DEVICE_LABELS[formFactor].toLowerCase();

export const RATING_WORDS: Record<Rating, string> = {
  good: 'Good',
  'needs-improvement': 'Needs improvement',
  poor: 'Poor',
};

const grouped = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });

/**
 * A p75 with its unit: milliseconds whole and grouped ("2,540 ms": rounding to seconds would blur
 * the 2.5 s bound), CLS to two decimals as CrUX reports it. "No data" when missing, never zero.
 */
export function formatMetric(metric: Metric, value: number | null): string {
  if (value === null) return 'No data';
  return metric === 'cls' ? value.toFixed(2) : `${grouped.format(value)} ms`;
}

/** A chart axis tick: seconds from one second up ("2.5 s"), so the axis stays narrow. */
export function formatTick(metric: Metric, value: number): string {
  if (metric === 'cls') return String(Number(value.toFixed(2)));
  return value >= 1000 ? `${Number((value / 1000).toFixed(2))} s` : `${grouped.format(value)} ms`;
}

/**
 * The top of a CLS chart's axis: a multiple of 0.4, so that its five ticks fall on tenths (0, 0.1,
 * … 0.4) and the poor bound (0.25) is always in view. Millisecond axes round well on their own.
 */
export function clsAxisTop(series: FieldWindow[]): number {
  const highest = Math.max(0, ...series.map((w) => w.cls ?? 0));
  return Math.max(1, Math.ceil(highest / 0.4)) * 0.4;
}

/** "Good: 2,500 ms or less · Poor: over 4,000 ms", the bands in words. */
export function bandsDescription(metric: Metric): string {
  const { good, needsImprovement } = RATING_BOUNDS[metric];
  return `Good: ${formatMetric(metric, good)} or less · Poor: over ${formatMetric(metric, needsImprovement)}`;
}

/**
 * Movement against an earlier window (latest minus then), in words that do not lean on colour or
 * on the sign alone: lower is better for all four metrics. Null: one side of the comparison is missing.
 */
export function formatDelta(metric: Metric, delta: number | null): string {
  if (delta === null) return 'no comparison (a value is missing)';
  if (delta === 0) return 'no change';
  const size = formatMetric(metric, Math.abs(delta));
  return delta > 0 ? `+${size} (worse)` : `−${size} (better)`;
}

export type VerdictReading = { tone: 'success' | 'danger' | 'neutral'; title: string; detail: string };

/** The Core Web Vitals verdict of a window, said in words; the failing metrics are named. */
export function verdictReading(verdict: Verdict | null, window: FieldWindow): VerdictReading {
  if (verdict === 'pass') {
    return {
      tone: 'success',
      title: 'Passes the Core Web Vitals assessment',
      detail: 'LCP, INP and CLS are all good at the 75th percentile of real visits.',
    };
  }
  if (verdict === 'fail') {
    const failing = failingMetrics(window).map((m) => METRIC_NAMES[m].short);
    return {
      tone: 'danger',
      title: 'Fails the Core Web Vitals assessment',
      detail: `Not good at the 75th percentile: ${joinWords(failing)}.`,
    };
  }
  const missing = (['lcp', 'inp', 'cls'] as const).filter((m) => window[m] === null);
  return {
    tone: 'neutral',
    title: 'No Core Web Vitals verdict',
    detail: `Chrome's dataset has no value for ${joinWords(missing.map((m) => METRIC_NAMES[m].short))} in this window, so there is nothing to judge.`,
  };
}

const joinWords = (words: string[]) =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;

const DAY_MS = 86_400_000;

/** Epoch ms of a `YYYY-MM-DD` day (UTC midnight). */
export const dayMs = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** "Nov 15, 2026": a window's last day, as `YYYY-MM-DD` or its epoch ms. */
export const formatDay = (date: string | number) => formatDate(typeof date === 'number' ? date : dayMs(date));

/** "Oct 19 – Nov 15, 2026": the 28 days a window covers (CrUX windows end on `periodEnd`). */
export function windowRange(periodEnd: string): string {
  const end = dayMs(periodEnd);
  return `${formatMonthDay(end - 27 * DAY_MS)} – ${formatDate(end)}`;
}

/**
 * A metric's trend as a sentence: the chart's text alternative. Names the span, the latest value
 * and its rating, the best and worst weeks, and how many weeks have no value (gaps in the line).
 */
export function trendSummary(metric: Metric, series: FieldWindow[]): string {
  const name = `${METRIC_NAMES[metric].short} p75`;
  const first = series[0];
  const last = series.at(-1);
  if (!first || !last) return `${name}: no windows.`;
  const known = series.filter((w) => w[metric] !== null);
  const span = `${series.length} weekly ${series.length === 1 ? 'window' : 'windows'} ending ${formatDay(first.periodEnd)} to ${formatDay(last.periodEnd)}`;
  if (known.length === 0) return `${name} over ${span}: no value in any of them.`;
  const values = known.map((w) => w[metric] as number);
  const latest = last[metric];
  const rating = ratingOf(metric, latest);
  const parts = [
    rating
      ? `latest ${formatMetric(metric, latest)} (${RATING_WORDS[rating].toLowerCase()})`
      : 'no value in the latest window',
    `best ${formatMetric(metric, Math.min(...values))}`,
    `worst ${formatMetric(metric, Math.max(...values))}`,
  ];
  const gaps = series.length - known.length;
  if (gaps > 0) parts.push(`${gaps} ${gaps === 1 ? 'week' : 'weeks'} without data, shown as gaps`);
  return `${name} over ${span}: ${parts.join('; ')}.`;
}
