import { describe, expect, it } from 'vitest';
import { timeAxis } from '@/components/ui/time-axis';

const DAY = 86_400_000;
const NOV_1 = Date.UTC(2026, 10, 1);

describe('a time-scaled chart axis (issue 24 item 11)', () => {
  it('runs from the first point to the last, ticks on whole UTC days when points are days apart', () => {
    const axis = timeAxis([NOV_1 + 9 * 3_600_000, NOV_1 + DAY + 600_000, NOV_1 + 5 * DAY + 7_200_000]);
    expect(axis.domain).toEqual([NOV_1 + 9 * 3_600_000, NOV_1 + 5 * DAY + 7_200_000]);
    expect(axis.ticks).toEqual([1, 2, 3, 4, 5].map((d) => NOV_1 + d * DAY));
    expect(axis.format(NOV_1 + DAY)).toBe('Nov 2');
  });

  it('keeps to the tick budget over long spans, and shows times within a day', () => {
    const year = timeAxis([NOV_1 - 300 * DAY, NOV_1]);
    expect(year.ticks.length).toBeLessThanOrEqual(6);
    expect(year.ticks.length).toBeGreaterThanOrEqual(2);
    const hours = timeAxis([NOV_1 + 3_600_000, NOV_1 + 5 * 3_600_000]);
    expect(hours.ticks).toEqual([1, 2, 3, 4, 5].map((h) => NOV_1 + h * 3_600_000));
    expect(hours.format(NOV_1 + 3_600_000)).toBe('Nov 1, 01:00');
  });

  it('gives a lone point a day either side, and points seconds apart their own span', () => {
    expect(timeAxis([NOV_1]).domain).toEqual([NOV_1 - DAY, NOV_1 + DAY]);
    const seconds = timeAxis([NOV_1 + 5_000, NOV_1 + 7_000, NOV_1 + 25_000]);
    expect(seconds.domain).toEqual([NOV_1 + 5_000, NOV_1 + 25_000]);
    expect(seconds.ticks).toEqual([NOV_1 + 5_000, NOV_1 + 25_000]);
    const minutes = timeAxis([NOV_1 + 30_000, NOV_1 + 4 * 60_000]);
    expect(minutes.ticks).toEqual([1, 2, 3, 4].map((m) => NOV_1 + m * 60_000));
  });
});
