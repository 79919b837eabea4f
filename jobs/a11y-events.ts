import { sendEvent } from '@/jobs/runtime';
import type { A11yEvents } from '@/lib/a11y/runs/events';

/**
 * The render pass's events as the runner's: `a11y/requested`, `a11y/continue` and `a11y/finalize`.
 * Event ids deduplicate (first one wins), so a pass is requested once and one silence resumed once.
 */
export const a11yEvents: A11yEvents = {
  async requested(run) {
    await sendEvent({ name: 'a11y/requested', id: `a11y-requested:${run.runId}`, data: run });
  },
  async resumed(passes) {
    if (passes.length === 0) return;
    await sendEvent(
      passes.map(({ runId, tenantId, step, silentSince }) =>
        step === 'finalize'
          ? { name: 'a11y/finalize', data: { runId }, id: `a11y-resume-finalize:${runId}:${silentSince}` }
          : { name: 'a11y/continue', data: { runId, tenantId }, id: `a11y-resume:${runId}:${silentSince}` },
      ),
    );
  },
};
