import { eq, sql } from 'drizzle-orm';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunChanges } from '@/components/sites/run-changes';
import type { Principal } from '@/lib/auth/principal';
import {
  BROKEN_TARGET_SORTS,
  type BrokenTargetsQuery,
  listBrokenTargets,
  matchingBrokenTargets,
} from '@/lib/crawl/views/broken-targets';
import { MAX_LISTED_CHANGES, storeRunChanges } from '@/lib/crawl/views/history';
import { getBrokenLinkReport } from '@/lib/crawl/views/report';
import type { Db } from '@/lib/db/client';
import * as schema from '@/lib/db/schema';
import { useTestDatabase } from '../support/db';
import { insertSite } from '../support/fixtures';

/*
 * The dead-link report grouped by target is picked in SQL a page at a time (issue 12): grouping,
 * the status classes, filters, every sort with its ties, the keyset cursor and the site's current
 * excludePaths, on report rows stored straight in the database (crawl-views.test.ts runs the same
 * endpoint over real crawls).
 */

let db: Db;
let teardown: () => Promise<void>;
let principal: Principal;
let siteId: string;
const runIds: string[] = [];

type Row = Partial<typeof schema.brokenLinks.$inferInsert> & { target: string; source: string };
const row = (target: string, source: string, extra: Omit<Row, 'target' | 'source'> = {}): Row => ({
  target,
  source,
  ...extra,
});

/** A completed crawl `days` ago with these report rows (of the site `site`, default the report's). */
async function storeCrawl(days: number, rows: Row[], site = siteId): Promise<string> {
  const startedAt = Date.now() - days * 86_400_000;
  const [run] = await db
    .insert(schema.runs)
    .values({
      site_id: site,
      tenant_id: principal.tenantId,
      started_at: startedAt,
      finished_at: startedAt + 1000,
      state: 'completed',
      kind: 'crawl',
    })
    .returning({ id: schema.runs.id });
  await db.insert(schema.brokenLinks).values(
    rows.map(({ target, source, ...extra }) => ({
      run_id: run!.id,
      tenant_id: principal.tenantId,
      source_url: source,
      target_url: target,
      status: 'broken' as const,
      status_code: 404,
      kind: 'internal' as const,
      detail: 'not found (404)',
      created_at: startedAt,
      link_text: 'text',
      link_selector: 'a',
      ...extra,
    })),
  );
  runIds.push(run!.id);
  return run!.id;
}

const latest = [
  row('https://a.test/gone', 'https://a.test/'),
  row('https://a.test/gone', 'https://a.test/x'),
  row('https://a.test/gone', 'https://a.test/y'),
  row('https://b.test/down', 'https://a.test/x', { kind: 'external', status_code: 503, detail: 'error 503' }),
  row('https://a.test/old', 'https://a.test/', {
    status_code: 410,
    redirect_chain: [
      { status: 301, url: 'https://a.test/old' },
      { status: 410, url: 'https://a.test/closed' },
    ],
  }),
  row('http://', 'https://a.test/y', { status_code: null, detail: 'invalid URL: "http://"' }),
  row('https://a.test/moved', 'https://a.test/z', { status_code: 304 }),
  row('https://c.test/odd', 'https://a.test/z', { kind: 'external', status_code: 999 }),
];

beforeAll(async () => {
  ({ db, teardown } = await useTestDatabase());
  const tenantId = 'org-broken-targets';
  await db.insert(schema.organizations).values({ id: tenantId, name: 'bt', slug: 'bt' });
  siteId = await insertSite(db, tenantId, 'a.test');
  principal = { tenantId, via: 'key', keyId: 'k', siteIds: 'all', canCrawl: true };
  // Three crawls: /gone broken in all; /old in the first, fixed in the second, back in the latest.
  await storeCrawl(3, [
    row('https://a.test/gone', 'https://a.test/'),
    row('https://a.test/old', 'https://a.test/'),
  ]);
  await storeCrawl(2, [
    row('https://a.test/gone', 'https://a.test/'),
    row('https://a.test/fixed', 'https://a.test/'),
  ]);
  await storeCrawl(1, latest);
});
afterAll(() => teardown());

const list = (query: BrokenTargetsQuery = {}) =>
  listBrokenTargets(db, principal, { siteId, runId: undefined }, query);
const urls = async (query: BrokenTargetsQuery) => (await list(query)).targets.map((t) => t.target_url);

describe('the dead-link report grouped by target, in SQL', () => {
  it('gives each target its linking pages, first seen, new, parsed hops and first sources by URL', async () => {
    const page = await list();
    const byUrl = new Map(page.targets.map((t) => [t.target_url, t]));
    const [first, second, third] = runIds as [string, string, string];
    const started = async (id: string) =>
      (await db.select().from(schema.runs).where(eq(schema.runs.id, id)))[0]!.started_at;
    expect(byUrl.get('https://a.test/gone')).toMatchObject({
      kind: 'internal',
      status: 'broken',
      status_code: 404,
      linking_pages: 3,
      first_seen: await started(first),
      is_new: false,
      sources: ['https://a.test/', 'https://a.test/x', 'https://a.test/y'].map((source_url) => ({
        source_url,
        link_text: 'text',
        link_selector: 'a',
      })),
    });
    // Broken, fixed, broken again: first seen in the latest crawl, and new.
    expect(byUrl.get('https://a.test/old')).toMatchObject({ first_seen: await started(third), is_new: true });
    expect(byUrl.get('https://a.test/old')!.hops).toEqual([
      { status: 301, url: 'https://a.test/old' },
      { status: 410, url: 'https://a.test/closed' },
    ]);
    expect(byUrl.get('https://b.test/down')).toMatchObject({
      linking_pages: 1,
      is_new: true,
      detail: 'error 503',
    });
    expect(page.matching).toEqual({ targets: 6, rows: 8 });
    expect(page.run).toMatchObject({
      broken_count: 6,
      pages_with_broken_count: 4,
      internal_broken: 4,
      external_broken: 2,
    });
    expect(page.sincePreviousRun).toEqual({
      previousRunId: second,
      newTargets: [
        'http://',
        'https://a.test/moved',
        'https://a.test/old',
        'https://b.test/down',
        'https://c.test/odd',
      ],
      fixedTargets: ['https://a.test/fixed'],
      newTargetCount: 5,
      fixedTargetCount: 1,
    });
  });

  it('sorts the sitewide problems first by default, ties by URL, and reverses on request', async () => {
    expect(await urls({})).toEqual([
      'https://a.test/gone',
      'http://',
      'https://a.test/moved',
      'https://a.test/old',
      'https://b.test/down',
      'https://c.test/odd',
    ]);
    // No status sorts lowest; ties still go by URL ascending when the order is descending.
    expect(await urls({ sort: 'status' })).toEqual([
      'http://',
      'https://a.test/moved',
      'https://a.test/gone',
      'https://a.test/old',
      'https://b.test/down',
      'https://c.test/odd',
    ]);
    expect((await urls({ sort: 'status', order: 'desc' }))[0]).toBe('https://c.test/odd');
    expect((await urls({ sort: 'kind' })).slice(-2)).toEqual(['https://b.test/down', 'https://c.test/odd']);
    expect((await urls({ sort: 'firstSeen' }))[0]).toBe('https://a.test/gone');
    expect(await urls({ sort: 'target', order: 'desc' })).toEqual([
      'https://c.test/odd',
      'https://b.test/down',
      'https://a.test/old',
      'https://a.test/moved',
      'https://a.test/gone',
      'http://',
    ]);
  });

  it('filters by kind, status class (304 a 3xx; none and nonsense codes errors), new and a search', async () => {
    expect(await urls({ kind: 'external' })).toEqual(['https://b.test/down', 'https://c.test/odd']);
    expect(await urls({ status: '5xx' })).toEqual(['https://b.test/down']);
    expect(await urls({ status: '3xx' })).toEqual(['https://a.test/moved']);
    expect(await urls({ status: 'error', sort: 'target' })).toEqual(['http://', 'https://c.test/odd']);
    expect(await urls({ change: 'new', kind: 'internal', sort: 'target' })).toEqual([
      'http://',
      'https://a.test/moved',
      'https://a.test/old',
    ]);
    // The search matches the target or a linking page, case-insensitively; % and _ are literal.
    expect(await urls({ q: 'A.TEST/Y', sort: 'target' })).toEqual(['http://', 'https://a.test/gone']);
    expect(await urls({ q: '%' })).toEqual([]);
    const filtered = await list({ kind: 'internal', status: '4xx' });
    expect(filtered.matching).toEqual({ targets: 2, rows: 4 });
  });

  it('pages by keyset under every sort and order: each target exactly once, in the order of one page', async () => {
    for (const sort of BROKEN_TARGET_SORTS) {
      for (const order of ['asc', 'desc'] as const) {
        const whole = await urls({ sort, order });
        const paged: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await list({ sort, order, limit: 2, cursor });
          expect(page.matching.targets).toBe(6);
          paged.push(...page.targets.map((t) => t.target_url));
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
        expect(paged, `${sort} ${order}`).toEqual(whole);
      }
    }
  });

  it('writes every linking page of the matching targets for the CSV, in the same order', async () => {
    const whole = await matchingBrokenTargets(db, principal, { siteId, runId: undefined }, {});
    expect(whole.targets.map((t) => t.target_url)).toEqual(await urls({}));
    expect(whole.targets[0]!.allSources.map((s) => s.source_url)).toEqual([
      'https://a.test/',
      'https://a.test/x',
      'https://a.test/y',
    ]);
  });

  it('reads the default order from the counts finalization stores as it does by grouping every row', async () => {
    const latestId = runIds.at(-1)!;
    const pagedBy = async (limit: number) => {
      const pages = [];
      let cursor: string | undefined;
      do {
        const page = await list({ limit, cursor });
        pages.push({ ...page, nextCursor: page.nextCursor === null ? null : 'more' });
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return pages;
    };
    // Grouped: these rows were stored without their targets' counts, as rows before migration 0038 were.
    const grouped = { whole: await list(), paged: await pagedBy(2) };
    // What finalization writes: each row's target's count of linking pages, and the run's headline.
    await db.execute(sql`update broken_links b set linking_pages = c.n
      from (select target_url, count(*)::integer as n from broken_links where run_id = ${latestId}::uuid group by 1) c
      where b.run_id = ${latestId}::uuid and b.target_url = c.target_url`);
    const { broken_count, pages_with_broken_count, internal_broken, external_broken } = grouped.whole.run;
    await db
      .update(schema.runs)
      .set({ broken_count, pages_with_broken_count, internal_broken, external_broken })
      .where(eq(schema.runs.id, latestId));
    try {
      expect(await list()).toEqual(grouped.whole);
      expect(await pagedBy(2)).toEqual(grouped.paged);
      // Filters and other orders are grouped as before, over the same rows.
      expect(await urls({ kind: 'external' })).toEqual(['https://b.test/down', 'https://c.test/odd']);
      expect((await list({ order: 'asc' })).targets.at(-1)?.target_url).toBe('https://a.test/gone');
    } finally {
      await db.execute(sql`update broken_links set linking_pages = null where run_id = ${latestId}::uuid`);
    }
  });

  it("applies the site's current excludePaths to the targets, their pages, the counts and the comparison", async () => {
    await db
      .update(schema.sites)
      .set({ exclude_paths: ['/y', '/old'] })
      .where(eq(schema.sites.id, siteId));
    try {
      const page = await list();
      // /old is an excluded internal target; http:// was linked only from /y.
      expect(page.targets.map((t) => [t.target_url, t.linking_pages])).toEqual([
        ['https://a.test/gone', 2],
        ['https://a.test/moved', 1],
        ['https://b.test/down', 1],
        ['https://c.test/odd', 1],
      ]);
      expect(page.matching).toEqual({ targets: 4, rows: 5 });
      const report = await getBrokenLinkReport(db, principal, { siteId });
      expect(page.run).toEqual(report.run);
      expect(page.sincePreviousRun).toEqual(report.sincePreviousRun);
      expect(page.sincePreviousRun).toMatchObject({
        newTargets: ['https://a.test/moved', 'https://b.test/down', 'https://c.test/odd'],
        newTargetCount: 3,
      });
      expect(await urls({ q: 'a.test/y' })).toEqual([]);
    } finally {
      await db.update(schema.sites).set({ exclude_paths: [] }).where(eq(schema.sites.id, siteId));
    }
  });

  it('bounds the targets new and fixed since the previous run, counts them exactly, and reads what finalization stored', async () => {
    const other = await insertSite(db, principal.tenantId, 'big.test');
    const target = (path: string, i: number) => `https://big.test/${path}/${String(i).padStart(5, '0')}`;
    const gone = Array.from({ length: MAX_LISTED_CHANGES + 100 }, (_, i) => target('gone', i));
    const added = Array.from({ length: MAX_LISTED_CHANGES + 50 }, (_, i) => target('new', i));
    const kept = 'https://big.test/kept';
    const previous = await storeCrawl(
      2,
      [...gone, kept].map((t) => row(t, 'https://big.test/')),
      other,
    );
    const current = await storeCrawl(
      1,
      [...added, kept].map((t) => row(t, 'https://big.test/')),
      other,
    );
    const expected = {
      previousRunId: previous,
      newTargets: added.slice(0, MAX_LISTED_CHANGES),
      fixedTargets: gone.slice(0, MAX_LISTED_CHANGES),
      newTargetCount: added.length,
      fixedTargetCount: gone.length,
    };
    const read = async () =>
      (await listBrokenTargets(db, principal, { siteId: other, runId: undefined }, {})).sincePreviousRun;
    expect(await read()).toEqual(expected);
    // The dashboard says each cut list is cut, and how: how many of how many, in which order.
    const shown = renderToStaticMarkup(
      createElement(RunChanges<string>, {
        what: 'broken targets',
        previousRunId: previous,
        added: expected.newTargets,
        fixed: expected.fixedTargets,
        addedCount: expected.newTargetCount,
        fixedCount: expected.fixedTargetCount,
        item: (url: string) => ({ key: url, node: url }),
      }),
    );
    expect(shown).toContain('1,050 new</strong> and <strong class="font-semibold text-zinc-900">1,100 fixed');
    expect(shown).toContain('The first 1,000 of 1,050, in URL order.');
    expect(shown).toContain('The first 1,000 of 1,100, in URL order.');
    // The full report and a filtered page carry the same comparison.
    expect((await getBrokenLinkReport(db, principal, { siteId: other })).sincePreviousRun).toEqual(expected);

    // What finalization stores (run_changes) is the same difference, and the reports read it
    // instead of differencing the runs again: with the previous run's rows gone, it still says what
    // was fixed against that run.
    const [run] = await db.select().from(schema.runs).where(eq(schema.runs.id, current));
    await storeRunChanges(db, run!, { seo: false });
    const [stored] = await db.select().from(schema.runChanges).where(eq(schema.runChanges.run_id, current));
    expect(stored).toEqual({
      run_id: current,
      tenant_id: principal.tenantId,
      seo: null,
      broken: {
        previousRunId: previous,
        newCount: added.length,
        fixedCount: gone.length,
        newTargets: expected.newTargets,
        fixedTargets: expected.fixedTargets,
      },
    });
    // Exclusions that hide rows apply to both sides, differenced on read: nothing new is left.
    await db
      .update(schema.sites)
      .set({ exclude_paths: ['/new/**'] })
      .where(eq(schema.sites.id, other));
    try {
      expect(await read()).toEqual({ ...expected, newTargets: [], newTargetCount: 0 });
    } finally {
      await db.update(schema.sites).set({ exclude_paths: [] }).where(eq(schema.sites.id, other));
    }
    await db.delete(schema.brokenLinks).where(eq(schema.brokenLinks.run_id, previous));
    expect(await read()).toEqual(expected);
  });
});
