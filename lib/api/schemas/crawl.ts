import { z } from 'zod';
import { strictBoolean } from './common';

/**
 * POST /v1/sites/{id}/crawl. The body is optional: the default is a full scan that chains the
 * accessibility pass when that app is on; `chainA11y: false` gives a links-only run.
 */
export const triggerCrawlBody = z.object({ chainA11y: strictBoolean().optional() }).strict().optional();
export type TriggerCrawlBody = z.infer<typeof triggerCrawlBody>;
