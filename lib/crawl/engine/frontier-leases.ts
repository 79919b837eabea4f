/**
 * Leases on the crawl frontier (see frontier.ts): taken with FOR UPDATE SKIP LOCKED, deferred, given
 * back unworked, and reclaimed when they expire, a URL whose worker died holding it worked alone.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import {
  chunks,
  jsonbParam,
  type LeasedUrl,
  MAX_LOST_LEASES,
  UNPROCESSABLE_DETAIL,
  type UrlKind,
} from './frontier';

export interface Reclaimed {
  /** URLs returned to the pending pool. */
  pending: number;
  /** URLs whose lease was lost for the last time: finished as errors (UNPROCESSABLE_DETAIL). */
  unprocessable: number;
}

/**
 * Returns URLs whose lease expired to the pending pool. A deferral's planned expiry costs nothing;
 * any other expiry is a lost lease (the worker crashed or hung while holding the URL), and at
 * MAX_LOST_LEASES the URL is finished as an error instead, so a page that kills the crawler cannot
 * be handed to it forever.
 */
export async function reclaimExpiredLeases(db: Db, runId: string, now: number): Promise<Reclaimed> {
  const lost = sql`deferred = 0 and lost_leases + 1 >= ${MAX_LOST_LEASES}::int`;
  const reclaimed = await queryRows<{ state: string }>(
    db,
    sql`update crawl_urls set
          lost_leases = lost_leases + 1 - deferred,
          state = case when ${lost} then 'done' else 'pending' end,
          verdict = case when ${lost} then 'error' else verdict end,
          detail = case when ${lost} then ${UNPROCESSABLE_DETAIL} else detail end,
          deferred = 0, lease_expires_at = null
        where run_id = ${runId}::uuid and state = 'leased' and lease_expires_at <= ${now}::bigint
        returning state`,
  );
  const unprocessable = reclaimed.filter((r) => r.state === 'done').length;
  return { pending: reclaimed.length - unprocessable, unprocessable };
}

/**
 * Leases up to `limit` pending URLs of one kind, oldest discovery first (breadth-first), after the
 * URL at `afterSeq` when given. URLs that lost a lease before are left to leaseSuspect.
 *
 * Why `afterSeq`: every URL leased leaves its entry in the pending index until a vacuum (the row's
 * old version), so a lease from the start walks past all of them: on a million-page run that is
 * thousands of index pages for every lease, late in the run. A worker starts where its last lease
 * ended (see CrawlStep.lease), and from the start once that finds too few.
 */
export async function leaseUrls(
  db: Db,
  runId: string,
  kind: UrlKind,
  limit: number,
  leaseUntil: number,
  afterSeq: number | null = null,
): Promise<LeasedUrl[]> {
  if (limit <= 0) return [];
  const after = afterSeq === null ? sql`` : sql`and seq > ${afterSeq}::int`;
  const leased = await queryRows<LeasedRow>(
    db,
    // MATERIALIZED: the picked rows are chosen exactly once. As a plain subquery joined in UPDATE ...
    // FROM, Postgres may re-scan it and, with SKIP LOCKED, pick more rows than the limit.
    sql`with picked as materialized (
          select url from crawl_urls
          where run_id = ${runId}::uuid and kind = ${kind} and state = 'pending' and lost_leases = 0 ${after}
          order by seq
          limit ${limit}::int
          for update skip locked
        )
        update crawl_urls c set state = 'leased', lease_expires_at = ${leaseUntil}::bigint, attempts = c.attempts + 1
        from picked p
        where c.run_id = ${runId}::uuid and c.url = p.url
        returning c.url, c.kind, c.depth, c.is_asset, c.attempts, c.seq`,
  );
  return leased.map(toLeased).sort((a, b) => a.seq - b.seq);
}

/**
 * Leases one URL whose worker died holding it, of either kind. The caller works it alone, holding
 * no other lease: if it kills the worker again, no other URL is charged with the loss.
 */
export async function leaseSuspect(db: Db, runId: string, leaseUntil: number): Promise<LeasedUrl | null> {
  const [leased] = await queryRows<LeasedRow>(
    db,
    sql`with picked as materialized (
          select url from crawl_urls
          where run_id = ${runId}::uuid and state = 'pending' and lost_leases > 0
          order by seq
          limit 1
          for update skip locked
        )
        update crawl_urls c set state = 'leased', lease_expires_at = ${leaseUntil}::bigint, attempts = c.attempts + 1
        from picked p
        where c.run_id = ${runId}::uuid and c.url = p.url
        returning c.url, c.kind, c.depth, c.is_asset, c.attempts, c.seq`,
  );
  return leased ? toLeased(leased) : null;
}

interface LeasedRow {
  url: string;
  kind: UrlKind;
  depth: number;
  is_asset: number;
  attempts: number;
  seq: number;
}

function toLeased(r: LeasedRow): LeasedUrl {
  return {
    url: r.url,
    kind: r.kind,
    depth: Number(r.depth),
    isAsset: Number(r.is_asset) === 1,
    token: Number(r.attempts),
    seq: Number(r.seq),
  };
}

/** Gives leased URLs back unworked (the step ran out of time before starting them). */
export async function releaseLeases(db: Db, runId: string, leases: readonly LeasedUrl[]): Promise<void> {
  for (const chunk of chunks(leases)) {
    const records = chunk.map((l) => ({ url: l.url, token: l.token }));
    await db.execute(
      sql`update crawl_urls c set state = 'pending', lease_expires_at = null
          from jsonb_to_recordset(${jsonbParam(records)}) as v(url text, token int)
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
    await db.execute(
      sql`update crawl_urls c set lease_expires_at = v.until, deferred = 1
          from jsonb_to_recordset(${jsonbParam(chunk)}) as v(url text, token int, until bigint)
          where c.run_id = ${runId}::uuid and c.url = v.url and c.state = 'leased' and c.attempts = v.token`,
    );
  }
}
