import { z } from 'zod';
import { strictBoolean } from './common';

/** PATCH /v1/billing: the overage switch is the one setting a tenant controls. */
export const updateBillingBody = z.strictObject({
  overageEnabled: strictBoolean(),
});
export type UpdateBillingInput = z.output<typeof updateBillingBody>;
