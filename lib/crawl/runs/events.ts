/**
 * What the crawl asks of the job runner. The domain declares it and never imports the runner:
 * `jobs/crawl-events.ts` implements it with the runner's events, and the entry points (the crawl
 * route, the scheduler function, the runner's boot hook) pass that implementation in.
 */
export interface CrawlEvents {
  /** Work the run whose row was just created. Resolves once the runner has accepted it. */
  requested(run: RequestedRun): Promise<void>;
  /** Pick interrupted runs up again, each at the step it was in. */
  resumed(runs: ResumedRun[]): Promise<void>;
}

export interface RequestedRun {
  runId: string;
  siteId: string;
  tenantId: string;
  chainA11y: boolean;
}

export interface ResumedRun {
  runId: string;
  /** Its tenant: the functions' per-tenant concurrency key. */
  tenantId: string;
  /** 'finalize' for a run that was finalizing; 'continue' otherwise (it seeds first if seeding never finished). */
  step: 'continue' | 'finalize';
  /** When the run went quiet: repeated sweeps of the same silence are one resumption. */
  silentSince: number;
}
