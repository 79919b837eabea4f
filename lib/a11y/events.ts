/**
 * What the render pass asks of the job runner, declared by the domain like lib/crawl/events.ts:
 * `jobs/a11y-events.ts` implements it with the runner's events and the entry points (the crawl's
 * finalize function, the scheduler function, the runner's boot hook) pass it in.
 */
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

export interface ResumedPass {
  runId: string;
  /** 'finalize' for a pass that was finalizing; 'continue' otherwise (it seeds first if seeding never finished). */
  step: 'continue' | 'finalize';
  /** When the pass went quiet: repeated sweeps of the same silence are one resumption. */
  silentSince: number;
}
