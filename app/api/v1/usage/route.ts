import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { orgUsageQuery, orgUsageResponse } from '@/lib/api/schemas/usage';
import { getOrgUsage } from '@/lib/usage/service';

/** Owner/admin dashboard sessions only (spec rule 7: API keys get 403). */
export const GET = apiRoute(
  {
    auth: 'session',
    permission: 'admin',
    query: orgUsageQuery,
    response: orgUsageResponse,
    summary: "The organization's usage for one billing period, per site (deleted sites included)",
    description:
      'Totals and per-site rows for the period (the current UTC month unless period is given), against the allowances; deleted sites appear under their hostname.',
  },
  ({ db, principal, query }) => getOrgUsage(db, principal, query.period),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
