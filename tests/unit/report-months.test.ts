import { describe, expect, it } from 'vitest';
import { firstReportPending } from '@/lib/reports/monthly';

/*
 * The site overview's monthly report picker defaulted to October 2026 for a site registered in
 * November 2026: a month before the site existed, an empty report, with nothing saying so.
 */

const NOW = Date.UTC(2026, 10, 24, 8, 0);

describe('firstReportPending', () => {
  it('names the running month for a site registered in it', () => {
    expect(firstReportPending(Date.UTC(2026, 10, 1), NOW)).toBe('2026-11');
    expect(firstReportPending(Date.UTC(2026, 10, 24, 7, 59), NOW)).toBe('2026-11');
  });

  it('is null once a month of the site has ended, even one it was registered part-way through', () => {
    expect(firstReportPending(Date.UTC(2026, 9, 31, 23, 59), NOW)).toBeNull();
    expect(firstReportPending(Date.UTC(2020, 0, 1), NOW)).toBeNull();
  });
});
