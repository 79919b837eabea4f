/**
 * Read latency of the pages list and of new/fixed since the previous run, on a stored crawl of
 * 100,000 URLs (80,000 pages with 10 links each, 20,000 external targets) after a previous crawl:
 * GET /v1/sites/{id}/pages (first page under each sort, a page deep into the list, a filter, a
 * search) and the broken-link and SEO reports with their `sincePreviousRun`, through the services.
 * Also times the finalization's inlinks count over the run.
 *
 *   npx tsx tests/bench/pages.bench.ts                                        # PGlite in memory
 *   BENCH_DATABASE_URL=postgres://... npx tsx tests/bench/pages.bench.ts      # a Postgres server
 *
 * Prints the median and the slowest of 7 timed calls after one untimed warm-up. Figures, not
 * assertions.
 */

import { sql } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import { listCrawledUrls, type PagesQuery } from '@/lib/crawl/views/pages';
import { getBrokenLinkReport } from '@/lib/crawl/views/report';
import { getSeoReport } from '@/lib/crawl/views/seo-report';
import { closeDb, getDbHandle } from '@/lib/db/client';
import { machineLine } from './machine';
import { benchSite, dropOlderFrontiers, storeCrawl, timeReads } from './stored-crawl';

const PAGES = 80_000;
const EXTERNAL = 20_000;
const TIMED = 7;

if (process.env.BENCH_DATABASE_URL) process.env.DATABASE_URL = process.env.BENCH_DATABASE_URL;
else process.env.PGLITE_DIR = 'memory://';

console.log(machineLine());
const { db } = await getDbHandle();
const site = await benchSite(db);
const { tenantId, siteId } = site;

/** One stored crawl: `variant` shifts which pages have broken links and SEO issues. */
async function storeRun(startedAt: number, variant: number): Promise<string> {
  const { runId, inlinksMs } = await storeCrawl(db, site, {
    pages: PAGES,
    external: EXTERNAL,
    startedAt,
    variant,
  });
  console.log(`inlinks at finalization, ${PAGES + EXTERNAL} URLs: ${inlinksMs.toFixed(0)} ms`);
  return runId;
}

await storeRun(Date.now() - 86_400_000, 0);
const latest = await storeRun(Date.now(), 1);
await dropOlderFrontiers(db, latest);
await db.execute(sql`analyze`);

const principal: Principal = { tenantId, via: 'key', keyId: 'bench', siteIds: 'all', canCrawl: true };
const time = (label: string, read: () => Promise<unknown>) => timeReads(label, read, TIMED);

const pages = (query: PagesQuery) => listCrawledUrls(db, principal, { siteId, runId: undefined }, query);
for (const sort of ['url', 'status', 'depth', 'inlinks', 'responseTime'] as const) {
  await time(`pages, first 100, sort ${sort}`, () => pages({ sort }));
}
// A cursor halfway down the list, reached once by paging 500 at a time.
let cursor: string | null | undefined;
for (let i = 0; i < 100; i++)
  cursor = (await pages({ sort: 'inlinks', limit: 500, cursor: cursor ?? undefined })).nextCursor;
await time('pages, 100 after row 50,000, sort inlinks', () =>
  pages({ sort: 'inlinks', cursor: cursor ?? undefined }),
);
await time('pages, status=4xx, sort responseTime desc', () =>
  pages({ status: '4xx', sort: 'responseTime', order: 'desc' }),
);
await time('pages, q=page/7777', () => pages({ q: 'page/7777' }));
const report = await getBrokenLinkReport(db, principal, { siteId });
await time(
  `report (${report.brokenLinks.length} rows, ${report.sincePreviousRun.newTargets.length} new, ${report.sincePreviousRun.fixedTargets.length} fixed)`,
  () => getBrokenLinkReport(db, principal, { siteId }),
);
const seo = await getSeoReport(db, principal, { siteId });
await time(
  `seo-report (${seo.summary.issueCount} issues, ${seo.sincePreviousRun.newIssues.length} new, ${seo.sincePreviousRun.fixedIssues.length} fixed)`,
  () => getSeoReport(db, principal, { siteId }),
);
await closeDb();
