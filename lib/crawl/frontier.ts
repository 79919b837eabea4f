import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';

/**
 * The crawl frontier in Postgres (table crawl_urls, edges in crawl_links). Every operation is
 * written so a batch can be processed twice without changing the outcome:
 * - URLs and edges are inserted with ON CONFLICT DO NOTHING (the first discovery wins);
 * - a lease is a (state 'leased', attempts) pair; results are written only by the holder of the
 *   current lease (`attempts` matches), so a worker whose lease expired and was re-leased cannot
 *   overwrite or double count the newer worker's result;
 * - leases are taken with FOR UPDATE SKIP LOCKED, so any number of workers can share a run.
 */

/** Longer URLs are skipped: btree index entries must stay well under Postgres' ~2.7 kB limit. */
export const MAX_URL_LENGTH = 2000;
/** Rows per multi-row statement: far below the 65,535 bind parameter limit. */
const CHUNK = 500;

export type UrlKind = 'internal' | 'external';

export interface NewFrontierUrl {
  url: string;
  kind: UrlKind;
  depth: number;
  foundOn: string | null;
  isAsset: boolean;
}

export interface LinkEdge {
  sourceUrl: string;
  targetUrl: string;
  text: string | null;
  selector: string | null;
  attrs: string | null;
}

export interface LeasedUrl {
  url: string;
  kind: UrlKind;
  depth: number;
  isAsset: boolean;
  /** The lease: the attempt number this worker holds. */
  token: number;
}

/** A finished URL. `verdict` 'skipped' means never fetched (e.g. beyond maxPages). */
export interface UrlResult {
  url: string;
  token: number;
  verdict: 'ok' | 'broken' | 'error' | 'unverifiable' | 'skipped';
  statusCode: number | null;
  redirectChain: string | null;
  detail: string | null;
  seoFacts: unknown | null;
  isPage: boolean;
}

export interface CompletedUrl {
  url: string;
  kind: UrlKind;
  verdict: UrlResult['verdict'];
  isPage: boolean;
}

type Row = Record<string, unknown>;

async function rows<T = Row>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export async function enqueueUrls(db: Db, runId: string, urls: readonly NewFrontierUrl[]): Promise<void> {
  for (const chunk of chunks(urls)) {
    const values = sql.join(
      chunk.map(
        (u) =>
          sql`(${runId}::uuid, ${u.url}, ${u.kind}, ${u.depth}::int, ${u.foundOn}, ${u.isAsset ? 1 : 0}::int)`,
      ),
      sql`, `,
    );
    await db.execute(
      sql`insert into crawl_urls (run_id, url, kind, depth, found_on, is_asset) values ${values} on conflict do nothing`,
    );
  }
}

export async function insertEdges(db: Db, runId: string, edges: readonly LinkEdge[]): Promise<void> {
  for (const chunk of chunks(edges)) {
    const values = sql.join(
      chunk.map(
        (e) => sql`(${runId}::uuid, ${e.sourceUrl}, ${e.targetUrl}, ${e.text}, ${e.selector}, ${e.attrs})`,
      ),
      sql`, `,
    );
    await db.execute(
      sql`insert into crawl_links (run_id, source_url, target_url, link_text, link_selector, link_attrs) values ${values} on conflict do nothing`,
    );
  }
}

/** A page reached through an on-site redirect, recorded under its own URL if nobody has it yet. */
export interface RedirectedPage {
  url: string;
  depth: number;
  foundOn: string;
  statusCode: number;
  seoFacts: unknown | null;
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
    const values = sql.join(
      chunk.map(
        (p) =>
          sql`(${runId}::uuid, ${p.url}, 'internal', ${p.depth}::int, ${p.foundOn}, 'done', 'ok', ${p.statusCode}::int, ${
            p.seoFacts === null ? null : JSON.stringify(p.seoFacts)
          }::jsonb, 1)`,
      ),
      sql`, `,
    );
    const inserted = await rows<{ url: string }>(
      db,
      sql`insert into crawl_urls (run_id, url, kind, depth, found_on, state, verdict, status_code, seo_facts, is_page)
          values ${values} on conflict do nothing returning url`,
    );
    for (const r of inserted) claimed.add(r.url);
  }
  return claimed;
}

/** Returns URLs whose lease expired (their worker died or gave up) to the pending pool. */
export async function reclaimExpiredLeases(db: Db, runId: string, now: number): Promise<number> {
  const reclaimed = await rows(
    db,
    sql`update crawl_urls set state = 'pending', lease_expires_at = null
        where run_id = ${runId}::uuid and state = 'leased' and lease_expires_at <= ${now}::bigint
        returning url`,
  );
  return reclaimed.length;
}

/** Leases up to `limit` pending URLs of one kind, oldest discovery first (breadth-first). */
export async function leaseUrls(
  db: Db,
  runId: string,
  kind: UrlKind,
  limit: number,
  leaseUntil: number,
): Promise<LeasedUrl[]> {
  if (limit <= 0) return [];
  const leased = await rows<{ url: string; depth: number; is_asset: number; attempts: number }>(
    db,
    sql`update crawl_urls c set state = 'leased', lease_expires_at = ${leaseUntil}::bigint, attempts = c.attempts + 1
        from (
          select url from crawl_urls
          where run_id = ${runId}::uuid and kind = ${kind} and state = 'pending'
          order by seq
          limit ${limit}::int
          for update skip locked
        ) p
        where c.run_id = ${runId}::uuid and c.url = p.url
        returning c.url, c.depth, c.is_asset, c.attempts`,
  );
  return leased.map((r) => ({
    url: r.url,
    kind,
    depth: Number(r.depth),
    isAsset: Number(r.is_asset) === 1,
    token: Number(r.attempts),
  }));
}

/** Gives leased URLs back unworked (the step ran out of time before starting them). */
export async function releaseLeases(db: Db, runId: string, leases: readonly LeasedUrl[]): Promise<void> {
  for (const chunk of chunks(leases)) {
    const values = sql.join(
      chunk.map((l) => sql`(${l.url}, ${l.token}::int)`),
      sql`, `,
    );
    await db.execute(
      sql`update crawl_urls c set state = 'pending', lease_expires_at = null
          from (values ${values}) as v(url, token)
          where c.run_id = ${runId}::uuid and c.url = v.url and c.state = 'leased' and c.attempts = v.token`,
    );
  }
}

/**
 * Keeps URLs leased until `until` (a 429's Retry-After, a transient failure's back-off): when the
 * lease expires they return to the pool and are tried again, by this worker or another.
 */
export async function deferLeases(
  db: Db,
  runId: string,
  deferred: readonly { url: string; token: number; until: number }[],
): Promise<void> {
  for (const chunk of chunks(deferred)) {
    const values = sql.join(
      chunk.map((d) => sql`(${d.url}, ${d.token}::int, ${d.until}::bigint)`),
      sql`, `,
    );
    await db.execute(
      sql`update crawl_urls c set lease_expires_at = v.until
          from (values ${values}) as v(url, token, until)
          where c.run_id = ${runId}::uuid and c.url = v.url and c.state = 'leased' and c.attempts = v.token`,
    );
  }
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
    const values = sql.join(
      chunk.map(
        (r) =>
          sql`(${r.url}, ${r.token}::int, ${r.verdict}, ${r.statusCode}::int, ${r.redirectChain}, ${r.detail}, ${
            r.seoFacts === null ? null : JSON.stringify(r.seoFacts)
          }::jsonb, ${r.isPage ? 1 : 0}::int)`,
      ),
      sql`, `,
    );
    const done = await rows<{ url: string; kind: UrlKind; verdict: UrlResult['verdict']; is_page: number }>(
      db,
      sql`update crawl_urls c set state = 'done', lease_expires_at = null, verdict = v.verdict,
            status_code = v.status_code, redirect_chain = v.redirect_chain, detail = v.detail,
            seo_facts = v.seo_facts, is_page = v.is_page
          from (values ${values}) as v(url, token, verdict, status_code, redirect_chain, detail, seo_facts, is_page)
          where c.run_id = ${runId}::uuid and c.url = v.url and c.state = 'leased' and c.attempts = v.token
          returning c.url, c.kind, c.verdict, c.is_page`,
    );
    for (const r of done)
      completed.push({ url: r.url, kind: r.kind, verdict: r.verdict, isPage: Number(r.is_page) === 1 });
  }
  return completed;
}

/**
 * Marks every pending URL of a kind as done without fetching it: the page cap (maxPages or the
 * monthly allowance) was reached, or the crawl cannot continue (root URL failed).
 */
export async function skipPending(
  db: Db,
  runId: string,
  kind: UrlKind | 'all',
  detail: string,
): Promise<number> {
  const kindFilter = kind === 'all' ? sql`` : sql` and kind = ${kind}`;
  const skipped = await rows(
    db,
    sql`update crawl_urls set state = 'done', verdict = 'skipped', detail = ${detail}, lease_expires_at = null
        where run_id = ${runId}::uuid and state = 'pending'${kindFilter}
        returning url`,
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
  const [row] = await rows<{
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
