import { apiRoute, reply } from '@/lib/api/pipeline';
import { triggerCrawlBody } from '@/lib/api/schemas/crawl';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { triggerCrawl } from '@/lib/crawl/service';

/** 202 when a crawl started, 200 with `started: false` when one was already running. */
export const POST = apiRoute(
  { permission: 'crawl', params: siteIdParams, body: triggerCrawlBody },
  async ({ db, principal, params, body }) => {
    const result = await triggerCrawl(db, principal, params.id, body);
    return reply(result, result.started ? 202 : 200);
  },
);
