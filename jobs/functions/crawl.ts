import { a11yEvents } from '@/jobs/a11y-events';
import { crawlEvents } from '@/jobs/crawl-events';
import { crawlContinue, crawlFinalize, crawlRequested } from '@/jobs/events';
import { createFunction, onBoot } from '@/jobs/runtime';
import { workRun } from '@/lib/crawl/engine/step';
import { DEFAULT_TUNING, type EngineTuning } from '@/lib/crawl/engine/tuning';
import { finalizeRun } from '@/lib/crawl/runs/finalize';
import { resumeInterruptedCrawls } from '@/lib/crawl/runs/resume';
import { seedRun } from '@/lib/crawl/runs/seed';
import { getDb } from '@/lib/db/client';
import { allowanceReachedEvent, finalizedStepResult } from './finalized';

/**
 * Steps worked per invocation before the crawl re-enters through `crawl/continue`. Each step is
 * time-boxed (EngineTuning.stepBudgetMs), so an invocation stays short and its step history small.
 */
const STEPS_PER_INVOCATION = 20;
const MIN_WAIT_MS = 1_000;

/**
 * Concurrency key `crawl-run` per tenant (`event.data.tenantId`): at most this many of a tenant's
 * crawls are worked at once, by Inngest in hosted mode and by the embedded runner, which honours
 * the same rules. A tenant that starts more has them wait in turn (FIFO per tenant: an invocation
 * that re-enters through `crawl/continue` queues behind its tenant's waiting crawls) while other
 * tenants' crawls start at once, so one tenant cannot take every worker the account (or the
 * process) has. The second rule, on `event.data.runId` (limit 1), keeps one worker per run.
 */
export const CRAWLS_PER_TENANT = 2;

/**
 * The crawl as Inngest functions: `crawl-run` seeds, then works the frontier in bounded steps and
 * hands over to `crawl-finalize`. The logic lives in lib/crawl; these functions only sequence it.
 * Built by a factory so tests can tighten timeouts; the app uses the defaults.
 */
export function createCrawlFunctions(tuning: Partial<EngineTuning> = {}) {
  const options = { ...DEFAULT_TUNING, ...tuning };

  const crawlRun = createFunction(
    {
      id: 'crawl-run',
      name: 'Crawl a site',
      concurrency: [
        // CRAWLS_PER_TENANT: fairness between tenants (README, "Architecture": concurrency keys).
        { key: 'event.data.tenantId', limit: CRAWLS_PER_TENANT },
        // One worker per run at a time; the frontier would allow more (FOR UPDATE SKIP LOCKED).
        { key: 'event.data.runId', limit: 1 },
      ],
      retries: 3,
      triggers: [crawlRequested, crawlContinue],
    },
    async ({ event, step }) => {
      const { runId, tenantId } = event.data;
      await step.run('seed', async () => seedRun(await getDb(), runId, options));
      for (let i = 0; i < STEPS_PER_INVOCATION; i++) {
        const outcome = await step.run('work', async () => workRun(await getDb(), runId, options));
        if (outcome.status === 'exhausted') {
          await step.sendEvent('finalize', { name: 'crawl/finalize', data: { runId } });
          return { runId, outcome: 'exhausted' };
        }
        if (outcome.status === 'stopped' || outcome.status === 'aborted')
          return { runId, outcome: outcome.status };
        if (outcome.status === 'wait') {
          await step.sleep('wait-for-leases', Math.max(MIN_WAIT_MS, outcome.untilMs - Date.now()));
        }
      }
      await step.sendEvent('continue', { name: 'crawl/continue', data: { runId, tenantId } });
      return { runId, outcome: 'continued' };
    },
  );

  const crawlFinalizeFn = createFunction(
    {
      id: 'crawl-finalize',
      name: 'Finalize a crawl',
      concurrency: [{ key: 'event.data.runId', limit: 1 }],
      retries: 5,
      triggers: [crawlFinalize],
    },
    async ({ event, step }) => {
      const { runId } = event.data;
      const result = await step.run('finalize', async () => {
        const finalized = await finalizeRun(await getDb(), runId);
        if (!finalized) return null;
        // Sent whether or not this call finalized: a retry after the hand-over failed sends it again (deduplicated).
        return { ...finalizedStepResult(finalized), chainA11y: finalized.run.a11y_phase === 'seeding' };
      });
      if (result?.chainA11y) {
        const { tenantId, siteId } = result;
        await step.run('chain-a11y', async () => a11yEvents.requested({ runId, siteId, tenantId }));
      }
      // The crawl summary was queued with the run's end (a chained crawl's waits for its render pass).
      if (result?.finalizedNow && !result.chainA11y) {
        await step.sendEvent('notify', { name: 'notify/queued', data: { reason: 'crawl-summary' } });
      }
      if (result?.allowanceNotified) {
        await step.sendEvent('allowance-reached', allowanceReachedEvent(result, 'crawl'));
      }
      return result;
    },
  );

  return [crawlRun, crawlFinalizeFn] as const;
}

export const [crawlRunFunction, crawlFinalizeFunction] = createCrawlFunctions();

// The embedded runner resumes crawls a previous process left running (hosted mode relies on the
// scheduler's sweep for the same).
onBoot(async () => {
  await resumeInterruptedCrawls(await getDb(), crawlEvents, { now: Date.now(), staleAfterMs: 0 });
});
