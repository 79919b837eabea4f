import { sendEvent } from '@/jobs/runtime';
import type { CrawlEvents } from '@/lib/crawl/runs/events';

/**
 * The crawl's events as the runner's: `crawl/requested`, `crawl/continue` and `crawl/finalize`.
 * Event ids deduplicate (first one wins), so a run is requested once and one silence resumed once.
 */
export const crawlEvents: CrawlEvents = {
  async requested(run) {
    await sendEvent({ name: 'crawl/requested', id: `crawl-requested:${run.runId}`, data: run });
  },
  async resumed(runs) {
    if (runs.length === 0) return;
    await sendEvent(
      runs.map(({ runId, tenantId, step, silentSince }) =>
        step === 'finalize'
          ? { name: 'crawl/finalize', data: { runId }, id: `crawl-resume-finalize:${runId}:${silentSince}` }
          : { name: 'crawl/continue', data: { runId, tenantId }, id: `crawl-resume:${runId}:${silentSince}` },
      ),
    );
  },
};
