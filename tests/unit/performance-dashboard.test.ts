import { describe, expect, it } from 'vitest';
import {
  bandsDescription,
  clsAxisTop,
  formatDelta,
  formatMetric,
  formatTick,
  trendSummary,
  verdictReading,
  windowRange,
} from '@/components/performance/words';
import { type FieldWindow, ratingOf } from '@/lib/fielddata/metrics';

const w = (periodEnd: string, lcp: number | null, inp: number | null, cls: number | null): FieldWindow => ({
  periodEnd,
  lcp,
  inp,
  cls,
  ttfb: 700,
});

describe("Google's ratings", () => {
  it('are good up to and including the good bound, needs improvement up to the poor bound, then poor', () => {
    expect([2500, 2501, 4000, 4001].map((v) => ratingOf('lcp', v))).toEqual([
      'good',
      'needs-improvement',
      'needs-improvement',
      'poor',
    ]);
    expect([200, 201, 500, 501].map((v) => ratingOf('inp', v))).toEqual([
      'good',
      'needs-improvement',
      'needs-improvement',
      'poor',
    ]);
    expect([0.1, 0.11, 0.25, 0.26].map((v) => ratingOf('cls', v))).toEqual([
      'good',
      'needs-improvement',
      'needs-improvement',
      'poor',
    ]);
    expect([800, 801, 1800, 1801].map((v) => ratingOf('ttfb', v))).toEqual([
      'good',
      'needs-improvement',
      'needs-improvement',
      'poor',
    ]);
  });

  it('give a missing value no rating rather than "good"', () => {
    expect(ratingOf('lcp', null)).toBeNull();
    expect(ratingOf('cls', 0)).toBe('good');
  });
});

describe('values in words', () => {
  it('shows milliseconds whole and grouped, CLS to two decimals, and a missing value as no data', () => {
    expect(formatMetric('lcp', 2540)).toBe('2,540 ms');
    expect(formatMetric('inp', 180.4)).toBe('180 ms');
    expect(formatMetric('cls', 0.05)).toBe('0.05');
    expect(formatMetric('cls', 0)).toBe('0.00');
    expect(formatMetric('ttfb', null)).toBe('No data');
  });

  it('keeps axis ticks short: seconds from one second up', () => {
    expect(formatTick('lcp', 2500)).toBe('2.5 s');
    expect(formatTick('lcp', 4000)).toBe('4 s');
    expect(formatTick('ttfb', 1350)).toBe('1.35 s');
    expect(formatTick('inp', 200)).toBe('200 ms');
    expect(formatTick('cls', 0.25)).toBe('0.25');
  });

  it('tops the CLS axis at a multiple of 0.4 that shows the poor bound and the highest value', () => {
    expect(clsAxisTop([w('2026-11-15', 1, 1, 0.05), w('2026-11-22', 1, 1, null)])).toBe(0.4);
    expect(clsAxisTop([w('2026-11-15', 1, 1, null)])).toBe(0.4);
    expect(clsAxisTop([w('2026-11-15', 1, 1, 0.55)])).toBeCloseTo(0.8);
  });

  it("names the bands of each metric with Google's bounds", () => {
    expect(bandsDescription('lcp')).toBe('Good: 2,500 ms or less · Poor: over 4,000 ms');
    expect(bandsDescription('cls')).toBe('Good: 0.10 or less · Poor: over 0.25');
    expect(bandsDescription('ttfb')).toBe('Good: 800 ms or less · Poor: over 1,800 ms');
  });

  it('says which way a metric moved in words, and says so when a side is missing', () => {
    expect(formatDelta('lcp', 120)).toBe('+120 ms (worse)');
    expect(formatDelta('inp', -30)).toBe('−30 ms (better)');
    expect(formatDelta('cls', -0.02)).toBe('−0.02 (better)');
    expect(formatDelta('ttfb', 0)).toBe('no change');
    expect(formatDelta('lcp', null)).toBe('no comparison (a value is missing)');
  });

  it('gives the 28 days a window covers', () => {
    expect(windowRange('2026-11-15')).toBe('Oct 19 – Nov 15, 2026');
  });
});

describe('the verdict in words', () => {
  it('passes, fails naming the metrics that are not good, or says why there is none', () => {
    const pass = w('2026-11-15', 2000, 150, 0.05);
    expect(verdictReading('pass', pass)).toMatchObject({ tone: 'success', title: /^Passes/ });
    const fail = w('2026-11-15', 3000, 150, 0.2);
    expect(verdictReading('fail', fail)).toMatchObject({
      tone: 'danger',
      title: /^Fails/,
      detail: 'Not good at the 75th percentile: LCP and CLS.',
    });
    const unknown = w('2026-11-15', 2000, null, null);
    expect(verdictReading(null, unknown)).toMatchObject({
      tone: 'neutral',
      detail: expect.stringContaining('no value for INP and CLS'),
    });
  });
});

describe('the trend summary (the chart in words)', () => {
  it('names the span, latest with its rating, best and worst, and counts the gaps', () => {
    const series = [
      w('2026-10-25', 2100, 160, 0.06),
      w('2026-11-01', null, null, null),
      w('2026-11-08', 2600, 170, 0.07),
      w('2026-11-15', 2300, null, 0.08),
    ];
    expect(trendSummary('lcp', series)).toBe(
      'LCP p75 over 4 weekly windows ending Oct 25, 2026 to Nov 15, 2026: latest 2,300 ms (good); best 2,100 ms; worst 2,600 ms; 1 week without data, shown as gaps.',
    );
    expect(trendSummary('inp', series)).toContain('no value in the latest window;');
    expect(trendSummary('inp', series)).toContain('2 weeks without data');
  });
});
