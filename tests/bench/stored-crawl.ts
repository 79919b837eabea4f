/**
 * A large completed crawl stored straight in the database, generated there in a few statements, for
 * the read benchmarks (pages.bench.ts, api.bench.ts): `pages` crawled pages with 10 links each (8 to
 * other pages, 2 to `external` external targets), every 97th page broken (404, not parsed), every
 * 50th a redirect, inlinks counted as finalization counts them, the broken links the report reads and
 * an SEO issue (a missing description) on every third page. `variant` shifts which external targets
 * are broken and which pages have the SEO issue, so two runs differ (new and fixed since the previous).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { organizations, runs, sites } from '@/lib/db/schema';
import { insertSite } from '../support/fixtures';

export type BenchSite = { tenantId: string; siteId: string; origin: string };

/** An organization with one site (Broken Links and SEO on) at https://bench.example. */
export async function benchSite(db: Db): Promise<BenchSite> {
  const tenantId = 'bench-org';
  await db.insert(organizations).values({ id: tenantId, name: 'bench', slug: 'bench' });
  const siteId = await insertSite(db, tenantId, 'bench.example');
  await db.execute(sql`update ${sites} set seo_enabled = 1 where id = ${siteId}::uuid`);
  return { tenantId, siteId, origin: 'https://bench.example' };
}

/** Stores one completed crawl; answers its id and how long counting its inlinks took (finalization's share). */
export async function storeCrawl(
  db: Db,
  { tenantId, siteId, origin }: BenchSite,
  options: { pages: number; external: number; startedAt: number; variant: number },
): Promise<{ runId: string; inlinksMs: number }> {
  const { pages, external, startedAt, variant } = options;
  const [run] = await db
    .insert(runs)
    .values({
      site_id: siteId,
      tenant_id: tenantId,
      started_at: startedAt,
      finished_at: startedAt + 60_000,
      state: 'completed',
      kind: 'crawl',
      pages_crawled: pages,
      links_checked: pages + external,
    })
    .returning({ id: runs.id });
  const runId = run!.id;
  await db.execute(sql`
    insert into crawl_urls (run_id, url, kind, depth, state, verdict, status_code, redirect_chain, content_type,
      response_ms, is_page, seo_facts, links)
    select ${runId}::uuid, ${origin} || '/page/' || i, 'internal', i % 7, 'done',
      case when i % 97 = 0 then 'broken' else 'ok' end,
      case when i % 97 = 0 then 404 when i % 50 = 0 then 200 else 200 end,
      case when i % 50 = 0 then ('[{"status":301,"url":"' || ${origin} || '/page/' || i || '"},{"status":200,"url":"' || ${origin} || '/page/' || (i + 1) || '/"}]')::jsonb end,
      'text/html', (i * 37) % 900, case when i % 97 = 0 then 0 else 1 end,
      case when i % 97 = 0 then null else jsonb_build_object('title', 'Page ' || i) end,
      case when i % 97 = 0 then null else (
        select jsonb_agg(jsonb_build_array(
          case when k < 8 then ${origin} || '/page/' || ((i * 13 + k * 7919) % ${pages})
               else 'https://ext' || ((i + k) % ${external}) || '.example/' end, 'link', null, null))
        from generate_series(0, 9) k) end
    from generate_series(0, ${pages - 1}) i`);
  await db.execute(sql`
    insert into crawl_urls (run_id, url, kind, depth, state, verdict, status_code, content_type, response_ms)
    select ${runId}::uuid, 'https://ext' || i || '.example/', 'external', 3, 'done',
      case when (i + ${variant}) % 41 = 0 then 'broken' else 'ok' end,
      case when (i + ${variant}) % 41 = 0 then 404 else 200 end, 'text/html', (i * 53) % 1500
    from generate_series(0, ${external - 1}) i`);
  const start = performance.now();
  await db.execute(sql`
    update crawl_urls u set inlinks = c.pages
    from (select l.link ->> 0 as url, count(*) as pages
          from crawl_urls p cross join lateral jsonb_array_elements(p.links) as l(link)
          where p.run_id = ${runId}::uuid and p.links is not null group by 1) c
    where u.run_id = ${runId}::uuid and u.url = c.url`);
  await db.execute(sql`update crawl_urls set inlinks = 0 where run_id = ${runId}::uuid and inlinks is null`);
  const inlinksMs = performance.now() - start;
  await db.execute(sql`
    insert into broken_links (run_id, tenant_id, source_url, target_url, status, status_code, kind, created_at)
    select p.run_id, ${tenantId}, p.url, u.url, 'broken', u.status_code, u.kind, 0
    from crawl_urls p cross join lateral jsonb_array_elements(p.links) as l(link)
    join crawl_urls u on u.run_id = p.run_id and u.url = l.link ->> 0
    where p.run_id = ${runId}::uuid and p.links is not null and u.verdict = 'broken'
    on conflict do nothing`);
  await db.execute(sql`
    update runs set
      broken_count = (select count(distinct target_url) from broken_links where run_id = ${runId}::uuid),
      pages_with_broken_count = (select count(distinct source_url) from broken_links where run_id = ${runId}::uuid)
    where id = ${runId}::uuid`);
  // SEO issues in parts of 2,000, a description missing on every third page (shifted by variant).
  await db.execute(sql`
    insert into seo_reports (run_id, part, tenant_id, issues, created_at)
    select ${runId}::uuid, part, ${tenantId}, jsonb_agg(issue), 0 from (
      select (n / 2000) as part, jsonb_build_array('description-missing', 'moderate',
               ${origin} || '/page/' || (n * 3 + ${variant}), 'no meta description') as issue
      from generate_series(0, ${Math.floor(pages / 3) - 1}) n) x
    group by part`);
  return { runId, inlinksMs };
}

/** Finalization drops every crawl's frontier but the latest completed one's: so does the benchmark. */
export async function dropOlderFrontiers(db: Db, latestRunId: string): Promise<void> {
  await db.execute(sql`delete from crawl_urls where run_id <> ${latestRunId}::uuid`);
}

/** Where the read benchmarks run: a Postgres server (BENCH_DATABASE_URL) or PGlite. */
export const benchDatabase = () => (process.env.BENCH_DATABASE_URL ? 'Postgres' : 'PGlite');

/**
 * Times `read`: one untimed warm-up, then `timed` calls; prints the median and the slowest after the
 * label, padded to `width` so a benchmark's lines line up.
 */
export async function timeReads(
  label: string,
  read: () => Promise<unknown>,
  timed = 7,
  width = 44,
): Promise<void> {
  await read();
  const times: number[] = [];
  for (let i = 0; i < timed; i++) {
    const start = performance.now();
    await read();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(width)} ${benchDatabase()}: median ${times[timed >> 1]!.toFixed(0)} ms, slowest ${times[timed - 1]!.toFixed(0)} ms`,
  );
}
