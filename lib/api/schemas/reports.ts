import { z } from 'zod';

/**
 * GET /v1/sites/{id}/reports/monthly?month=YYYY-MM. The month is read as text here and checked by
 * the route (lib/reports/monthly.ts `reportMonth`), which answers a month that is not one, or one
 * still to come, with 400.
 */
export const monthlyReportQuery = z.object({
  month: z
    .string()
    .optional()
    .describe(
      'the UTC month, YYYY-MM, up to the current one (which reads as month to date); omitted: the last complete month',
    ),
});
