import { describe, expect, it } from 'vitest';
import { parseConfig } from '@/lib/config';
import { numberOrNull, windowsOf } from '@/lib/fielddata/crux';
import {
  deltasOf,
  type FieldWindow,
  failingMetrics,
  verdictOf,
  windowClosestTo,
} from '@/lib/fielddata/metrics';
import { retryAfterMs } from '@/lib/net/api';
import { compareWeeks, comparisonEnd, recovered } from '@/lib/search/comparison';
import { emailOfIdToken } from '@/lib/search/google';
import { nextDailySlot } from '@/lib/sites/daily-slot';

const w = (
  periodEnd: string,
  lcp: number | null,
  inp: number | null,
  cls: number | null,
  ttfb: number | null = 500,
): FieldWindow => ({
  periodEnd,
  lcp,
  inp,
  cls,
  ttfb,
});

describe('verdict', () => {
  it('passes at the bounds, fails just over any, and is unknown when a core metric is missing', () => {
    expect(verdictOf(w('2026-11-15', 2500, 200, 0.1))).toBe('pass');
    expect(verdictOf(w('2026-11-15', 2501, 200, 0.1))).toBe('fail');
    expect(verdictOf(w('2026-11-15', 2500, 201, 0.1))).toBe('fail');
    expect(verdictOf(w('2026-11-15', 2500, 200, 0.11))).toBe('fail');
    expect(verdictOf(w('2026-11-15', 1000, null, 0.01))).toBeNull();
    // TTFB is not a Core Web Vital: a slow or missing one changes nothing.
    expect(verdictOf(w('2026-11-15', 1000, 100, 0.01, 5000))).toBe('pass');
    expect(verdictOf(w('2026-11-15', 1000, 100, 0.01, null))).toBe('pass');
    expect(failingMetrics(w('2026-11-15', 3000, 100, 0.2))).toEqual(['lcp', 'cls']);
  });
});

describe('deltas', () => {
  const series = [
    w('2026-10-11', 2000, 150, 0.05, 700),
    w('2026-10-18', 2100, 160, 0.06, 710),
    w('2026-10-25', 2200, 170, 0.07, 720),
    w('2026-11-01', 2300, 180, 0.08, 730),
    w('2026-11-08', 2450, 190, 0.12, 740),
  ];

  it('compares with the windows 7 and 28 days back', () => {
    expect(deltasOf(series)).toEqual({
      d7: { lcp: 150, inp: 10, cls: 0.04, ttfb: 10 },
      d28: { lcp: 450, inp: 40, cls: 0.07, ttfb: 40 },
    });
  });

  it('takes the closest window when none is exactly that far back (a tie goes to the older one)', () => {
    const sparse = [series[0]!, series[2]!, series[4]!];
    // 7 days back of 11-08 is 11-01: 10-25 is 7 days off, the only earlier ones are further.
    expect(windowClosestTo(sparse, 7)?.periodEnd).toBe('2026-10-25');
    // 28 days back is 10-11, present.
    expect(windowClosestTo(sparse, 28)?.periodEnd).toBe('2026-10-11');
    // 7 days back of 11-12 is 11-05: 11-02 and 11-08 are both 3 days off; the older one wins.
    const tie = [w('2026-11-02', 1, 1, 1), w('2026-11-08', 2, 2, 2), w('2026-11-12', 3, 3, 3)];
    expect(windowClosestTo(tie, 7)?.periodEnd).toBe('2026-11-02');
    const even = [w('2026-10-01', 1, 1, 1), w('2026-10-11', 2, 2, 2), w('2026-10-29', 3, 3, 3)];
    // 28 days back is 10-01, exact.
    expect(windowClosestTo(even, 28)?.periodEnd).toBe('2026-10-01');
  });

  it('is null per metric when either side is missing, and everywhere with a single window', () => {
    const gap = [w('2026-11-01', null, 180, 0.08), w('2026-11-08', 2450, null, 0.1)];
    expect(deltasOf(gap).d7).toEqual({ lcp: null, inp: null, cls: 0.02, ttfb: 0 });
    expect(deltasOf([series[0]!])).toEqual({
      d7: { lcp: null, inp: null, cls: null, ttfb: null },
      d28: { lcp: null, inp: null, cls: null, ttfb: null },
    });
  });
});

describe('CrUX answers', () => {
  it('reads p75s as numbers, CLS strings as numbers, and null, "NaN" or a short array as missing', () => {
    expect([2100, '0.05', '0.10', null, 'NaN', undefined, '', 'abc', Number.NaN].map(numberOrNull)).toEqual([
      2100,
      0.05,
      0.1,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
    const body = {
      record: {
        key: { origin: 'https://example.com' },
        metrics: {
          largest_contentful_paint: { percentilesTimeseries: { p75s: [2000, null] } },
          cumulative_layout_shift: { percentilesTimeseries: { p75s: ['0.05', '0.12'] } },
          experimental_time_to_first_byte: { percentilesTimeseries: { p75s: [800] } },
        },
        collectionPeriods: [
          { firstDate: { year: 2026, month: 9, day: 14 }, lastDate: { year: 2026, month: 10, day: 11 } },
          { firstDate: { year: 2026, month: 9, day: 21 }, lastDate: { year: 2026, month: 10, day: 18 } },
        ],
      },
    };
    expect(windowsOf(body)).toEqual([
      { periodEnd: '2026-10-11', lcp: 2000, inp: null, cls: 0.05, ttfb: 800 },
      { periodEnd: '2026-10-18', lcp: null, inp: null, cls: 0.12, ttfb: null },
    ]);
    expect(windowsOf({})).toEqual([]);
  });
});

describe('the traffic comparison', () => {
  const daysOf = (from: string, count: number, clicks: number) =>
    Array.from({ length: count }, (_, i) => ({
      day: new Date(Date.parse(`${from}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10),
      clicks,
      impressions: clicks * 10,
    }));
  const rule = { thresholdPct: 30, minClicks: 100 };

  it('compares the last 7 days with the 7 before, missing days counting as zero', () => {
    const days = [...daysOf('2026-11-01', 7, 100), ...daysOf('2026-11-08', 6, 60)];
    const c = compareWeeks(days, '2026-11-14', rule);
    expect(c.previous7).toEqual({ from: '2026-11-01', to: '2026-11-07', clicks: 700, impressions: 7000 });
    expect(c.last7).toEqual({ from: '2026-11-08', to: '2026-11-14', clicks: 360, impressions: 3600 });
    expect(c.clicksChangePct).toBe(-48.6);
    expect(c.drop).toBe(true);
  });

  it('needs the threshold and the minimum baseline, and recovers within half the threshold', () => {
    const at = (previous: number, last: number, r = rule) =>
      compareWeeks([...daysOf('2026-11-01', 1, previous), ...daysOf('2026-11-08', 1, last)], '2026-11-14', r);
    expect(at(1000, 700).drop).toBe(true);
    expect(at(1000, 701).drop).toBe(false);
    expect(at(99, 0).drop).toBe(false);
    expect(at(0, 0)).toMatchObject({ drop: false, clicksChangePct: null });
    expect(recovered(at(1000, 850), rule)).toBe(false);
    expect(recovered(at(1000, 851), rule)).toBe(true);
  });

  it('ends on the newest day, or a week back when the property went silent', () => {
    const now = Date.parse('2026-11-24T10:00:00Z');
    expect(comparisonEnd(null, now)).toBeNull();
    expect(comparisonEnd('2026-11-21', now)).toBe('2026-11-21');
    expect(comparisonEnd('2026-11-01', now)).toBe('2026-11-17');
  });
});

describe('helpers', () => {
  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-11-24T10:00:00Z');
    expect(retryAfterMs({ 'retry-after': '7' }, now)).toBe(7000);
    expect(retryAfterMs({ 'retry-after': 'Tue, 24 Nov 2026 10:00:30 GMT' }, now)).toBe(30_000);
    expect(retryAfterMs({ 'retry-after': 'soon' }, now)).toBeNull();
    expect(retryAfterMs({}, now)).toBeNull();
  });

  it('takes the email claim of an id_token meant for this client only', () => {
    const c = parseConfig({ GOOGLE_CLIENT_ID: 'client-1', GOOGLE_CLIENT_SECRET: 's' });
    const token = (claims: object) => `h.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;
    expect(emailOfIdToken(token({ aud: 'client-1', email: 'a@example.com' }), c)).toBe('a@example.com');
    expect(emailOfIdToken(token({ aud: 'client-2', email: 'a@example.com' }), c)).toBeNull();
    expect(emailOfIdToken('not-a-jwt', c)).toBeNull();
    expect(emailOfIdToken(undefined, c)).toBeNull();
  });

  it('gives each site a slot of the day, always strictly ahead and within a day', () => {
    const now = Date.parse('2026-11-24T10:00:00Z');
    const next = nextDailySlot('site-1', 'fielddata', now);
    expect(next).toBeGreaterThan(now);
    expect(next - now).toBeLessThanOrEqual(86_400_000);
    expect(nextDailySlot('site-1', 'fielddata', next)).toBe(next + 86_400_000);
  });
});
