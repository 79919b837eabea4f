/**
 * The Performance app's pure core: the four p75 metrics of a collection window, Google's Core Web
 * Vitals verdict over them, and their movement week on week. No I/O; the sync and the report call it.
 */

export const METRICS = ['lcp', 'inp', 'cls', 'ttfb'] as const;
export type Metric = (typeof METRICS)[number];

/** `ALL` = every device (the query leaves `formFactor` out); PHONE and DESKTOP as CrUX names them. */
export const FORM_FACTORS = ['ALL', 'PHONE', 'DESKTOP'] as const;
export type FormFactor = (typeof FORM_FACTORS)[number];

/** One rolling 28-day collection window: p75 of each metric, null when the dataset has none. */
export interface FieldWindow {
  /** `YYYY-MM-DD`, the last day of the window. */
  periodEnd: string;
  lcp: number | null;
  inp: number | null;
  cls: number | null;
  ttfb: number | null;
}

export type Verdict = 'pass' | 'fail';
export type MetricValues = Record<Metric, number | null>;

/**
 * "Good" p75 bounds of the three Core Web Vitals (web.dev/vitals): LCP 2.5 s, INP 200 ms, CLS 0.1,
 * each inclusive. TTFB is shown but is not a Core Web Vital, so it takes no part in the verdict.
 */
export const CORE_WEB_VITALS = { lcp: 2500, inp: 200, cls: 0.1 } as const;
export type CoreWebVital = keyof typeof CORE_WEB_VITALS;
const CORE = Object.keys(CORE_WEB_VITALS) as CoreWebVital[];

/** Google's three ratings of a p75 value (web.dev/articles/vitals, /articles/ttfb). */
export type Rating = 'good' | 'needs-improvement' | 'poor';

/**
 * Each metric's inclusive upper bounds of "good" and of "needs improvement" (above it: poor). The
 * Core Web Vitals' "good" is the verdict's bound; TTFB's bands are Google's too, for display only.
 */
export const RATING_BOUNDS: Record<Metric, { good: number; needsImprovement: number }> = {
  lcp: { good: CORE_WEB_VITALS.lcp, needsImprovement: 4000 },
  inp: { good: CORE_WEB_VITALS.inp, needsImprovement: 500 },
  cls: { good: CORE_WEB_VITALS.cls, needsImprovement: 0.25 },
  ttfb: { good: 800, needsImprovement: 1800 },
};

/** The rating of one metric's p75; null when the value is missing (no rating, not "good"). */
export function ratingOf(metric: Metric, value: number | null): Rating | null {
  if (value === null) return null;
  const bounds = RATING_BOUNDS[metric];
  if (value <= bounds.good) return 'good';
  return value <= bounds.needsImprovement ? 'needs-improvement' : 'poor';
}

/** pass: all three within their bound; fail: any above; null: any of the three missing. */
export function verdictOf(window: FieldWindow): Verdict | null {
  if (CORE.some((m) => window[m] === null)) return null;
  return CORE.every((m) => (window[m] as number) <= CORE_WEB_VITALS[m]) ? 'pass' : 'fail';
}

/** The Core Web Vitals of `window` above their bound (empty when it passes or cannot be judged). */
export function failingMetrics(window: FieldWindow): CoreWebVital[] {
  return CORE.filter((m) => window[m] !== null && (window[m] as number) > CORE_WEB_VITALS[m]);
}

const DAY_MS = 86_400_000;
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

/**
 * The window of `series` (oldest to newest, `latest` last) whose end is closest to `days` before the
 * latest's; a tie goes to the older one. Null when the series has no earlier window.
 */
export function windowClosestTo(series: FieldWindow[], days: number): FieldWindow | null {
  const latest = series.at(-1);
  if (!latest) return null;
  const target = dayNumber(latest.periodEnd) - days;
  let best: FieldWindow | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const window of series.slice(0, -1)) {
    const distance = Math.abs(dayNumber(window.periodEnd) - target);
    // Oldest first, so keeping the first of equal distances keeps the older window.
    if (distance < bestDistance) {
      best = window;
      bestDistance = distance;
    }
  }
  return best;
}

/** Rounded so that 0.12 - 0.05 reads 0.07, not 0.06999999999999999. */
const round = (n: number) => Math.round(n * 10_000) / 10_000;

/** Latest minus the reference, per metric (positive = slower or shiftier); null when either is missing. */
export function movement(latest: FieldWindow, reference: FieldWindow | null): MetricValues {
  const delta = (m: Metric) => {
    const now = latest[m];
    const then = reference?.[m] ?? null;
    return now === null || then === null ? null : round(now - then);
  };
  return { lcp: delta('lcp'), inp: delta('inp'), cls: delta('cls'), ttfb: delta('ttfb') };
}

/** `deltas.d7` and `deltas.d28` of the report: movement against the windows closest to 7 and 28 days back. */
export function deltasOf(series: FieldWindow[]): { d7: MetricValues; d28: MetricValues } {
  const latest = series.at(-1);
  if (!latest) throw new Error('deltasOf needs at least one window');
  return {
    d7: movement(latest, windowClosestTo(series, 7)),
    d28: movement(latest, windowClosestTo(series, 28)),
  };
}
