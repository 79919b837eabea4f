/** Billing periods are UTC calendar months written `YYYY-MM` (spec "Limits"). */

const PERIOD = /^(\d{4})-(0[1-9]|1[0-2])$/;

export { billingPeriod } from '@/lib/billing/period';

export function isBillingPeriod(value: string): boolean {
  return PERIOD.test(value);
}

/** Epoch ms of the first instant of the period after `period`: when a pause taken in it ends. */
export function periodEnd(period: string): number {
  const match = PERIOD.exec(period);
  if (!match) throw new Error(`not a billing period: ${period}`);
  return Date.UTC(Number(match[1]), Number(match[2]), 1);
}
