/**
 * What the render pass asks of the job runner, declared by the domain like lib/crawl/runs/events.ts:
 * `jobs/a11y-events.ts` implements it with the runner's events and the entry points (the crawl's
 * finalize function, the scheduler function, the runner's boot hook) pass it in.
 */
import type { ResumedRun } from '@/lib/crawl/runs/events';

export interface A11yEvents {
  /** Work the pass of this run (a new standalone run, or a crawl finalized with its pass chained). */
  requested(run: RequestedPass): Promise<void>;
  /** Pick interrupted passes up again, each at the step it was in. */
  resumed(passes: ResumedPass[]): Promise<void>;
}

export interface RequestedPass {
  runId: string;
  siteId: string;
  tenantId: string;
}

/** An interrupted pass to pick up again: the same shape as an interrupted crawl (one resume sweep finds both). */
export type ResumedPass = ResumedRun;
