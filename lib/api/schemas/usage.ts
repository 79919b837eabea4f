import { z } from 'zod';

/** GET /v1/usage?period=YYYY-MM; the current UTC month when omitted. */
export const orgUsageQuery = z.object({
  period: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month written YYYY-MM, e.g. 2026-03')
    .optional(),
});
