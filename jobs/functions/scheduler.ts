import { a11yEvents } from '@/jobs/a11y-events';
import { crawlEvents } from '@/jobs/crawl-events';
import { fieldDataEvents } from '@/jobs/fielddata-events';
import { createFunction } from '@/jobs/runtime';
import { searchEvents } from '@/jobs/search-events';
import { resumeInterruptedPasses, STALE_PASS_MS } from '@/lib/a11y/runs/resume';
import { runA11ySchedulerTick } from '@/lib/a11y/runs/scheduler';
import { resumeInterruptedCrawls, STALE_CRAWL_MS } from '@/lib/crawl/runs/resume';
import { runSchedulerTick } from '@/lib/crawl/runs/scheduler';
import { getDb } from '@/lib/db/client';
import { runFieldDataSchedulerTick } from '@/lib/fielddata/scheduler';
import { runSearchSchedulerTick } from '@/lib/search/scheduler';
import { refreshDomainExpiry } from '@/lib/uptime/domain-expiry';
import { checkHeartbeats } from '@/lib/uptime/heartbeats';
import { notifyMonitorsHeld } from '@/lib/uptime/held-notice';
import { recordStoppedMonitors } from '@/lib/uptime/pauses';

/**
 * Every minute: start the crawls and the standalone accessibility scans that are due, hand the
 * daily field-data and search-analytics syncs that are due to their jobs, tell organizations whose
 * newest uptime monitors are held at the allowance, close the incidents of monitors no longer
 * probed (app off, held, paused: lib/uptime/pauses.ts), open the incidents of heartbeat monitors
 * whose job missed its ping (lib/uptime/heartbeats.ts), read the registration expiry of monitored
 * domains that are due and queue their warnings (lib/uptime/domain-expiry.ts), and resume crawls and render passes whose
 * worker went silent (hosted mode has no boot hook; a lost invocation is picked up here).
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
    const a11y = await step.run('start-due-a11y-scans', async () =>
      runA11ySchedulerTick(await getDb(), now, a11yEvents),
    );
    const resumedPasses = await step.run('resume-silent-a11y-passes', async () =>
      resumeInterruptedPasses(await getDb(), a11yEvents, { now, staleAfterMs: STALE_PASS_MS }),
    );
    const fieldData = await step.run('start-due-fielddata-syncs', async () =>
      runFieldDataSchedulerTick(await getDb(), now, fieldDataEvents),
    );
    const search = await step.run('start-due-search-syncs', async () =>
      runSearchSchedulerTick(await getDb(), now, searchEvents),
    );
    const monitorsHeld = await step.run('notify-monitors-held', async () =>
      notifyMonitorsHeld(await getDb(), now),
    );
    const monitorsStopped = await step.run('record-stopped-monitors', async () =>
      recordStoppedMonitors(await getDb(), now),
    );
    // After the stopped monitors are recorded, so a heartbeat stopped this minute is not called missed.
    const heartbeats = await step.run('check-heartbeats', async () => checkHeartbeats(await getDb(), now));
    if (heartbeats.opened > 0) {
      await step.sendEvent('deliver-heartbeat-alerts', {
        name: 'notify/queued',
        data: { reason: 'heartbeat' },
      });
    }
    // Domain registrations read through RDAP, a few a minute, each at most daily; expiry warnings queued.
    const domains = await step.run('refresh-domain-expiry', async () =>
      refreshDomainExpiry(await getDb(), now),
    );
    if (domains.warned > 0) {
      await step.sendEvent('deliver-domain-warnings', {
        name: 'notify/queued',
        data: { reason: 'domain-expiry' },
      });
    }
    return {
      ...tick,
      resumed,
      a11y,
      resumedPasses,
      fieldData,
      search,
      monitorsHeld,
      monitorsStopped,
      heartbeats,
      domains,
    };
  },
);
