import { jsonBody, type RetryPolicy, requestWithRetries } from '@/lib/net/api';
import type { FieldWindow, FormFactor, Metric } from './metrics';

/**
 * The CrUX History API (`records:queryHistoryRecord`), as documented at
 * developer.chrome.com/docs/crux/history-api: one POST per origin and form factor, answering every
 * metric as a time series over the weekly collection periods, oldest first.
 *
 *   {record: {key, metrics: {largest_contentful_paint: {percentilesTimeseries: {p75s: [2100, null, ...]}}},
 *             collectionPeriods: [{firstDate: {year, month, day}, lastDate: {...}}, ...]}}
 *
 * A p75 is a number, or for CLS a string ("0.05"); a period without data is null (or "NaN", or
 * missing from a short array): stored as null, never as zero. 404 NOT_FOUND means the origin is not
 * in the dataset. The key travels in the `X-Goog-Api-Key` header, never in a URL that could be logged.
 */

/** The metrics asked for, by their CrUX names. */
export const CRUX_METRICS: Record<Metric, string> = {
  lcp: 'largest_contentful_paint',
  inp: 'interaction_to_next_paint',
  cls: 'cumulative_layout_shift',
  ttfb: 'experimental_time_to_first_byte',
};

/** The most collection periods the History API returns (weekly, so about 40 weeks). */
export const COLLECTION_PERIOD_COUNT = 40;

export type CruxHistory = { kind: 'ok'; windows: FieldWindow[] } | { kind: 'not-found' };

export interface CruxClient {
  apiKey: string;
  /** `CRUX_API_URL`, without a trailing slash. */
  baseUrl: string;
  /** Retries on 429/5xx (honouring Retry-After) and the shared quota's pacing (`beforeAttempt`). */
  retry?: RetryPolicy;
}

/** Raised for an answer the sync cannot use (after retries); its message carries no secret. */
export class CruxError extends Error {
  override readonly name = 'CruxError';
}

export async function queryHistory(
  client: CruxClient,
  origin: string,
  formFactor: FormFactor,
): Promise<CruxHistory> {
  const response = await requestWithRetries(
    {
      url: `${client.baseUrl}/v1/records:queryHistoryRecord`,
      method: 'POST',
      headers: { 'x-goog-api-key': client.apiKey, accept: 'application/json' },
      json: {
        origin,
        ...(formFactor === 'ALL' ? {} : { formFactor }),
        metrics: Object.values(CRUX_METRICS),
        collectionPeriodCount: COLLECTION_PERIOD_COUNT,
      },
      timeoutMs: 30_000,
      maxBytes: 2 * 1024 * 1024,
      onTooLarge: 'error',
    },
    client.retry,
  );
  if (response.status === 404) return { kind: 'not-found' };
  const body = jsonBody(response.body);
  if (response.status !== 200) {
    throw new CruxError(`CrUX API answered ${response.status}${googleErrorMessage(body)}`);
  }
  return { kind: 'ok', windows: windowsOf(body) };
}

/** The windows of a queryHistoryRecord answer, oldest first; exported for its unit test. */
export function windowsOf(body: unknown): FieldWindow[] {
  const record = (body as { record?: unknown } | null)?.record as
    | { metrics?: Record<string, unknown>; collectionPeriods?: unknown }
    | undefined;
  const periods = Array.isArray(record?.collectionPeriods) ? record.collectionPeriods : [];
  const p75sOf = (metric: Metric): unknown[] => {
    const series = (record?.metrics?.[CRUX_METRICS[metric]] as { percentilesTimeseries?: { p75s?: unknown } })
      ?.percentilesTimeseries?.p75s;
    return Array.isArray(series) ? series : [];
  };
  const p75s = { lcp: p75sOf('lcp'), inp: p75sOf('inp'), cls: p75sOf('cls'), ttfb: p75sOf('ttfb') };
  const windows: FieldWindow[] = [];
  periods.forEach((period, i) => {
    const periodEnd = isoDate((period as { lastDate?: unknown })?.lastDate);
    if (!periodEnd) return;
    windows.push({
      periodEnd,
      lcp: numberOrNull(p75s.lcp[i]),
      inp: numberOrNull(p75s.inp[i]),
      cls: numberOrNull(p75s.cls[i]),
      ttfb: numberOrNull(p75s.ttfb[i]),
    });
  });
  return windows.sort((a, b) => a.periodEnd.localeCompare(b.periodEnd));
}

/** A p75 as sent: a number, a numeric string (CLS), or null / "NaN" / absent for no data. */
export function numberOrNull(value: unknown): number | null {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : NaN;
  return Number.isFinite(n) ? n : null;
}

function isoDate(value: unknown): string | null {
  const { year, month, day } = (value ?? {}) as { year?: unknown; month?: unknown; day?: unknown };
  if (![year, month, day].every((part) => Number.isInteger(part))) return null;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${year}-${pad(month as number)}-${pad(day as number)}`;
}

/** `: <message>` from Google's `{error: {code, message, status}}`, cut short. */
export function googleErrorMessage(body: unknown): string {
  const error = (body as { error?: unknown } | null)?.error;
  const message =
    typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  return typeof message === 'string' && message ? `: ${message.slice(0, 200)}` : '';
}
