import { describe, expect, it } from 'vitest';
import { defaultReportMonth, reportMonthChoices } from '@/lib/reports/monthly';

/*
 * The site overview's monthly report picker offered only ended months, from a year back whatever the
 * site's age: a site registered this month was offered twelve empty reports and no month to date.
 */

const NOW = Date.UTC(2026, 10, 24, 8, 0);

describe('reportMonthChoices', () => {
  it('offers a site registered this month the month to date alone, selected', () => {
    const choices = reportMonthChoices(Date.UTC(2026, 10, 1), 12, NOW);
    expect(choices).toEqual([{ value: '2026-11', label: 'November 2026 (month to date)', partial: true }]);
    expect(defaultReportMonth(choices)).toBe('2026-11');
  });

  it('offers the month to date first, then the ended months since the site was registered', () => {
    const choices = reportMonthChoices(Date.UTC(2026, 7, 31, 23, 59), 12, NOW);
    expect(choices.map((c) => c.label)).toEqual([
      'November 2026 (month to date)',
      'October 2026',
      'September 2026',
      'August 2026',
    ]);
    // The monthly mail's month: the last ended one.
    expect(defaultReportMonth(choices)).toBe('2026-10');
  });

  it('goes back `count` ended months at most', () => {
    const choices = reportMonthChoices(Date.UTC(2020, 0, 1), 12, NOW);
    expect(choices).toHaveLength(13);
    expect(choices.at(-1)?.value).toBe('2025-11');
  });
});
