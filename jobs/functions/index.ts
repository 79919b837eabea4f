import type { InngestFunction } from 'inngest';
import { a11yFinalizeFunction, a11yRunFunction } from './a11y';
import { crawlFinalizeFunction, crawlRunFunction } from './crawl';
import { fieldDataSyncFunction, searchSyncFunction } from './integrations';
import { databaseVacuumFunction } from './maintenance';
import { notifyDeliverFunction, notifyPruneFunction } from './notify';
import { rateLimitPruneFunction } from './ratelimit';
import { monthlyReportsFunction } from './reports';
import { crawlSchedulerFunction } from './scheduler';
import { uptimeRollupFunction, uptimeRoundsFunction } from './uptime';

/**
 * Every Inngest function of the app. Both runtimes read this list: /api/inngest serves it to
 * Inngest, and jobs/boot.ts hands it to the embedded runner. Define each with `createFunction` from
 * @/jobs/runtime in jobs/functions/<name>.ts and add it here.
 */
export const functions: InngestFunction.Any[] = [
  crawlRunFunction,
  crawlFinalizeFunction,
  a11yRunFunction,
  a11yFinalizeFunction,
  crawlSchedulerFunction,
  notifyDeliverFunction,
  monthlyReportsFunction,
  notifyPruneFunction,
  rateLimitPruneFunction,
  fieldDataSyncFunction,
  searchSyncFunction,
  uptimeRoundsFunction,
  uptimeRollupFunction,
  databaseVacuumFunction,
];
