/**
 * What a large measured crawl left in the database, and how fast its reports read back (the crawl
 * benchmark prints both for a site of 100,000 pages and more, issue 27 item 3):
 *
 * - the rows the run wrote, table by table, and the size of each table (with its TOAST) and index
 *   it wrote to, as the database reports them;
 * - the reads the API answers for that run, through the services its routes call: a page of the
 *   pages list under three sorts, a page of grouped broken targets (the first and one after a
 *   cursor), one URL's view (the most-linked URL, whose inlinks are paged), the whole broken-link
 *   report, and the SEO report: its first page
 *   (every failing check counted, its first 100 pages listed, and the since-previous lists) and one
 *   check's next page through its cursor. The target for a page of results is a p99 under 50 ms on
 *   Postgres (README, "API latency").
 */
import { sql } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import { listBrokenTargets } from '@/lib/crawl/views/broken-targets';
import { listCrawledUrls } from '@/lib/crawl/views/pages';
import { getBrokenLinkReport } from '@/lib/crawl/views/report';
import { getSeoReport } from '@/lib/crawl/views/seo-report';
import { getUrlDetail } from '@/lib/crawl/views/url-detail';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import { timeReads } from './stored-crawl';

/** Reads timed per view: the slowest of 20 stands for the p99 the target names. */
const TIMED = 20;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

export async function printDatabaseFigures(db: Db, runId: string): Promise<void> {
  const [rows] = await queryRows<Record<string, string | number>>(
    db,
    sql`select (select count(*) from crawl_urls where run_id = ${runId}::uuid) as crawl_urls,
               (select count(*) from broken_links where run_id = ${runId}::uuid) as broken_links,
               (select count(*) from seo_reports where run_id = ${runId}::uuid) as seo_report_parts,
               (select count(*) from usage_ledger where run_id = ${runId}::uuid) as usage_ledger`,
  );
  console.log(
    `database: rows the run wrote: ${Object.entries(rows ?? {})
      .map(([table, n]) => `${table} ${Number(n).toLocaleString('en')}`)
      .join(', ')}`,
  );
  const relations = await queryRows<{ name: string; kind: string; bytes: string | number }>(
    db,
    sql`select c.relname as name, c.relkind as kind,
               case when c.relkind = 'r' then pg_total_relation_size(c.oid) - pg_indexes_size(c.oid)
                    else pg_relation_size(c.oid) end as bytes
        from pg_class c
        left join pg_index i on i.indexrelid = c.oid
        where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'i')
          and coalesce(i.indrelid, c.oid) in ('crawl_urls'::regclass, 'broken_links'::regclass, 'seo_reports'::regclass)
        order by bytes desc`,
  );
  console.log('database: sizes (tables with their TOAST, then each index):');
  for (const r of relations)
    console.log(`  ${mb(Number(r.bytes)).padStart(8)}  ${r.kind === 'r' ? 'table' : 'index'} ${r.name}`);
}

export async function timeReportReads(db: Db, run: { tenant_id: string; site_id: string }): Promise<void> {
  const principal: Principal = {
    tenantId: run.tenant_id,
    via: 'key',
    keyId: 'bench',
    siteIds: 'all',
    canCrawl: true,
  };
  const scope = { siteId: run.site_id, runId: undefined };
  const time = (label: string, read: () => Promise<unknown>) => timeReads(label, read, TIMED, 46);
  console.log(
    `reads of the run's reports (${TIMED} timed after one warm-up; target p99 under 50 ms a page):`,
  );
  for (const sort of ['url', 'inlinks', 'status'] as const)
    await time(`  pages, first 100, sort ${sort}`, () => listCrawledUrls(db, principal, scope, { sort }));
  const first = await listCrawledUrls(db, principal, scope, { sort: 'inlinks', limit: 500 });
  await time('  pages, the next 100 by inlinks (a cursor)', () =>
    listCrawledUrls(db, principal, scope, { sort: 'inlinks', cursor: first.nextCursor ?? undefined }),
  );
  await time('  broken targets, first page', () => listBrokenTargets(db, principal, scope, {}));
  const targets = await listBrokenTargets(db, principal, scope, { limit: 500 });
  if (targets.nextCursor)
    await time('  broken targets, the next page (a cursor)', () =>
      listBrokenTargets(db, principal, scope, { cursor: targets.nextCursor ?? undefined }),
    );
  const most = await listCrawledUrls(db, principal, scope, { sort: 'inlinks', order: 'desc', limit: 1 });
  const rare = first.pages.find((p) => (p.inlinks ?? 0) > 0);
  for (const [label, page] of [
    ['the most-linked URL', most.pages[0]],
    ['a rarely linked URL', rare],
  ] as const) {
    if (page)
      await time(`  url-details of ${label}`, () => getUrlDetail(db, principal, scope, { url: page.url }));
  }
  await time('  broken-link report (whole)', () =>
    getBrokenLinkReport(db, principal, { siteId: run.site_id }),
  );
  const seo = await getSeoReport(db, principal, scope);
  await time(`  seo-report, first page (${seo.summary.issueCount} issues, ${seo.checks.length} checks)`, () =>
    getSeoReport(db, principal, scope),
  );
  const paged = seo.checks.find((c) => c.nextCursor !== null);
  if (paged?.nextCursor)
    await time(`  seo-report, the next 100 pages of ${paged.check} (a cursor)`, () =>
      getSeoReport(db, principal, scope, { check: paged.check, cursor: paged.nextCursor ?? undefined }),
    );
}
