import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { siteUsageResponse } from '@/lib/api/schemas/usage';
import { getSiteUsage } from '@/lib/usage/service';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: siteIdParams,
    response: siteUsageResponse,
    summary: "The site's usage by month and against this period's allowances",
    description:
      "Monthly rows from the usage ledger, oldest first, and this period's pages crawled, pages rendered and monitors against the site's allowances.",
  },
  ({ db, principal, params }) => getSiteUsage(db, principal, params.id),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
