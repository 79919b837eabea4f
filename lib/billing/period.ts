/** The billing period containing `now`: its UTC month as `YYYY-MM` (spec "Limits"). */
export function billingPeriod(now: number = Date.now()): string {
  return new Date(now).toISOString().slice(0, 7);
}

/** The period's first millisecond and the next period's first: `start <= t < end` is inside it. */
export function periodBounds(period: string): { start: number; end: number } {
  const [year, month] = period.split('-').map(Number) as [number, number];
  return { start: Date.UTC(year, month - 1, 1), end: Date.UTC(year, month, 1) };
}
