import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { rateLimitCounters } from '@/lib/db/schema';
import { BusyError } from '@/lib/errors';
import type { Policy } from './policies';

/**
 * One hit to count: against which policy, for which subject (a key's id, an address, an organization);
 * `count` hits at once when a process hands over what it counted itself (lib/ratelimit/local.ts).
 */
export type Hit = { policy: Policy; subject: string; count?: number };

/** Where one policy stands for one subject after a hit. */
export type LimitState = {
  policy: Policy;
  /** Hits in the current window, this one included (refused ones too). */
  hits: number;
  /** Hits left in the window. */
  remaining: number;
  /** When the window ends (epoch ms): the count starts again. */
  resetsAt: number;
  /** This hit went past the quota. */
  refused: boolean;
};

const bucketOf = (hit: Hit) => `${hit.policy.name}:${hit.subject}`;

/**
 * Counts one hit (or `count`) on each bucket in one statement (an atomic upsert per row, so concurrent requests
 * on any number of server instances never lose a count) and answers where each stands.
 *
 * A row from an earlier window starts again at 1. A server whose clock runs behind counts into the
 * latest window any instance opened (`greatest`) rather than resetting it.
 */
export async function countHits(db: Db, hits: readonly Hit[], now = Date.now()): Promise<LimitState[]> {
  const unique = [...new Map(hits.map((hit) => [bucketOf(hit), hit])).values()];
  if (unique.length === 0) return [];
  const rows = await db
    .insert(rateLimitCounters)
    .values(
      unique.map((hit) => {
        const windowMs = hit.policy.windowSeconds * 1000;
        return {
          bucket: bucketOf(hit),
          resets_at: (Math.floor(now / windowMs) + 1) * windowMs,
          hits: hit.count ?? 1,
        };
      }),
    )
    .onConflictDoUpdate({
      target: rateLimitCounters.bucket,
      set: {
        hits: sql`case when ${rateLimitCounters.resets_at} >= excluded.resets_at then ${rateLimitCounters.hits} + excluded.hits else excluded.hits end`,
        resets_at: sql`greatest(${rateLimitCounters.resets_at}, excluded.resets_at)`,
      },
    })
    .returning({
      bucket: rateLimitCounters.bucket,
      hits: rateLimitCounters.hits,
      resetsAt: rateLimitCounters.resets_at,
    });
  const byBucket = new Map(rows.map((row) => [row.bucket, row]));
  return hits.map((hit) => {
    const row = byBucket.get(bucketOf(hit));
    if (!row) throw new Error(`rate limit: no count came back for ${hit.policy.name}`);
    return {
      policy: hit.policy,
      hits: row.hits,
      remaining: Math.max(0, hit.policy.quota - row.hits),
      resetsAt: row.resetsAt,
      refused: row.hits > hit.policy.quota,
    };
  });
}

/**
 * A request past one of its limits. It carries every limit the request was counted against, so the
 * answer can say where each stands (the API's RateLimit headers); `retryAfterMs` is when the last of
 * the refusing windows ends.
 */
export class RateLimitedError extends BusyError {
  constructor(
    readonly states: LimitState[],
    now: number,
  ) {
    const refused = states.filter((state) => state.refused);
    const last = Math.max(...refused.map((state) => state.resetsAt));
    const retryAfterMs = Math.max(0, last - now);
    const limits = refused.map(({ policy }) => `at most ${policy.quota} ${policy.unit}`).join(' and ');
    super(
      `rate limit reached: ${limits}; try again in ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s`,
      retryAfterMs,
    );
  }
}

/** Throws RateLimitedError when any of the states went past its quota. */
export function refuseOverLimit(states: LimitState[], now = Date.now()): void {
  if (states.some((state) => state.refused)) throw new RateLimitedError(states, now);
}

/** Counts the hits and refuses past any quota: what a service calls before work a limit bounds. */
export async function takeHits(db: Db, hits: readonly Hit[], now = Date.now()): Promise<LimitState[]> {
  const states = await countHits(db, hits, now);
  refuseOverLimit(states, now);
  return states;
}
