import { describe, expect, it } from 'vitest';
import {
  callbackErrorText,
  dailyPoints,
  formatChange,
  formatCtr,
  formatDay,
  formatShortDay,
  rangeTotals,
} from '@/components/search/words';
import { formatMonthDay } from '@/lib/format';

const day = (d: string, clicks: number, impressions: number, position = 5) => ({
  day: d,
  clicks,
  impressions,
  ctr: impressions ? clicks / impressions : 0,
  position,
});

describe('the Search tab’s figures', () => {
  it('fills the days Search Console left out with zero traffic and no CTR or position', () => {
    const points = dailyPoints([day('2026-10-30', 4, 40), day('2026-11-02', 6, 60)]);
    expect(points.map((p) => [p.day, p.clicks, p.impressions, p.ctr, p.position])).toEqual([
      ['2026-10-30', 4, 40, 0.1, 5],
      ['2026-10-31', 0, 0, null, null],
      ['2026-11-01', 0, 0, null, null],
      ['2026-11-02', 6, 60, 0.1, 5],
    ]);
    expect(dailyPoints([])).toEqual([]);
  });

  it('totals a range: CTR over all impressions, position weighted by impressions', () => {
    const totals = rangeTotals([day('2026-11-01', 10, 100, 2), day('2026-11-02', 0, 300, 10)]);
    expect(totals).toEqual({ clicks: 10, impressions: 400, ctr: 0.025, position: 8 });
    expect(rangeTotals([])).toEqual({ clicks: 0, impressions: 0, ctr: null, position: null });
    expect(formatCtr(totals.ctr)).toBe('2.5%');
  });

  it('says changes with their sign, and no change when there is nothing to compare with', () => {
    expect(formatChange(-40.8)).toBe('-40.8%');
    expect(formatChange(12)).toBe('+12.0%');
    expect(formatChange(null)).toBe('no earlier clicks to compare');
  });

  it('words every callback error, and never echoes an unknown one', () => {
    for (const code of ['access_denied', 'expired', 'scope', 'exchange_failed', 'not_available']) {
      expect(callbackErrorText(code)).not.toBe(callbackErrorText('unknown'));
    }
    expect(callbackErrorText('<b>x</b>')).not.toContain('<b>');
    expect(callbackErrorText('toString')).toBe('The connection to Google did not complete. Try again.');
  });

  it('names a calendar day the same whatever the time zone: the axis short, the tooltip with its weekday', () => {
    expect(formatShortDay('2026-11-24')).toBe('Nov 24');
    expect(formatDay('2026-11-24')).toBe('Tue, Nov 24');
    // The charts' shared day label is UTC: 23:30 UTC is still the 24th.
    expect(formatMonthDay(Date.parse('2026-11-24T23:30:00Z'))).toBe('Nov 24');
  });
});
