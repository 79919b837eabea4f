import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '@/lib/db/client';
import { EMBEDDED_CONCURRENCY, probeRound, type RegionProber } from './regions';
import {
  type ClaimedRound,
  claimDueRounds,
  completeRounds,
  type ProbedRound,
  type RoundOutcome,
  releaseRounds,
  roundTarget,
} from './rounds';

/**
 * The coordinator (README.md, "Scheduling"): claims due rounds, fires each at its instant from
 * every region, applies the consensus and stores the outcome. Works against any set of region
 * probers (the four embedded ones, or the hosted regions over signed HTTP).
 */

export interface FinishedRound {
  round: ClaimedRound;
  /** When the round was fired (its probes started then). */
  startedAt: number;
  outcome: RoundOutcome;
}

/** Probes `rounds` as one batch per region: each round with its regions' results. */
async function probeRounds(
  probers: readonly RegionProber[],
  rounds: readonly ClaimedRound[],
  startedAt: number,
): Promise<ProbedRound[]> {
  const results = await probeRound(probers, rounds.map(roundTarget));
  return rounds.map((round) => ({ round, results: results.get(round.monitorId) ?? [], startedAt }));
}

async function complete(db: Db, probed: readonly ProbedRound[], now: number): Promise<FinishedRound[]> {
  const outcomes = await completeRounds(db, probed, now);
  return probed.map(({ round, startedAt }, i) => ({
    round,
    startedAt,
    outcome: outcomes[i] as RoundOutcome,
  }));
}

/**
 * Probes `rounds` as one batch per region and completes them (one transaction). `clock` gives the
 * rounds' time for their state (`startedAt`, next round); tests pass a simulated one.
 */
export async function runRounds(
  db: Db,
  probers: readonly RegionProber[],
  rounds: readonly ClaimedRound[],
  clock: () => number = Date.now,
): Promise<FinishedRound[]> {
  if (rounds.length === 0) return [];
  return complete(db, await probeRounds(probers, rounds, clock()), clock());
}

/** Claims the rounds due by `now` and runs them at once (tests, drills). */
export async function runDueRounds(
  db: Db,
  probers: readonly RegionProber[],
  options: { now: number; limit?: number },
): Promise<FinishedRound[]> {
  const rounds = await claimDueRounds(db, { now: options.now, limit: options.limit ?? CLAIM_LIMIT });
  return runRounds(db, probers, rounds, () => options.now);
}

/**
 * Rounds claimed per query: a thousand monitors created at once are all claimed, and fired, in
 * one go (their rounds are fired alone or in batches of MAX_BATCH_ROUNDS, whatever the claim).
 */
export const CLAIM_LIMIT = 1_000;
/** At most one wave of a region's probes per batch (EMBEDDED_CONCURRENCY), which the round's lease covers. */
export const MAX_BATCH_ROUNDS = EMBEDDED_CONCURRENCY;

/**
 * Rounds probing at once in one loop: at 1,000 monitors a minute with targets answering in a
 * second, about 20 are; ten times that still fits, at 200 sockets per region (EMBEDDED_CONCURRENCY).
 */
export const MAX_ROUNDS_IN_FLIGHT = EMBEDDED_CONCURRENCY;
/**
 * Rounds of one tenant probing at once in one loop: a quarter of the pool, so a tenant whose
 * targets hang (every probe running to its timeout, twice) holds at most this many slots and the
 * other tenants' rounds still fire at their instant. At 50 a tenant's 1,000 monitors a minute fit
 * when its targets answer within 3 s on average.
 */
export const MAX_ROUNDS_IN_FLIGHT_PER_TENANT = 50;
/** Rounds completed per transaction. */
export const COMPLETE_BATCH = 100;

type Slot = { timer: NodeJS.Timeout; rounds: ClaimedRound[] };

export interface RoundLoopOptions {
  probers: readonly RegionProber[];
  /**
   * Rounds due within this much of now are claimed ahead, so each fires from a timer at its
   * instant and a slow claim (the database busy for a moment) does not make it late.
   */
  horizonMs?: number;
  /** How often to look for due rounds: the most a newly due round (a monitor created, resumed) waits. */
  pollMs?: number;
  /**
   * Rounds due in the same window of this many milliseconds fire together, at the window's start,
   * as one batch per region (at most MAX_BATCH_ROUNDS): 0 (embedded) fires each round alone at its
   * own instant; hosted regions use 1,000, one signed call per region per second instead of one
   * per round.
   */
  batchWindowMs?: number;
  claimLimit?: number;
  /** Rounds probing at once (4 probes each); more wait their turn. */
  maxRoundsInFlight?: number;
  /** Rounds of one tenant probing at once; its others wait their turn while other tenants' go ahead. */
  maxRoundsInFlightPerTenant?: number;
  /** Checked before every claim: the loop ends when it answers false (its runner stopped). */
  keepRunning?: () => boolean;
  onRound?: (round: FinishedRound) => void;
  log?: Pick<Console, 'error'>;
}

/**
 * The round loop: a poll every `pollMs` claims what is due within `horizonMs` and arms a timer per
 * firing instant. Every process may run one; leases keep them from probing a round twice. `run`
 * ends at `until` (a hosted invocation's minute) or on `stop`, hands back the rounds it claimed but
 * did not fire, and waits for the rounds in flight.
 */
export class RoundLoop {
  private readonly options: Required<Omit<RoundLoopOptions, 'onRound' | 'keepRunning'>> &
    Pick<RoundLoopOptions, 'onRound' | 'keepRunning'>;
  /** Timers armed, each with the rounds it fires. */
  private readonly armed = new Set<Slot>();
  /** With a batch window: the slot still taking rounds for each firing instant. */
  private readonly open = new Map<number, Slot>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Batches fired but not started (past maxRoundsInFlight), oldest first. */
  private readonly waiting: ClaimedRound[][] = [];
  private roundsOut = 0;
  /** Rounds out per tenant (absent: none). */
  private readonly tenantOut = new Map<string, number>();
  /** Rounds probed and waiting to be completed, and the completion running. */
  private readonly probed: ProbedRound[] = [];
  private flushing: Promise<void> | null = null;
  private stopping = new AbortController();
  private fired = 0;

  constructor(
    private readonly db: () => Promise<Db>,
    options: RoundLoopOptions,
  ) {
    this.options = {
      horizonMs: 3_000,
      pollMs: 500,
      batchWindowMs: 0,
      claimLimit: CLAIM_LIMIT,
      maxRoundsInFlight: MAX_ROUNDS_IN_FLIGHT,
      maxRoundsInFlightPerTenant: MAX_ROUNDS_IN_FLIGHT_PER_TENANT,
      log: console,
      ...options,
    };
  }

  /** Runs until `until` (epoch ms) or `stop()`; resolves with the number of rounds fired. */
  async run(until = Number.POSITIVE_INFINITY): Promise<{ rounds: number }> {
    const { horizonMs, pollMs, claimLimit, log } = this.options;
    while (this.active() && Date.now() < until) {
      let claimed = 0;
      try {
        const rounds = await claimDueRounds(await this.db(), {
          now: Date.now(),
          horizonMs,
          limit: claimLimit,
        });
        for (const round of rounds) this.arm(round);
        claimed = rounds.length;
      } catch (error) {
        log.error('uptime: claiming due rounds failed:', error);
      }
      if (claimed < claimLimit) {
        await sleep(Math.min(pollMs, until - Date.now()), undefined, {
          signal: this.stopping.signal,
          ref: false,
        }).catch(() => {});
      }
    }
    await this.disarm();
    while (this.inFlight.size > 0 || this.flushing) {
      await Promise.allSettled([...this.inFlight, this.flushing]);
    }
    return { rounds: this.fired };
  }

  /** Ends `run`: no more claims, unfired rounds given back, rounds in flight finished. */
  stop(): void {
    this.stopping.abort();
  }

  private active(): boolean {
    return !this.stopping.signal.aborted && (this.options.keepRunning?.() ?? true);
  }

  private arm(round: ClaimedRound): void {
    const window = this.options.batchWindowMs;
    const fireAt = window > 0 ? Math.floor(round.roundAt / window) * window : round.roundAt;
    const open = window > 0 ? this.open.get(fireAt) : undefined;
    if (open && open.rounds.length < MAX_BATCH_ROUNDS) {
      open.rounds.push(round);
      return;
    }
    const slot: Slot = {
      rounds: [round],
      timer: setTimeout(
        () => {
          this.armed.delete(slot);
          if (this.open.get(fireAt) === slot) this.open.delete(fireAt);
          this.fire(slot.rounds);
        },
        Math.max(0, fireAt - Date.now()),
      ),
    };
    this.armed.add(slot);
    if (window > 0) this.open.set(fireAt, slot);
  }

  private fire(rounds: ClaimedRound[]): void {
    // The runner that started the loop has gone (its database with it): the leases run out instead.
    if (!(this.options.keepRunning?.() ?? true)) return;
    this.waiting.push(rounds);
    this.startWaiting();
  }

  /**
   * Starts waiting batches while fewer than `maxRoundsInFlight` rounds are out. Past it (a thousand
   * monitors created at once, every one due that instant) a round waits for earlier ones to finish
   * rather than opening thousands of connections at once, which the machine, or the target, would
   * answer with failures that are not the target's.
   *
   * Fair across tenants: a tenant with `maxRoundsInFlightPerTenant` rounds out has its waiting
   * rounds passed over (a batch split, its other tenants' rounds going now) until one finishes, so a
   * tenant whose targets hang cannot keep another's rounds from firing. A waiting round whose lease
   * ran out is dropped: it is claimed again (by this loop or another) and fired afresh.
   */
  private startWaiting(): void {
    const { maxRoundsInFlight, maxRoundsInFlightPerTenant } = this.options;
    for (let i = 0; i < this.waiting.length && this.roundsOut < maxRoundsInFlight; ) {
      const now = Date.now();
      const taking = new Map<string, number>();
      const go: ClaimedRound[] = [];
      const held: ClaimedRound[] = [];
      for (const round of this.waiting[i] as ClaimedRound[]) {
        if (round.leaseUntil <= now) continue;
        const out = (this.tenantOut.get(round.tenantId) ?? 0) + (taking.get(round.tenantId) ?? 0);
        if (out < maxRoundsInFlightPerTenant) {
          taking.set(round.tenantId, (taking.get(round.tenantId) ?? 0) + 1);
          go.push(round);
        } else held.push(round);
      }
      if (held.length > 0) this.waiting[i++] = held;
      else this.waiting.splice(i, 1);
      if (go.length > 0) this.start(go);
    }
  }

  private start(rounds: ClaimedRound[]): void {
    this.roundsOut += rounds.length;
    this.fired += rounds.length;
    for (const round of rounds)
      this.tenantOut.set(round.tenantId, (this.tenantOut.get(round.tenantId) ?? 0) + 1);
    const work = probeRounds(this.options.probers, rounds, Date.now())
      .then((probed) => {
        this.probed.push(...probed);
        this.flush();
      })
      .catch((error: unknown) => {
        // The leases run out and the rounds are claimed and probed again.
        this.options.log.error('uptime: probing a round failed:', error);
      });
    this.inFlight.add(work);
    void work.finally(() => {
      this.inFlight.delete(work);
      this.roundsOut -= rounds.length;
      for (const round of rounds) {
        const left = (this.tenantOut.get(round.tenantId) ?? 1) - 1;
        if (left > 0) this.tenantOut.set(round.tenantId, left);
        else this.tenantOut.delete(round.tenantId);
      }
      this.startWaiting();
    });
  }

  /**
   * Completes probed rounds, COMPLETE_BATCH at a time, one batch after another: at most one
   * completion transaction is ever waiting, so a claim never queues behind a thousand of them.
   */
  private flush(): void {
    if (this.flushing) return;
    this.flushing = (async () => {
      while (this.probed.length > 0) {
        const batch = this.probed.splice(0, COMPLETE_BATCH);
        try {
          for (const round of await complete(await this.db(), batch, Date.now()))
            this.options.onRound?.(round);
        } catch (error) {
          this.options.log.error('uptime: completing rounds failed (their leases will run out):', error);
        }
      }
    })().finally(() => {
      this.flushing = null;
      // Rounds probed while the last batch was being written.
      if (this.probed.length > 0) this.flush();
    });
  }

  /** Gives back the rounds claimed but not fired, so another worker takes them at once. */
  private async disarm(): Promise<void> {
    const unfired = [...this.armed];
    this.armed.clear();
    this.open.clear();
    for (const slot of unfired) clearTimeout(slot.timer);
    const rounds = [...unfired.flatMap((slot) => slot.rounds), ...this.waiting.splice(0).flat()];
    if (rounds.length === 0 || !(this.options.keepRunning?.() ?? true)) return;
    try {
      await releaseRounds(await this.db(), rounds);
    } catch (error) {
      this.options.log.error('uptime: giving back unfired rounds failed (their leases will run out):', error);
    }
  }
}
