import { z } from 'zod';
import { reportMonth } from '@/lib/reports/monthly';

/**
 * GET /v1/sites/{id}/reports/monthly?month=YYYY-MM. Parsed to the month the report covers (the last
 * complete one when omitted); a month that is not one, or is still to come, is a validation failure
 * (422 naming `month`, as every query field's).
 */
export const monthlyReportQuery = z.object({
  month: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const month = reportMonth(value);
      if (month) return month;
      ctx.issues.push({
        code: 'custom',
        input: value,
        message: 'must be a month written YYYY-MM, not after the current one',
      });
      return z.NEVER;
    })
    .describe(
      'the UTC month, YYYY-MM, up to the current one (which reads as month to date); omitted: the last complete month',
    ),
});
