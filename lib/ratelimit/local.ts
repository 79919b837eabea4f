import type { Db } from '@/lib/db/client';
import { countHits, type LimitState } from './counter';
import type { Policy } from './policies';

/*
 * A per-subject limit counted in this process and shared through the database in batches, for a
 * surface whose every request must stay off the database (the public status pages: 200 visitors at
 * once, lib/api/public-status.ts). countHits writes a row per request; this counts each hit in
 * memory, and once a `flushEveryMs` the request that finds the last hand-over old enough adds
 * everything counted since to the same shared rows (`rate_limit_counters`, one upsert for every
 * subject) and learns each subject's total across instances from what comes back.
 *
 * A subject's count is what the instances have handed over (as of this process's last hand-over)
 * plus what this process counted since, so within one process the limit is exact, and across
 * instances a client can go past its quota by at most what the other instances counted for it and
 * had not yet handed over: about two hand-overs' worth of its own requests (each instance hands
 * over at most `flushEveryMs` late, and this one reads their totals at most that late). Nothing
 * depends on the memory surviving: a restart, a frozen instance or an evicted subject loses at
 * most one interval's count, and no timer runs (the hand-over rides on a request, which waits for
 * it, so it finishes inside a request as a serverless function requires).
 *
 * Memory is bounded: at most `maxSubjects` subjects are held; past that the counts are handed over
 * and the oldest subjects dropped (their total is read again at their next hand-over).
 */

interface Tally {
  /** The window this tally counts (when it ends, epoch ms). */
  resetsAt: number;
  /** Hits counted here and not yet handed over. */
  pending: number;
  /** The shared total as of the last hand-over that included this subject. */
  shared: number;
}

export interface LocalCounterOptions {
  /** How often counts are handed over to the shared rows (ms). */
  flushEveryMs: number;
  /** Subjects held at most; past it the counts are handed over and the oldest dropped. */
  maxSubjects: number;
}

export class LocalCounter {
  private readonly tallies = new Map<string, Tally>();
  private lastFlushAt = Number.NEGATIVE_INFINITY;
  private flushing: Promise<void> | null = null;
  private policy: Policy | null = null;

  constructor(private readonly options: LocalCounterOptions) {}

  /**
   * Counts one hit of `subject` and says where it stands. Touches the database only when a
   * hand-over is due (then this request makes it and waits for it) or the subjects are too many.
   */
  async hit(db: () => Promise<Db>, policy: Policy, subject: string, now = Date.now()): Promise<LimitState> {
    this.policy = policy;
    const windowMs = policy.windowSeconds * 1000;
    const resetsAt = (Math.floor(now / windowMs) + 1) * windowMs;
    let tally = this.tallies.get(subject);
    if (!tally || tally.resetsAt < resetsAt) {
      if (!tally && this.tallies.size >= this.options.maxSubjects) await this.makeRoom(db, now);
      tally = { resetsAt, pending: 0, shared: 0 };
      this.tallies.set(subject, tally);
    }
    tally.pending += 1;
    if (now - this.lastFlushAt >= this.options.flushEveryMs) await this.flush(db, now);
    const hits = tally.shared + tally.pending;
    return {
      policy,
      hits,
      remaining: Math.max(0, policy.quota - hits),
      resetsAt: tally.resetsAt,
      refused: hits > policy.quota,
    };
  }

  /** Hands every pending count over now (also what a test calls to play an instance's next hand-over). */
  flush(db: () => Promise<Db>, now = Date.now()): Promise<void> {
    if (this.flushing) return this.flushing;
    this.lastFlushAt = now;
    this.flushing = this.handOver(db, now).finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async handOver(db: () => Promise<Db>, now: number): Promise<void> {
    const policy = this.policy;
    if (!policy) return;
    const batch: [string, Tally, number][] = [];
    for (const [subject, tally] of this.tallies) {
      // A window that has ended needs no count any more.
      if (tally.resetsAt <= now) this.tallies.delete(subject);
      else if (tally.pending > 0) batch.push([subject, tally, tally.pending]);
    }
    if (batch.length === 0) return;
    const states = await countHits(
      await db(),
      batch.map(([subject, , count]) => ({ policy, subject, count })),
      now,
    );
    batch.forEach(([, tally, count], i) => {
      // Hits counted while the statement ran stay pending for the next hand-over.
      tally.pending -= count;
      tally.shared = states[i]!.hits;
    });
  }

  /** Hands the counts over, then drops the oldest tenth of the subjects (insertion order). */
  private async makeRoom(db: () => Promise<Db>, now: number): Promise<void> {
    await this.flush(db, now);
    const keep = Math.floor(this.options.maxSubjects * 0.9);
    for (const subject of this.tallies.keys()) {
      if (this.tallies.size <= keep) break;
      this.tallies.delete(subject);
    }
  }
}
