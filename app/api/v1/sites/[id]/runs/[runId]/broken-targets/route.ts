import { otherMethods } from '@/lib/api/methods';
import { apiRoute } from '@/lib/api/pipeline';
import { brokenTargetsQuery, brokenTargetsResponse } from '@/lib/api/schemas/crawl-views';
import { runIdParams } from '@/lib/api/schemas/history';
import { listBrokenTargets } from '@/lib/crawl/service';

export const GET = apiRoute(
  {
    site: true,
    permission: 'read',
    params: runIdParams,
    query: brokenTargetsQuery,
    response: brokenTargetsResponse,
    summary: 'Dead-link report of one crawl run grouped by target, as /broken-targets answers for the latest',
    description:
      'The same list as /broken-targets, for the run named, compared with the completed crawl before it.',
    errors: { 404: 'run not found, or the Broken Links app is not enabled for the site' },
  },
  ({ db, principal, params, query }) =>
    listBrokenTargets(db, principal, { siteId: params.id, runId: params.runId }, query),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
