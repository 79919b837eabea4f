import { sql } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import type { StoredRedirectHop } from '@/lib/db/schema';
import type { RunResource } from '@/lib/sites/resource';
import type { BrokenTargetSource } from './broken-targets';
import { type CrawledUrlResource, listCrawledUrls } from './pages';
import { type RedirectHopResource, redirectHops } from './redirect-chain';

export const DEFAULT_REDIRECTS_PAGE = 50;
export const MAX_REDIRECTS_PAGE = 200;
/** Linking pages listed with each redirect; `inlinks` counts them all (the URL view lists them all). */
export const LINKING_PAGES_PER_REDIRECT = 5;
export const REDIRECT_SORTS = ['inlinks', 'url'] as const;

export interface RedirectsQuery {
  limit?: number;
  cursor?: string;
  /** Case-insensitive substring of the redirecting URL or its title. */
  q?: string;
  kind?: 'internal' | 'external';
  /** Default `inlinks` descending: the redirects most pages link to first. */
  sort?: (typeof REDIRECT_SORTS)[number];
  order?: 'asc' | 'desc';
}

/** A URL that answered with a redirect: where it leads, how it ends, who links to it. */
export interface RedirectResource
  extends Pick<
    CrawledUrlResource,
    'url' | 'kind' | 'status_code' | 'final_status_code' | 'verdict' | 'detail' | 'inlinks' | 'found_on'
  > {
  /** Where the chain ends: the last hop's URL (null when there is only the first answer). */
  final_url: string | null;
  /** Every response in order, the URL's own first; the final response last. */
  hops: RedirectHopResource[];
  /** The first pages linking to the URL, by URL; at most LINKING_PAGES_PER_REDIRECT. */
  linking_pages: BrokenTargetSource[];
}

export interface RedirectPage {
  run: RunResource;
  redirects: RedirectResource[];
  nextCursor: string | null;
}

/**
 * GET /v1/sites/{id}/redirects: every URL of the latest crawl whose own answer was a redirect (3xx),
 * internal and external, with its whole chain, how it ended, how many crawled pages link to it and
 * the first of them. The list is the pages list's `status=3xx` (same keyset cursor, filters and 404
 * once the run's URLs are no longer stored); the chains and linking pages are read for the rows
 * shown only, the latter in one pass over the run's stored links.
 */
export async function listRedirects(
  db: Db,
  principal: Principal,
  { siteId, runId }: { siteId: string; runId: string | undefined },
  query: RedirectsQuery,
): Promise<RedirectPage> {
  const sort = query.sort ?? 'inlinks';
  const page = await listCrawledUrls(
    db,
    principal,
    { siteId, runId },
    {
      status: '3xx',
      limit: query.limit ?? DEFAULT_REDIRECTS_PAGE,
      cursor: query.cursor,
      q: query.q,
      kind: query.kind,
      sort,
      order: query.order ?? (query.sort ? 'asc' : 'desc'),
    },
  );
  const urls = page.pages.map((p) => p.url);
  const [chains, linking] = await Promise.all([
    chainsOf(db, page.run.id, urls),
    linkingPagesOf(db, page.run.id, urls, LINKING_PAGES_PER_REDIRECT),
  ]);
  return {
    run: page.run,
    redirects: page.pages.map((p) => {
      const hops = chains.get(p.url) ?? [];
      return {
        url: p.url,
        kind: p.kind,
        status_code: p.status_code,
        final_status_code: p.final_status_code,
        verdict: p.verdict,
        detail: p.detail,
        inlinks: p.inlinks,
        found_on: p.found_on,
        final_url: hops.length > 1 ? hops.at(-1)!.url : null,
        hops,
        linking_pages: linking.get(p.url) ?? [],
      };
    }),
    nextCursor: page.nextCursor,
  };
}

async function chainsOf(db: Db, runId: string, urls: string[]): Promise<Map<string, RedirectHopResource[]>> {
  if (urls.length === 0) return new Map();
  const rows = await queryRows<{ url: string; redirect_chain: StoredRedirectHop[] | null }>(
    db,
    sql`select url, redirect_chain from crawl_urls
        where run_id = ${runId}::uuid and url in (${sql.join(
          urls.map((u) => sql`${u}`),
          sql`, `,
        )})`,
  );
  return new Map(rows.map((row) => [row.url, redirectHops(row.redirect_chain)]));
}

/**
 * The first `perTarget` pages (by URL) linking to each of `targets`, with the link's text and
 * selector: one pass over the run's stored links, hashed against the targets.
 */
export async function linkingPagesOf(
  db: Db,
  runId: string,
  targets: string[],
  perTarget: number,
): Promise<Map<string, BrokenTargetSource[]>> {
  if (targets.length === 0) return new Map();
  const rows = await queryRows<BrokenTargetSource & { target_url: string }>(
    db,
    sql`select target_url, source_url, link_text, link_selector from (
          select l.link ->> 0 as target_url, p.url as source_url, l.link ->> 1 as link_text,
                 l.link ->> 2 as link_selector,
                 row_number() over (partition by l.link ->> 0 order by p.url) as n
          from crawl_urls p cross join lateral jsonb_array_elements(p.links) as l(link)
          where p.run_id = ${runId}::uuid and p.links is not null
            and l.link ->> 0 in (${sql.join(
              targets.map((u) => sql`${u}`),
              sql`, `,
            )})) ranked
        where n <= ${perTarget}
        order by target_url, source_url`,
  );
  const byTarget = new Map<string, BrokenTargetSource[]>();
  for (const { target_url, ...source } of rows) {
    const list = byTarget.get(target_url) ?? [];
    list.push(source);
    byTarget.set(target_url, list);
  }
  return byTarget;
}
