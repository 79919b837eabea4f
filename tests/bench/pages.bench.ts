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
import { listCrawledUrls, type PagesQuery } from '@/lib/crawl/pages';
import { getBrokenLinkReport, getSeoReport } from '@/lib/crawl/report';
import { closeDb, getDbHandle } from '@/lib/db/client';
import { organizations, runs, sites } from '@/lib/db/schema';
import { insertSite } from '../support/fixtures';

const PAGES = 80_000;
const EXTERNAL = 20_000;
const TIMED = 7;

if (process.env.BENCH_DATABASE_URL) process.env.DATABASE_URL = process.env.BENCH_DATABASE_URL;
else process.env.PGLITE_DIR = 'memory://';

const { db } = await getDbHandle();
const tenantId = 'bench-org';
const origin = 'https://bench.example';
await db.insert(organizations).values({ id: tenantId, name: 'bench', slug: 'bench' });
const siteId = await insertSite(db, tenantId, 'bench.example');
await db.execute(sql`update ${sites} set seo_enabled = 1 where id = ${siteId}::uuid`);

/** One stored crawl: `variant` shifts which pages have broken links and SEO issues. */
async function storeRun(startedAt: number, variant: number): Promise<string> {
  const [run] = await db
    .insert(runs)
    .values({
      site_id: siteId,
      tenant_id: tenantId,
      started_at: startedAt,
      state: 'completed',
      kind: 'crawl',
    })
    .returning({ id: runs.id });
  const runId = run!.id;
  // Generated in the database: 100,000 rows in a few statements.
  await db.execute(sql`
    insert into crawl_urls (run_id, url, kind, depth, state, verdict, status_code, redirect_chain, content_type,
      response_ms, is_page, seo_facts, links)
    select ${runId}::uuid, ${origin} || '/page/' || i, 'internal', i % 7, 'done',
      case when i % 97 = 0 then 'broken' else 'ok' end,
      case when i % 97 = 0 then 404 when i % 50 = 0 then 200 else 200 end,
      case when i % 50 = 0 then '[{"status":301,"url":"' || ${origin} || '/page/' || i || '"},{"status":200,"url":"' || ${origin} || '/page/' || (i + 1) || '/"}]' end,
      'text/html', (i * 37) % 900, case when i % 97 = 0 then 0 else 1 end,
      case when i % 97 = 0 then null else jsonb_build_object('title', 'Page ' || i) end,
      case when i % 97 = 0 then null else (
        select jsonb_agg(jsonb_build_array(
          case when k < 8 then ${origin} || '/page/' || ((i * 13 + k * 7919) % ${PAGES})
               else 'https://ext' || ((i + k) % ${EXTERNAL}) || '.example/' end, 'link', null, null))
        from generate_series(0, 9) k) end
    from generate_series(0, ${PAGES - 1}) i`);
  await db.execute(sql`
    insert into crawl_urls (run_id, url, kind, depth, state, verdict, status_code, content_type, response_ms)
    select ${runId}::uuid, 'https://ext' || i || '.example/', 'external', 3, 'done',
      case when (i + ${variant}) % 41 = 0 then 'broken' else 'ok' end,
      case when (i + ${variant}) % 41 = 0 then 404 else 200 end, 'text/html', (i * 53) % 1500
    from generate_series(0, ${EXTERNAL - 1}) i`);
  const start = performance.now();
  await db.execute(sql`
    update crawl_urls u set inlinks = c.pages
    from (select l.link ->> 0 as url, count(*) as pages
          from crawl_urls p cross join lateral jsonb_array_elements(p.links) as l(link)
          where p.run_id = ${runId}::uuid and p.links is not null group by 1) c
    where u.run_id = ${runId}::uuid and u.url = c.url`);
  await db.execute(sql`update crawl_urls set inlinks = 0 where run_id = ${runId}::uuid and inlinks is null`);
  console.log(
    `inlinks at finalization, ${PAGES + EXTERNAL} URLs: ${(performance.now() - start).toFixed(0)} ms`,
  );
  await db.execute(sql`
    insert into broken_links (run_id, tenant_id, source_url, target_url, status, status_code, kind, created_at)
    select p.run_id, ${tenantId}, p.url, u.url, 'broken', u.status_code, u.kind, 0
    from crawl_urls p cross join lateral jsonb_array_elements(p.links) as l(link)
    join crawl_urls u on u.run_id = p.run_id and u.url = l.link ->> 0
    where p.run_id = ${runId}::uuid and p.links is not null and u.verdict = 'broken'
    on conflict do nothing`);
  // SEO issues in parts of 2,000, a description missing on every third page (shifted by variant).
  await db.execute(sql`
    insert into seo_reports (run_id, part, tenant_id, issues, created_at)
    select ${runId}::uuid, part, ${tenantId}, jsonb_agg(issue), 0 from (
      select (n / 2000) as part, jsonb_build_array('description-missing', 'moderate',
               ${origin} || '/page/' || (n * 3 + ${variant}), 'no meta description') as issue
      from generate_series(0, ${Math.floor(PAGES / 3) - 1}) n) x
    group by part`);
  return runId;
}

await storeRun(Date.now() - 86_400_000, 0);
// The previous run's frontier is dropped at finalization, as in production.
await db.execute(
  sql`delete from crawl_urls where run_id <> (select id from runs order by started_at limit 1)`,
);
const latest = await storeRun(Date.now(), 1);
await db.execute(sql`delete from crawl_urls where run_id <> ${latest}::uuid`);
await db.execute(sql`analyze`);

const principal: Principal = { tenantId, via: 'key', keyId: 'bench', siteIds: 'all', canCrawl: true };
const where = process.env.BENCH_DATABASE_URL ? 'Postgres' : 'PGlite';

async function time(label: string, read: () => Promise<unknown>): Promise<void> {
  await read();
  const times: number[] = [];
  for (let i = 0; i < TIMED; i++) {
    const start = performance.now();
    await read();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(44)} ${where}: median ${times[TIMED >> 1]!.toFixed(0)} ms, slowest ${times[TIMED - 1]!.toFixed(0)} ms`,
  );
}

const pages = (query: PagesQuery) => listCrawledUrls(db, principal, siteId, undefined, query);
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
const report = await getBrokenLinkReport(db, principal, siteId);
await time(
  `report (${report.brokenLinks.length} rows, ${report.sincePreviousRun.newTargets.length} new, ${report.sincePreviousRun.fixedTargets.length} fixed)`,
  () => getBrokenLinkReport(db, principal, siteId),
);
const seo = await getSeoReport(db, principal, siteId);
await time(
  `seo-report (${seo.summary.issueCount} issues, ${seo.sincePreviousRun.newIssues.length} new, ${seo.sincePreviousRun.fixedIssues.length} fixed)`,
  () => getSeoReport(db, principal, siteId),
);
await closeDb();
