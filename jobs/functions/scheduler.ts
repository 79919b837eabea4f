import { crawlEvents } from '@/jobs/crawl-events';
import { createFunction } from '@/jobs/runtime';
import { resumeInterruptedCrawls, STALE_CRAWL_MS } from '@/lib/crawl/resume';
import { runSchedulerTick } from '@/lib/crawl/scheduler';
import { getDb } from '@/lib/db/client';

/**
 * Every minute: start the crawls that are due, and resume crawls whose worker went silent (hosted
 * mode has no boot hook; a lost invocation is picked up here).
 */
export const crawlSchedulerFunction = createFunction(
  { id: 'crawl-scheduler', name: 'Start due crawls', retries: 1, triggers: [{ cron: '* * * * *' }] },
  async ({ event, step }) => {
    // The tick's minute: the embedded runner's clock (tests inject one) or Inngest's schedule time.
    const now = typeof event.ts === 'number' ? event.ts : Date.now();
    const tick = await step.run('start-due-crawls', async () =>
      runSchedulerTick(await getDb(), now, crawlEvents),
    );
    const resumed = await step.run('resume-silent-crawls', async () =>
      resumeInterruptedCrawls(await getDb(), crawlEvents, { now, staleAfterMs: STALE_CRAWL_MS }),
    );
    return { ...tick, resumed };
  },
);
