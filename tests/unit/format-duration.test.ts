import { describe, expect, it } from 'vitest';
import { formatDuration } from '@/lib/format';

describe('formatDuration', () => {
  it('says a sub-second span is "<1s", not "0s" (a crawl that failed at once read "after 0s")', () => {
    expect(formatDuration(0)).toBe('<1s');
    expect(formatDuration(120)).toBe('<1s');
    expect(formatDuration(499)).toBe('<1s');
  });

  it('counts seconds, minutes and hours as before', () => {
    expect(formatDuration(500)).toBe('1s');
    expect(formatDuration(59_000)).toBe('59s');
    expect(formatDuration(61_000)).toBe('1m 1s');
    expect(formatDuration(3_720_000)).toBe('1h 2m');
  });
});
