import type { InngestFunction } from 'inngest';
import { crawlFinalizeFunction, crawlRunFunction } from './crawl';
import { crawlSchedulerFunction } from './scheduler';

/**
 * Every Inngest function of the app. Both runtimes read this list: /api/inngest serves it to
 * Inngest, and instrumentation.ts hands it to the embedded runner. Add each function defined in
 * jobs/functions/<name>.ts here.
 */
export const functions: InngestFunction.Any[] = [
  crawlRunFunction,
  crawlFinalizeFunction,
  crawlSchedulerFunction,
];
