import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import type { PageLink, StoredRedirectHop } from '@/lib/db/schema';

/**
 * The crawl frontier in Postgres (table crawl_urls; a crawled page's links are stored on its row).
 * Every operation is written so a batch can be processed twice without changing the outcome:
 * - URLs are inserted with ON CONFLICT DO NOTHING (the first discovery wins);
 * - a lease is a (state 'leased', attempts) pair; results are written only by the holder of the
 *   current lease (`attempts` matches), so a worker whose lease expired and was re-leased cannot
 *   overwrite or double count the newer worker's result;
 * - leases are taken with FOR UPDATE SKIP LOCKED, so any number of workers can share a run.
 *
 * Batches travel as one JSON parameter expanded by `jsonb_to_recordset`: a statement of a thousand
 * rows costs one bind parameter, not thousands, and no per-row query building.
 */

/** Longer URLs are skipped: btree index entries must stay well under Postgres' ~2.7 kB limit. */
export const MAX_URL_LENGTH = 2000;
/** Rows per statement: keeps single statements (and their JSON parameter) moderate in size. */
const CHUNK = 2000;
/**
 * Lost leases after which a URL is given up. One loss can be bad luck (a deploy, another URL's
 * crash taking the process down); the second, with the URL worked alone (leaseSuspect), means
 * handling it stops the crawler, and a third try would only loop the crash.
 */
export const MAX_LOST_LEASES = 2;
export const UNPROCESSABLE_DETAIL =
  'could not be processed: the crawler stopped twice while handling this URL, so it was not tried again';

export type UrlKind = 'internal' | 'external';

export interface NewFrontierUrl {
  url: string;
  kind: UrlKind;
  depth: number;
  foundOn: string | null;
  isAsset: boolean;
}

export interface LeasedUrl {
  url: string;
  kind: UrlKind;
  depth: number;
  isAsset: boolean;
  /** The lease: the attempt number this worker holds. */
  token: number;
  /** The URL's place in its queue (discovery order): where the next lease may start after it. */
  seq: number;
}

/** A finished URL. `verdict` 'skipped' means never fetched (e.g. beyond maxPages). */
export interface UrlResult {
  url: string;
  token: number;
  verdict: 'ok' | 'broken' | 'error' | 'unverifiable' | 'skipped';
  statusCode: number | null;
  redirectChain: StoredRedirectHop[] | null;
  detail: string | null;
  contentType: string | null;
  responseMs: number | null;
  seoFacts: unknown | null;
  isPage: boolean;
  /** The page's outgoing links (crawled pages only). */
  links: PageLink[] | null;
}

export interface CompletedUrl {
  url: string;
  kind: UrlKind;
  verdict: UrlResult['verdict'];
  isPage: boolean;
}

export function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export const jsonbParam = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;

/**
 * Inserts URLs not in the frontier yet; returns how many were new. With `skippedDetail` they are
 * recorded as never checked (a cap was reached), so they are never leased.
 */
export async function enqueueUrls(
  db: Db,
  runId: string,
  urls: readonly NewFrontierUrl[],
  options: { skippedDetail?: string } = {},
): Promise<number> {
  const skipped = options.skippedDetail !== undefined;
  let inserted = 0;
  for (const chunk of chunks(urls)) {
    const records = chunk.map((u) => ({
      url: u.url,
      kind: u.kind,
      depth: u.depth,
      found_on: u.foundOn,
      is_asset: u.isAsset ? 1 : 0,
    }));
    const rows = await queryRows(
      db,
      sql`insert into crawl_urls (run_id, url, kind, depth, found_on, is_asset, state, verdict, detail)
          select ${runId}::uuid, x.url, x.kind, x.depth, x.found_on, x.is_asset,
            ${skipped ? 'done' : 'pending'}::text, ${skipped ? 'skipped' : null}::text, ${options.skippedDetail ?? null}::text
          from jsonb_to_recordset(${jsonbParam(records)}) as x(url text, kind text, depth int, found_on text, is_asset int)
          on conflict do nothing
          returning url`,
    );
    inserted += rows.length;
  }
  return inserted;
}

/** How many URLs of a kind the run's frontier holds. */
export async function countUrls(db: Db, runId: string, kind: UrlKind): Promise<number> {
  const [row] = await queryRows<{ n: string | number }>(
    db,
    sql`select count(*) as n from crawl_urls where run_id = ${runId}::uuid and kind = ${kind}`,
  );
  return Number(row?.n ?? 0);
}

/** A page reached through an on-site redirect, recorded under its own URL if nobody has it yet. */
export interface RedirectedPage {
  url: string;
  depth: number;
  foundOn: string;
  statusCode: number;
  contentType: string | null;
  responseMs: number | null;
  seoFacts: unknown | null;
  links: PageLink[];
}

/**
 * Records redirect targets as crawled pages, unless the frontier already has them (then they are
 * or were fetched on their own and this copy is dropped). Returns the URLs recorded by this call.
 */
export async function claimRedirectedPages(
  db: Db,
  runId: string,
  pages: readonly RedirectedPage[],
): Promise<Set<string>> {
  const claimed = new Set<string>();
  for (const chunk of chunks(pages)) {
    const records = chunk.map((p) => ({
      url: p.url,
      depth: p.depth,
      found_on: p.foundOn,
      status_code: p.statusCode,
      content_type: p.contentType,
      response_ms: p.responseMs,
      seo_facts: p.seoFacts,
      links: p.links,
    }));
    const inserted = await queryRows<{ url: string }>(
      db,
      sql`insert into crawl_urls (run_id, url, kind, depth, found_on, state, verdict, status_code, content_type,
            response_ms, seo_facts, links, is_page)
          select ${runId}::uuid, x.url, 'internal', x.depth, x.found_on, 'done', 'ok', x.status_code, x.content_type,
            x.response_ms, x.seo_facts, x.links, 1
          from jsonb_to_recordset(${jsonbParam(records)})
            as x(url text, depth int, found_on text, status_code int, content_type text, response_ms int,
              seo_facts jsonb, links jsonb)
          on conflict do nothing
          returning url`,
    );
    for (const r of inserted) claimed.add(r.url);
  }
  return claimed;
}

/**
 * Writes results for URLs this worker still holds. Returns the rows actually completed, which are
 * the only ones the caller may count: a result for a lost lease changes nothing.
 */
export async function completeUrls(
  db: Db,
  runId: string,
  results: readonly UrlResult[],
): Promise<CompletedUrl[]> {
  const completed: CompletedUrl[] = [];
  for (const chunk of chunks(results)) {
    const records = chunk.map((r) => ({
      url: r.url,
      token: r.token,
      verdict: r.verdict,
      status_code: r.statusCode,
      redirect_chain: r.redirectChain,
      detail: r.detail,
      content_type: r.contentType,
      response_ms: r.responseMs,
      seo_facts: r.seoFacts,
      links: r.links,
      is_page: r.isPage ? 1 : 0,
    }));
    const done = await queryRows<{
      url: string;
      kind: UrlKind;
      verdict: UrlResult['verdict'];
      is_page: number;
    }>(
      db,
      sql`update crawl_urls c set state = 'done', lease_expires_at = null, verdict = v.verdict,
            status_code = v.status_code, redirect_chain = v.redirect_chain, detail = v.detail,
            content_type = v.content_type, response_ms = v.response_ms,
            seo_facts = v.seo_facts, links = v.links, is_page = v.is_page
          from jsonb_to_recordset(${jsonbParam(records)}) as v(url text, token int, verdict text, status_code int,
            redirect_chain jsonb, detail text, content_type text, response_ms int, seo_facts jsonb, links jsonb,
            is_page int)
          where c.run_id = ${runId}::uuid and c.url = v.url and c.state = 'leased' and c.attempts = v.token
          returning c.url, c.kind, c.verdict, c.is_page`,
    );
    for (const r of done) {
      completed.push({ url: r.url, kind: r.kind, verdict: r.verdict, isPage: Number(r.is_page) === 1 });
    }
  }
  return completed;
}

/**
 * Marks every pending URL of a kind as done without fetching it: the crawl cannot continue (root
 * URL failed). The page cap is not such an end: see skipUnlinkedInternal.
 */
export async function skipPending(
  db: Db,
  runId: string,
  kind: UrlKind | 'all',
  detail: string,
): Promise<number> {
  const kindFilter = kind === 'all' ? sql`` : sql` and kind = ${kind}`;
  const skipped = await queryRows(
    db,
    sql`update crawl_urls set state = 'done', verdict = 'skipped', detail = ${detail}, lease_expires_at = null
        where run_id = ${runId}::uuid and state = 'pending'${kindFilter}
        returning url`,
  );
  return skipped.length;
}

/**
 * At the page cap: marks skipped the pending internal URLs that no crawled page links to (sitemap
 * URLs never reached). The rest are link targets of pages already crawled and still need a verdict.
 * Only seeded URLs (no `found_on`) can be unlinked: anything else was discovered on a parsed page.
 */
export async function skipUnlinkedInternal(
  db: Db,
  { runId, detail }: { runId: string; detail: string },
): Promise<number> {
  const skipped = await queryRows(
    db,
    // NOT EXISTS plans as a hash anti-join, which spills to disk on a big run; NOT IN over a
    // subquery too large for work_mem would rescan it for every candidate row.
    sql`update crawl_urls c set state = 'done', verdict = 'skipped', detail = ${detail}, lease_expires_at = null
        where c.run_id = ${runId}::uuid and c.kind = 'internal' and c.state = 'pending' and c.found_on is null
          and not exists (
            select 1 from crawl_urls p cross join lateral jsonb_array_elements(p.links) as l(link)
            where p.run_id = ${runId}::uuid and p.links is not null and l.link ->> 0 = c.url
          )
        returning c.url`,
  );
  return skipped.length;
}

export interface FrontierProgress {
  pending: number;
  leased: number;
  /** Earliest lease expiry among leased URLs (null when none is leased). */
  nextLeaseExpiry: number | null;
}

/** Pending and leased counts; both come from partial indexes, so this stays cheap on big runs. */
export async function frontierProgress(db: Db, runId: string): Promise<FrontierProgress> {
  const [row] = await queryRows<{
    pending: string | number;
    leased: string | number;
    next_expiry: string | number | null;
  }>(
    db,
    sql`select
          (select count(*) from crawl_urls where run_id = ${runId}::uuid and state = 'pending') as pending,
          (select count(*) from crawl_urls where run_id = ${runId}::uuid and state = 'leased') as leased,
          (select min(lease_expires_at) from crawl_urls where run_id = ${runId}::uuid and state = 'leased') as next_expiry`,
  );
  return {
    pending: Number(row?.pending ?? 0),
    leased: Number(row?.leased ?? 0),
    nextLeaseExpiry:
      row?.next_expiry === null || row?.next_expiry === undefined ? null : Number(row.next_expiry),
  };
}
