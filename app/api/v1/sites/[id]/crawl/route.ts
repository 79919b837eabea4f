import { apiRoute, reply } from '@/lib/api/pipeline';
import { triggerCrawlBody } from '@/lib/api/schemas/crawl';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { triggerCrawl } from '@/lib/crawl/service';

/**
 * 202 when a crawl started, 200 with `started: false` when one was already running. The 'crawl'
 * permission is checked by the service after visibility, so an invisible site stays a 404.
 */
export const POST = apiRoute(
  { params: siteIdParams, body: triggerCrawlBody },
  async ({ db, principal, params, body }) => {
    const result = await triggerCrawl(db, principal, params.id, body);
    return reply(result, result.started ? 202 : 200);
  },
);
