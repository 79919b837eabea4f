import { type SQL, sql } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import { linkTargets, type StoredRedirectHop } from '@/lib/db/schema';
import { NotFoundError } from '@/lib/errors';
import { isSeoCheckId, type SeoCheckId, type SeoImpact, seoCheck } from '@/lib/seo/checks';
import { getVisibleSite } from '@/lib/sites/access';
import { type RunResource, runResource } from '@/lib/sites/resource';
import type { BrokenTargetSource } from './broken-targets';
import { decodeCursor, encodeCursor } from './cursor';
import { reportRun } from './history';
import { type CrawledUrlResource, crawledUrlResource, listed } from './pages';
import { type RedirectHopResource, redirectHops } from './redirect-chain';

export const DEFAULT_INLINKS_PAGE = 100;
export const MAX_INLINKS_PAGE = 500;

export interface UrlDetailQuery {
  url: string;
  inlinksLimit?: number;
  inlinksCursor?: string;
}

/** One link on the page, with what the crawl learned of its target. */
export interface OutlinkResource {
  target_url: string;
  link_text: string | null;
  link_selector: string | null;
  /** Null when the target was never entered in the crawl (e.g. an excluded path or robots.txt). */
  kind: 'internal' | 'external' | null;
  status_code: number | null;
  final_status_code: number | null;
  verdict: CrawledUrlResource['verdict'];
}

export interface PageSeoIssue {
  check: SeoCheckId;
  title: string;
  impact: SeoImpact;
  detail: string;
}

export interface UrlDetail {
  run: RunResource;
  page: CrawledUrlResource;
  /** The URL's redirect chain, its own answer first; empty when it did not redirect. */
  hops: RedirectHopResource[];
  /** Crawled pages linking to the URL, by URL, a page at a time. */
  inlinks: BrokenTargetSource[];
  inlinksNextCursor: string | null;
  /** The links on the page in document order (empty unless it was parsed as a page). */
  outlinks: OutlinkResource[];
  /** The run's SEO issues on this page, most severe first. */
  seoIssues: PageSeoIssue[];
}

const IMPACT_ORDER: Record<SeoImpact, number> = { critical: 0, serious: 1, moderate: 2, minor: 3 };

/**
 * GET /v1/sites/{id}/url-details?url=: one URL of the latest crawl (or of `runId`, while its URLs
 * are stored) as the pages list shows it, with its redirect chain, the crawled pages linking to it
 * (anchor text and selector; paged by source URL), the links on it with their targets' outcome, and
 * its SEO issues. The inlinks are found by containment in the pages' link targets (an index lookup on
 * a finished run), read in URL order so a page of them stops early for a much-linked URL.
 */
export async function getUrlDetail(
  db: Db,
  principal: Principal,
  { siteId, runId }: { siteId: string; runId: string | undefined },
  query: UrlDetailQuery,
): Promise<UrlDetail> {
  const site = await getVisibleSite(db, principal, siteId);
  const run = await reportRun(db, site, runId);
  const [row] = await queryRows<CrawledUrlResource & { redirect_chain: StoredRedirectHop[] | null }>(
    db,
    sql`select l.*, u.redirect_chain from (${listed(run.id)}) l
        join crawl_urls u on u.run_id = ${run.id}::uuid and u.url = l.url
        where l.url = ${query.url}`,
  );
  if (!row) {
    const [kept] = await queryRows(db, sql`select 1 from crawl_urls where run_id = ${run.id}::uuid limit 1`);
    throw new NotFoundError(
      kept
        ? 'url: this crawl did not find that URL'
        : 'the crawled URLs of this run are no longer stored: only the latest completed crawl keeps them',
    );
  }

  // Finalization counts every row's inlinks at once, so this row says whether the run's rows are in
  // the link-target index (a finished run's are; a running crawl's, or one finished before inlinks
  // were counted, are found by reading the run's pages).
  const counted = row.inlinks !== null;
  const limit = query.inlinksLimit ?? DEFAULT_INLINKS_PAGE;
  const after =
    query.inlinksCursor === undefined
      ? null
      : decodeCursor(
          query.inlinksCursor,
          (k): k is [string] => k.length === 1 && typeof k[0] === 'string',
        )[0];
  const [inlinks, outlinks, seoIssues] = await Promise.all([
    linkingPages(db, run.id, query.url, { inlinks: counted ? Number(row.inlinks) : null, after, limit }),
    queryRows<OutlinkResource>(
      db,
      sql`select l.link ->> 0 as target_url, l.link ->> 1 as link_text, l.link ->> 2 as link_selector,
                 t.kind, t.status_code, t.final_status_code, t.verdict
          from crawl_urls p
          cross join lateral jsonb_array_elements(p.links) with ordinality as l(link, position)
          left join (${listed(run.id)}) t on t.url = l.link ->> 0
          where p.run_id = ${run.id}::uuid and p.url = ${query.url} and p.links is not null
          order by l.position`,
    ),
    pageSeoIssues(db, run.tenant_id, run.id, query.url),
  ]);
  const shown = inlinks.slice(0, limit);
  return {
    run: runResource(run),
    page: crawledUrlResource(row),
    hops: redirectHops(row.redirect_chain),
    inlinks: shown,
    inlinksNextCursor: inlinks.length > limit ? encodeCursor([shown.at(-1)!.source_url]) : null,
    outlinks: outlinks.map((o) => ({
      ...o,
      kind: o.kind ?? null,
      status_code: o.status_code === null ? null : Number(o.status_code),
      final_status_code: o.final_status_code === null ? null : Number(o.final_status_code),
      verdict: o.verdict ?? null,
    })),
    seoIssues,
  };
}

/**
 * A URL linked from at most this many pages has its linking pages found in the link-target index
 * and then sorted; one linked from more is found by walking the run's pages in URL order until a page
 * of them is found (about 100 / its share of the pages read). The planner cannot tell them apart (it
 * guesses every URL's share alike): on a 1,000,000-page run it walked for a URL linked from a few
 * pages (5.9 s) and sorted all million pages linking to a URL in every page's navigation (2.1 s).
 */
const INDEXED_INLINKS_MAX = 5_000;

/** A page of the run's pages linking to `url`, after `after` in URL order (one more: is there a next?). */
async function linkingPages(
  db: Db,
  runId: string,
  url: string,
  { inlinks, after, limit }: { inlinks: number | null; after: string | null; limit: number },
): Promise<BrokenTargetSource[]> {
  const page = after === null ? sql`` : sql`and p.url > ${after}`;
  const linksTo = sql`${linkTargets} @> jsonb_build_array(${url}::text)`;
  const select = (sources: SQL) =>
    sql`with sources as ${sources}
        select s.url as source_url, l.link ->> 1 as link_text, l.link ->> 2 as link_selector
        from sources s cross join lateral jsonb_array_elements(s.links) as l(link)
        where l.link ->> 0 = ${url}
        order by s.url
        limit ${limit + 1}`;
  if (inlinks !== null && inlinks <= INDEXED_INLINKS_MAX) {
    // MATERIALIZED: the index finds them all, and only then are they sorted.
    return queryRows<BrokenTargetSource>(
      db,
      select(sql`materialized (select p.url, p.links from crawl_urls p
                  where p.run_id = ${runId}::uuid and ${linksTo} and p.inlinks is not null ${page})`),
    );
  }
  // Many, or not counted (a running crawl's rows are not in the indexes): the walk in URL order, with
  // sorting priced out for this one statement so the planner cannot sort them all instead. Counted,
  // it walks the pages with links alone (crawl_urls_linking_pages_idx).
  const indexed = inlinks === null ? sql`` : sql`and p.inlinks is not null and p.links is not null`;
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_sort = off`);
    return queryRows<BrokenTargetSource>(
      tx,
      select(sql`not materialized (select p.url, p.links from crawl_urls p
                  where p.run_id = ${runId}::uuid and ${linksTo} ${indexed} ${page})`),
    );
  });
}

/** The run's stored SEO issues on one page, most severe first, then by check. */
async function pageSeoIssues(
  db: Db,
  tenantId: string,
  runId: string,
  pageUrl: string,
): Promise<PageSeoIssue[]> {
  const rows = await queryRows<{ check_id: string; detail: string }>(
    db,
    sql`select e ->> 0 as check_id, e ->> 3 as detail
        from seo_reports r cross join lateral jsonb_array_elements(r.issues) as e
        where r.tenant_id = ${tenantId} and r.run_id = ${runId}::uuid
          and (r.first_page_url is null or ${pageUrl} between r.first_page_url and r.last_page_url)
          and e ->> 2 = ${pageUrl}`,
  );
  return rows
    .flatMap((row): PageSeoIssue[] => {
      if (!isSeoCheckId(row.check_id)) return [];
      const { title, impact } = seoCheck(row.check_id);
      return [{ check: row.check_id, title, impact, detail: row.detail }];
    })
    .sort((a, b) => IMPACT_ORDER[a.impact] - IMPACT_ORDER[b.impact] || (a.check < b.check ? -1 : 1));
}
