import { z } from 'zod';
import type { SiteCrawls } from '@/lib/sites/crawl-summary';
import type { Holds, Same } from './common';

const ms = (what: string) => z.int().describe(`${what} (epoch milliseconds)`);

const crawlFigures = z
  .object({
    runId: z.uuid().describe('the completed crawl'),
    startedAt: ms('when it started'),
    brokenCount: z.int().min(0).describe('distinct broken targets, as the run recorded them'),
    seoScore: z
      .int()
      .min(0)
      .max(100)
      .nullable()
      .describe('SEO score 0-100; null when the run extracted no SEO data'),
  })
  .strict()
  .meta({ id: 'CrawlFigures', description: "A completed crawl's headline figures" });

/** One listed site's crawls at a glance (GET /v1/sites `crawls`): what the sites list shows. */
export const siteCrawlsSchema = z
  .object({
    siteId: z.uuid().describe('the listed site'),
    lastCrawl: z
      .object({
        runId: z.uuid().describe('the crawl run'),
        state: z.enum(['running', 'completed', 'failed']).describe("the run's state"),
        startedAt: ms('when it started'),
        finishedAt: ms('when it ended')
          .nullable()
          .describe('when it ended (epoch milliseconds); null while it runs'),
      })
      .strict()
      .nullable()
      .describe(
        'the latest crawl run of any origin (scheduled, manual or API) and any state; null: never crawled',
      ),
    latest: crawlFigures.nullable().describe('the latest completed crawl; null when none completed yet'),
    previous: crawlFigures
      .nullable()
      .describe('the completed crawl before `latest`, for the direction since then; null when there is none'),
  })
  .strict()
  .meta({ id: 'SiteCrawls', description: "A listed site's crawls at a glance" });

/** What the service answers is exactly this schema's output: typecheck fails on drift. */
export type SiteCrawlsMatchSchema = Holds<Same<SiteCrawls, z.output<typeof siteCrawlsSchema>>>;
