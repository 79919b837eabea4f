/**
 * Read latency of the crawl report views beyond the pages list, on a stored crawl of 100,000 URLs
 * (80,000 pages with 10 links each, 20,000 external targets; stored-crawl.ts) after a previous
 * crawl: the grouped dead-link report (GET /broken-targets, first page and a filtered one, with first
 * seen over the two crawls), the redirects with their linking pages (GET /redirects), and one URL's
 * view (GET /url-details: inlinks of a much-linked and of a rarely linked URL, outlinks, SEO
 * issues), through the services the routes and the dashboard call.
 *
 *   npx tsx tests/bench/crawl-views.bench.ts                                   # PGlite in memory
 *   BENCH_DATABASE_URL=postgres://... npx tsx tests/bench/crawl-views.bench.ts # a Postgres server
 *
 * Prints the median and the slowest of 7 timed calls after one untimed warm-up. Figures, not
 * assertions.
 */

import { sql } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import { listBrokenTargets } from '@/lib/crawl/views/broken-targets';
import { listRedirects } from '@/lib/crawl/views/redirects';
import { getUrlDetail } from '@/lib/crawl/views/url-detail';
import { closeDb, getDbHandle } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
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
await storeCrawl(db, site, {
  pages: PAGES,
  external: EXTERNAL,
  startedAt: Date.now() - 86_400_000,
  variant: 0,
});
const { runId } = await storeCrawl(db, site, {
  pages: PAGES,
  external: EXTERNAL,
  startedAt: Date.now(),
  variant: 1,
});
await dropOlderFrontiers(db, runId);
await db.execute(sql`analyze`);

const principal: Principal = {
  tenantId: site.tenantId,
  via: 'key',
  keyId: 'bench',
  siteIds: 'all',
  canCrawl: true,
};
const time = (label: string, read: () => Promise<unknown>) => timeReads(label, read, TIMED, 56);

const targets = await listBrokenTargets(db, principal, { siteId: site.siteId, runId: undefined }, {});
await time(`broken-targets, first 50 of ${targets.matching.targets} (${targets.matching.rows} rows)`, () =>
  listBrokenTargets(db, principal, { siteId: site.siteId, runId: undefined }, {}),
);
await time('broken-targets, kind=external, sort firstSeen', () =>
  listBrokenTargets(
    db,
    principal,
    { siteId: site.siteId, runId: undefined },
    { kind: 'external', sort: 'firstSeen' },
  ),
);
await time('redirects, first 50 with their linking pages', () =>
  listRedirects(db, principal, { siteId: site.siteId, runId: undefined }, {}),
);
// The most and the least linked crawled page.
const [most] = await queryRows<{ url: string; inlinks: number }>(
  db,
  sql`select url, inlinks from crawl_urls where run_id = ${runId}::uuid and is_page = 1 order by inlinks desc limit 1`,
);
const [least] = await queryRows<{ url: string; inlinks: number }>(
  db,
  sql`select url, inlinks from crawl_urls where run_id = ${runId}::uuid and is_page = 1 and inlinks > 0 order by inlinks, url limit 1`,
);
for (const [name, page] of [
  ['much', most],
  ['rarely', least],
] as const) {
  await time(`url-details, a ${name} linked page (${page!.inlinks} inlinks)`, () =>
    getUrlDetail(db, principal, { siteId: site.siteId, runId: undefined }, { url: page!.url }),
  );
}
await closeDb();
