import { crawlEvents } from '@/jobs/crawl-events';
import { otherMethods } from '@/lib/api/methods';
import { apiRoute, reply } from '@/lib/api/pipeline';
import { triggerCrawlBody } from '@/lib/api/schemas/crawl';
import { crawlTriggerResponse } from '@/lib/api/schemas/resources';
import { siteIdParams } from '@/lib/api/schemas/sites';
import { triggerCrawl } from '@/lib/crawl/service';

/** 202 when a crawl started, 200 with `started: false` when one was already running. */
export const POST = apiRoute(
  {
    site: true,
    permission: 'crawl',
    params: siteIdParams,
    body: triggerCrawlBody,
    response: crawlTriggerResponse,
    summary: 'Start a crawl (202), or report the one already running (200, started: false)',
    description:
      'Owners, admins and keys may always crawl a site they see; a member needs canCrawl. A manual crawl does not move the schedule, except that it is the first crawl of a site whose first crawl is pending. Follow progress with GET /v1/sites/{id}/status.',
    errors: { 409: 'neither Broken Links nor Accessibility is enabled for the site' },
  },
  async ({ db, principal, params, body }) => {
    const result = await triggerCrawl(db, principal, params.id, body, crawlEvents);
    return reply(result, result.started ? 202 : 200);
  },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ POST });
