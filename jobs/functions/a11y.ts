import { a11yEvents } from '@/jobs/a11y-events';
import { a11yContinue, a11yFinalize, a11yRequested } from '@/jobs/events';
import { createFunction, onBoot } from '@/jobs/runtime';
import { BrowserHolder } from '@/lib/a11y/engine/browser';
import { finalizePass } from '@/lib/a11y/runs/finalize';
import { type BatchOptions, renderBatch, seedPass } from '@/lib/a11y/runs/pass';
import { resumeInterruptedPasses } from '@/lib/a11y/runs/resume';
import { getDb } from '@/lib/db/client';
import { allowanceReachedEvent, finalizedStepResult } from './finalized';

/**
 * Batches rendered per invocation before the pass re-enters through `a11y/continue`. Each batch is
 * bounded (lib/a11y/runs/pass.ts DEFAULT_PASS_BATCH), so an invocation's step history stays small.
 */
const BATCHES_PER_INVOCATION = 10;

/**
 * Concurrency key `a11y-run` per tenant (`event.data.tenantId`): at most this many of a tenant's
 * render passes render at once (each holds Chromium pages), in hosted mode through Inngest and in
 * the embedded runner alike. A tenant's further passes wait in turn while other tenants' passes
 * start. The second rule, on `event.data.runId` (limit 1), keeps one worker per pass.
 */
export const RENDER_PASSES_PER_TENANT = 1;

/**
 * The worker's browser: one Chromium per process, launched on the first batch and reused by every
 * batch after it (relaunched if it crashed).
 */
const workerBrowser = new BrowserHolder();

export interface A11yFunctionOptions extends Partial<BatchOptions> {
  batchesPerInvocation?: number;
}

/**
 * The render pass as Inngest functions: `a11y-run` seeds the page set, renders it one batch per
 * step and hands over to `a11y-finalize`. The logic lives in lib/a11y/runs/pass.ts; these functions only
 * sequence it. Built by a factory so tests can pass their browser, batch size and time limits.
 */
export function createA11yFunctions(options: A11yFunctionOptions = {}) {
  const batch: BatchOptions = { browsers: workerBrowser, ...options };
  const batches = options.batchesPerInvocation ?? BATCHES_PER_INVOCATION;

  const a11yRun = createFunction(
    {
      id: 'a11y-run',
      name: 'Render an accessibility pass',
      concurrency: [
        // RENDER_PASSES_PER_TENANT: fairness between tenants (README, "Architecture": concurrency keys).
        { key: 'event.data.tenantId', limit: RENDER_PASSES_PER_TENANT },
        // One worker per run: batches take pending pages in order, and a second worker would render them twice.
        { key: 'event.data.runId', limit: 1 },
      ],
      retries: 3,
      triggers: [a11yRequested, a11yContinue],
    },
    async ({ event, step }) => {
      const { runId, tenantId } = event.data;
      await step.run('seed', async () => seedPass(await getDb(), runId));
      for (let i = 0; i < batches; i++) {
        const outcome = await step.run('render', async () => renderBatch(await getDb(), runId, batch));
        if (outcome.status === 'skipped') return { runId, outcome: 'skipped' };
        if (outcome.status === 'exhausted') {
          await step.sendEvent('finalize', { name: 'a11y/finalize', data: { runId } });
          return { runId, outcome: 'exhausted' };
        }
      }
      await step.sendEvent('continue', { name: 'a11y/continue', data: { runId, tenantId } });
      return { runId, outcome: 'continued' };
    },
  );

  const a11yFinalizeFn = createFunction(
    {
      id: 'a11y-finalize',
      name: 'Finalize an accessibility pass',
      concurrency: [{ key: 'event.data.runId', limit: 1 }],
      retries: 5,
      triggers: [a11yFinalize],
    },
    async ({ event, step }) => {
      const { runId } = event.data;
      const result = await step.run('finalize', async () => {
        const finalized = await finalizePass(await getDb(), runId);
        if (!finalized) return null;
        return { ...finalizedStepResult(finalized), kind: finalized.run.kind };
      });
      // A chained crawl's summary was queued with the pass's end.
      if (result?.finalizedNow && result.kind === 'crawl') {
        await step.sendEvent('notify', { name: 'notify/queued', data: { reason: 'crawl-summary' } });
      }
      if (result?.allowanceNotified) {
        await step.sendEvent('allowance-reached', allowanceReachedEvent(result, 'a11y'));
      }
      return result;
    },
  );

  return [a11yRun, a11yFinalizeFn] as const;
}

export const [a11yRunFunction, a11yFinalizeFunction] = createA11yFunctions();

// The embedded runner resumes passes a previous process left in progress (hosted mode relies on the
// scheduler's sweep for the same).
onBoot(async () => {
  await resumeInterruptedPasses(await getDb(), a11yEvents, { now: Date.now(), staleAfterMs: 0 });
});
