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
 *   Postgres (README, "API latency");
 * - the broken targets' first page with a previous crawl to compare with, as every crawl after a
 *   site's first has (`timeComparedReads`).
 */
import { eq, sql } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import { listBrokenTargets } from '@/lib/crawl/views/broken-targets';
import { storeRunChanges } from '@/lib/crawl/views/history';
import { listCrawledUrls } from '@/lib/crawl/views/pages';
import { getBrokenLinkReport } from '@/lib/crawl/views/report';
import { getSeoReport } from '@/lib/crawl/views/seo-report';
import { getUrlDetail } from '@/lib/crawl/views/url-detail';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import { brokenLinks, type Run, runChanges, runs } from '@/lib/db/schema';
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

/** The API key reading `run`'s reports in the benchmark, and the scope of the site's latest crawl. */
function readerOf(run: { tenant_id: string; site_id: string }) {
  const principal: Principal = {
    tenantId: run.tenant_id,
    via: 'key',
    keyId: 'bench',
    siteIds: 'all',
    canCrawl: true,
  };
  return { principal, scope: { siteId: run.site_id, runId: undefined } };
}

export async function timeReportReads(db: Db, run: { tenant_id: string; site_id: string }): Promise<void> {
  const { principal, scope } = readerOf(run);
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

/**
 * The broken targets' first page of `run` with a previous completed crawl to compare with: one is
 * planted (the run's report rows copied, every target with an odd hash renamed, so about half the
 * targets are new and as many fixed), the page timed with the difference finalization stores
 * (run_changes) and with it differenced on every read (a run finalized before migration 0039), and
 * the planted crawl removed. The bench's run has no previous crawl, so it had no stored changes.
 */
export async function timeComparedReads(db: Db, run: Run): Promise<void> {
  const { principal, scope } = readerOf(run);
  const { id: _id, ...fields } = run;
  const [previous] = await db
    .insert(runs)
    .values({ ...fields, started_at: run.started_at - 60_000, finished_at: run.started_at - 1000 })
    .returning({ id: runs.id });
  const previousId = (previous as { id: string }).id;
  try {
    await db.execute(
      sql`insert into broken_links (run_id, tenant_id, source_url, target_url, status, status_code, kind,
            redirect_chain, detail, created_at, link_text, link_selector, link_attrs, linking_pages)
          select ${previousId}::uuid, tenant_id, source_url,
            case when hashtext(target_url) & 1 = 1 then target_url || '-then' else target_url end,
            status, status_code, kind, redirect_chain, detail, created_at, link_text, link_selector,
            link_attrs, linking_pages
          from broken_links where run_id = ${run.id}::uuid`,
    );
    const started = performance.now();
    await storeRunChanges(db, run, { seo: false });
    const differenced = performance.now() - started;
    const [stored] = await db.select().from(runChanges).where(eq(runChanges.run_id, run.id));
    console.log(
      `with a previous crawl: ${stored?.broken?.newCount} targets new and ${stored?.broken?.fixedCount} fixed, differenced in ${differenced.toFixed(0)} ms at finalization`,
    );
    const page = () => listBrokenTargets(db, principal, scope, {});
    await timeReads('  broken targets, first page, stored difference', page, TIMED, 46);
    await db.delete(runChanges).where(eq(runChanges.run_id, run.id));
    await timeReads('  broken targets, first page, differenced on read', page, TIMED, 46);
  } finally {
    await db.delete(runChanges).where(eq(runChanges.run_id, run.id));
    await db.delete(brokenLinks).where(eq(brokenLinks.run_id, previousId));
    await db.delete(runs).where(eq(runs.id, previousId));
  }
}
