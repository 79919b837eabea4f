/** The billing period containing `now`: its UTC month as `YYYY-MM` (spec "Limits"). */
export function billingPeriod(now: number = Date.now()): string {
  return new Date(now).toISOString().slice(0, 7);
}
