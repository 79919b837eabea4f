import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import { finalizeRun } from '@/lib/crawl/runs/finalize';
import { captureSettings } from '@/lib/crawl/runs/run';
import { listCrawledUrls, PAGE_SORTS } from '@/lib/crawl/views/pages';
import { getUrlDetail } from '@/lib/crawl/views/url-detail';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import * as schema from '@/lib/db/schema';
import { useTestDatabase } from '../support/db';
import { insertSite } from '../support/fixtures';

/*
 * A page of a finished crawl's URLs under any sort is read from an index (migration 0014), not sorted
 * from every row of the run: each sort key, as the pages list's query flattens it, must be exactly the
 * expression of its crawl_urls index. The list's own query is captured and explained with sequential
 * scans and sorts priced out, so the plan names the index whenever one matches. A URL's inlinks
 * (url-details) are found through the link-target index (migration 0018) the same way, or, linked from
 * many pages, walked through the pages with links in URL order (migration 0038).
 */

let db: Db;
let driver: string;
let teardown: () => Promise<void>;
let principal: Principal;
let siteId: string;
const INDEX: Record<(typeof PAGE_SORTS)[number], string> = {
  url: 'crawl_urls_run_id_url_pk',
  status: 'crawl_urls_sort_status_idx',
  depth: 'crawl_urls_sort_depth_idx',
  inlinks: 'crawl_urls_sort_inlinks_idx',
  outlinks: 'crawl_urls_sort_outlinks_idx',
  responseTime: 'crawl_urls_sort_response_idx',
};

beforeAll(async () => {
  ({ db, driver, teardown } = await useTestDatabase());
  const tenantId = 'org-sort-indexes';
  await db.insert(schema.organizations).values({ id: tenantId, name: 'sorts', slug: 'sorts' });
  siteId = await insertSite(db, tenantId, 'sorts.example');
  principal = { tenantId, via: 'key', keyId: 'k', siteIds: 'all', canCrawl: true };
});
afterAll(() => teardown());

/** A crawl run of the site, with the settings a run starts with; its id. */
async function insertRun(state: 'running' | 'completed'): Promise<string> {
  const [site] = await db.select().from(schema.sites).where(sql`${schema.sites.id} = ${siteId}`);
  const [run] = await db
    .insert(schema.runs)
    .values({
      site_id: siteId,
      tenant_id: principal.tenantId,
      started_at: Date.now(),
      state,
      kind: 'crawl',
      settings: await captureSettings(db, site!, Date.now(), null),
    })
    .returning({ id: schema.runs.id });
  return run!.id;
}

/**
 * A crawl run of the site with 40 URLs: running (half of them done, no inlinks yet), completed (every
 * row done with its inlinks counted) or completed before migration 0009 counted inlinks (`legacy`).
 */
async function storeRun(state: 'running' | 'completed' | 'legacy'): Promise<string> {
  const runId = await insertRun(state === 'running' ? 'running' : 'completed');
  await db.execute(sql`
    insert into crawl_urls (run_id, url, kind, depth, state, verdict, status_code, redirect_chain, response_ms,
      is_page, links, inlinks)
    select ${runId}::uuid, 'https://sorts.example/' || i, 'internal', i % 3,
      ${state === 'running' ? sql`case when i % 2 = 0 then 'done' else 'pending' end` : sql`'done'`},
      'ok', 200, case when i % 4 = 0 then ('[{"status":301,"url":"https://sorts.example/' || i || '"},{"status":200,"url":"https://sorts.example/"}]')::jsonb end,
      i * 10, 1, '[["https://sorts.example/", null, null, null]]'::jsonb,
      ${state === 'completed' ? sql`i % 5` : sql`null`}
    from generate_series(1, 40) i`);
  return runId;
}

/** The statements `read` sends, each with its parameters written in (for EXPLAIN). */
async function captured(read: (db: Db) => Promise<unknown>): Promise<string[]> {
  const statements: string[] = [];
  const logger = {
    logQuery: (query: string, params: unknown[]) =>
      statements.push(
        query.replace(/\$(\d+)/g, (_m, n: string) => {
          const value = params[Number(n) - 1];
          return typeof value === 'number' ? String(value) : `'${String(value).replaceAll("'", "''")}'`;
        }),
      ),
  };
  const client = (db as unknown as { $client: unknown }).$client;
  const logging =
    driver === 'pglite'
      ? (await import('drizzle-orm/pglite')).drizzle({ client: client as never, schema, logger })
      : (await import('drizzle-orm/node-postgres')).drizzle({ client: client as never, schema, logger });
  await read(logging as unknown as Db);
  return statements;
}

/** The pages list's query for a page of `runId` under `sort`, as it is sent. */
async function pagesQuery(runId: string | undefined, sort: (typeof PAGE_SORTS)[number]): Promise<string> {
  const [query] = (
    await captured((logging) =>
      listCrawledUrls(logging, principal, { siteId, runId }, { sort, order: 'desc' }),
    )
  ).filter((statement) => statement.includes('picked'));
  return query!;
}

/** The plan of the pages list's query for a page of `runId` under `sort`, indexes preferred. */
async function planOf(runId: string | undefined, sort: (typeof PAGE_SORTS)[number]): Promise<string> {
  return explained(await pagesQuery(runId, sort));
}

/** EXPLAIN of `query` on `on` as it is set (the server's own plan unless the caller priced things out). */
async function explainedAsIs(query: string, on: Db = db): Promise<string> {
  const rows = (await on.execute(sql.raw(`explain ${query}`))) as unknown as
    | { rows: Record<string, string>[] }
    | Record<string, string>[];
  return (Array.isArray(rows) ? rows : rows.rows).map((row) => Object.values(row)[0]).join('\n');
}

/**
 * EXPLAIN of `query` with sequential scans priced out, and sorts too unless `sorts` (a few rows found
 * through an index are sorted; without sorting, the primary key's order would win).
 */
async function explained(query: string, sorts = false): Promise<string> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    if (!sorts) await tx.execute(sql`set local enable_sort = off`);
    return explainedAsIs(query, tx);
  });
}

describe('a large crawl, finalized', () => {
  it('is described to the planner before and after, so reading its rows back by URL walks the key', async () => {
    const rows = 12_000; // above LARGE_WRITE_ROWS
    const runId = await insertRun('running');
    await db.execute(sql`
      insert into crawl_urls (run_id, url, kind, depth, state, verdict, status_code, is_page, seo_facts, links)
      select ${runId}::uuid, 'https://sorts.example/big/' || lpad(i::text, 6, '0'), 'internal', 1, 'done',
        'ok', 200, 1, '{}'::jsonb,
        jsonb_build_array(jsonb_build_array('https://sorts.example/big/000001', 'Home', 'nav a', null))
      from generate_series(1, ${rows}::int) i`);

    const finalized = await finalizeRun(db, runId);
    expect(finalized?.run).toMatchObject({ state: 'completed', pages_crawled: rows });
    const [table] = await queryRows<{ tuples: number }>(
      db,
      sql`select reltuples::float8 as tuples from pg_class where relname = 'crawl_urls'`,
    );
    expect(Number(table?.tuples)).toBeGreaterThanOrEqual(rows);
    // The SEO pass's keyset read, planned as the server would (nothing priced out): down the primary
    // key from where the last page of rows ended, not a scan of every row left and a sort.
    const plan = await explainedAsIs(
      `select url from crawl_urls where run_id = '${runId}'::uuid and url > 'https://sorts.example/big/000100'
       and is_page = 1 and seo_facts is not null order by url limit 2000`,
    );
    expect(plan).toContain('Index Scan using crawl_urls_run_id_url_pk');
    expect(plan).not.toContain('Sort');
    // Described again once its inlinks are counted: the pages list's first page comes down the key too
    // (told every inlinks was null, the planner sorted the whole run for it).
    // The page's 100 rows are picked by a limit on the key's own order, never by sorting the run.
    const listed = await explainedAsIs(await pagesQuery(runId, 'url'));
    expect(listed).toMatch(
      /CTE picked\s+->\s+Limit[^\n]*\n\s+->\s+Index Scan (Backward )?using crawl_urls_run_id_url_pk/,
    );

    // A URL on every page (past the indexed lookup's 5,000) has its linking pages walked in URL order.
    const home = 'https://sorts.example/big/000001';
    const detail = await getUrlDetail(db, principal, { siteId, runId }, { url: home, inlinksLimit: 100 });
    expect(detail.page.inlinks).toBe(rows);
    expect(detail.inlinks.map((l) => l.source_url)).toEqual(
      Array.from({ length: 100 }, (_, i) => `https://sorts.example/big/${String(i + 1).padStart(6, '0')}`),
    );
    expect(detail.inlinks[0]).toMatchObject({ link_text: 'Home', link_selector: 'nav a' });
    const next = await getUrlDetail(
      db,
      principal,
      { siteId, runId },
      { url: home, inlinksLimit: 100, inlinksCursor: detail.inlinksNextCursor! },
    );
    expect(next.inlinks[0]?.source_url).toBe('https://sorts.example/big/000101');
  });
});

describe('the pages list of a finished crawl', () => {
  it('reads a page under every sort from its index', async () => {
    const runId = await storeRun('completed');
    for (const sort of PAGE_SORTS) expect(await planOf(runId, sort), sort).toContain(INDEX[sort]);
  });

  it("lists a running crawl's rows whatever their state, with no index to help", async () => {
    const runId = await storeRun('running');
    const page = await listCrawledUrls(db, principal, { siteId, runId }, { sort: 'inlinks', limit: 500 });
    expect(page.pages).toHaveLength(40);
    expect(await planOf(runId, 'inlinks')).not.toContain(INDEX.inlinks);
  });

  it('lists every row of a crawl finalized before inlinks were counted, page after page', async () => {
    const runId = await storeRun('legacy');
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listCrawledUrls(
        db,
        principal,
        { siteId, runId },
        { sort: 'status', limit: 15, cursor },
      );
      seen.push(...page.pages.map((p) => p.url));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toHaveLength(40);
    expect(new Set(seen).size).toBe(40);
    // A filter that matches nothing is an empty page, not a 404.
    expect((await listCrawledUrls(db, principal, { siteId, runId }, { status: '5xx' })).pages).toEqual([]);
  });
});

describe("a URL's inlinks (url-details)", () => {
  const ROOT = 'https://sorts.example/';

  /** A run of storeRun's 40 pages, each linking to the root, and the root's own row. */
  async function runLinkingRoot(state: 'running' | 'completed' | 'legacy'): Promise<string> {
    // One running crawl per site: the pages list's tests above left one.
    await db.execute(
      sql`update runs set state = 'failed' where site_id = ${siteId}::uuid and state = 'running'`,
    );
    const runId = await storeRun(state);
    await db.execute(sql`
      insert into crawl_urls (run_id, url, kind, depth, state, verdict, status_code, is_page, inlinks)
      values (${runId}::uuid, ${ROOT}, 'internal', 0, 'done', 'ok', 200, 1, ${state === 'completed' ? 40 : null})`);
    return runId;
  }

  /** Every page linking to the root, read a page of 15 at a time. */
  async function allInlinks(runId: string): Promise<string[]> {
    const seen: string[] = [];
    let inlinksCursor: string | undefined;
    do {
      const detail = await getUrlDetail(
        db,
        principal,
        { siteId, runId },
        {
          url: ROOT,
          inlinksLimit: 15,
          inlinksCursor,
        },
      );
      seen.push(...detail.inlinks.map((l) => l.source_url));
      inlinksCursor = detail.inlinksNextCursor ?? undefined;
    } while (inlinksCursor);
    return seen;
  }

  it('of a finished crawl are looked up in the link-target index, not read from every page of the run', async () => {
    const runId = await runLinkingRoot('completed');
    expect(await allInlinks(runId)).toHaveLength(40);
    // On a run of some size, a URL linked from a few pages (as most are) is looked up in the index,
    // where reading the run would open every page's links.
    const bigRunId = await insertRun('completed');
    await db.execute(sql`
      insert into crawl_urls (run_id, url, kind, depth, state, verdict, status_code, is_page, links, inlinks)
      select ${bigRunId}::uuid, 'https://sorts.example/' || i, 'internal', 1, 'done', 'ok', 200, 1,
        jsonb_build_array(jsonb_build_array(${ROOT}::text, 'Home', null, null),
                          jsonb_build_array('https://sorts.example/' || ((i * 7) % 2000), 'Next', null, null)), 1
      from generate_series(0, 1999) i`);
    await db.execute(sql`analyze crawl_urls`);
    const [query] = (
      await captured((logging) =>
        getUrlDetail(logging, principal, { siteId, runId: bigRunId }, { url: 'https://sorts.example/7' }),
      )
    ).filter((statement) => statement.includes('as link_text') && statement.includes('as source_url'));
    expect(await explained(query!, true)).toContain('Bitmap Index Scan on crawl_urls_link_targets_idx');
  });

  it('of a URL on most pages are walked in URL order over the pages alone, past none of the rows without links', async () => {
    // The root linked from more pages than the link-target index is asked for, and URLs with no links
    // (external targets, assets) sorting before the first page, as a site's /assets/ or /missing/ do.
    const runId = await insertRun('completed');
    await db.execute(sql`
      insert into crawl_urls (run_id, url, kind, depth, state, verdict, status_code, is_page, links, inlinks)
      select ${runId}::uuid, 'https://sorts.example/p/' || i, 'internal', 1, 'done', 'ok', 200, 1,
        jsonb_build_array(jsonb_build_array(${ROOT}::text, 'Home', null, null)), 1
      from generate_series(0, 1999) i
      union all
      select ${runId}::uuid, 'https://sorts.example/assets/' || i, 'internal', 2, 'done', 'ok', 200, 0, null, 1
      from generate_series(0, 1999) i
      union all
      select ${runId}::uuid, ${ROOT}, 'internal', 0, 'done', 'ok', 200, 1, null, 6000`);
    await db.execute(sql`analyze crawl_urls`);
    const [query] = (
      await captured((logging) => getUrlDetail(logging, principal, { siteId, runId }, { url: ROOT }))
    ).filter((statement) => statement.includes('as link_text') && statement.includes('as source_url'));
    expect(await explained(query!)).toContain('crawl_urls_linking_pages_idx');
    const detail = await getUrlDetail(db, principal, { siteId, runId }, { url: ROOT, inlinksLimit: 3 });
    expect(detail.inlinks.map((l) => l.source_url)).toEqual([
      'https://sorts.example/p/0',
      'https://sorts.example/p/1',
      'https://sorts.example/p/10',
    ]);
  });

  it('of a running crawl, or one finalized before inlinks were counted, are all still found', async () => {
    for (const state of ['running', 'legacy'] as const) {
      const seen = await allInlinks(await runLinkingRoot(state));
      expect(seen, state).toHaveLength(40);
      expect(new Set(seen).size, state).toBe(40);
    }
  });
});
