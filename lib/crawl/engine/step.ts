/**
 * The crawl engine's step loop: a run is worked in bounded steps. Each step leases URLs from the
 * Postgres frontier, hands internal pages to the page work through the adaptive window and
 * external targets through per-host limits, and has the batch writer write results back while
 * requests are in flight. When its time budget is spent it stops leasing, finishes what it holds
 * and returns; the next step (another function invocation, maybe another machine) continues from
 * Postgres. Nothing about the run lives in memory beyond the step.
 */
import { setMaxListeners } from 'node:events';
import type { Db } from '@/lib/db/client';
import type { Run, RunSettings } from '@/lib/db/schema';
import { loadRun } from '../runs/run';
import { BatchWriter } from './batch-writer';
import {
  frontierProgress,
  type LeasedUrl,
  type NewFrontierUrl,
  skipPending,
  skipUnlinkedInternal,
  type UrlKind,
} from './frontier';
import { leaseSuspect, leaseUrls, reclaimExpiredLeases, releaseLeases } from './frontier-leases';
import { HostLimiter, hostOf } from './host-limiter';
import { PageWork, type Processed } from './page-work';
import { pageCap, pageCapLimitHit, pageCapReason, type RunRules, rulesOf } from './rules';
import { type CrawlTrace, traced } from './trace';
import { DEFAULT_TUNING, type EngineTuning, type WorkOptions } from './tuning';
import { AdaptiveWindow } from './window';

export type WorkOutcome =
  /** Time budget spent; more frontier remains. */
  | { status: 'more' }
  /** Nothing leasable now; URLs are leased (another worker, or deferred) until `untilMs`. */
  | { status: 'wait'; untilMs: number }
  /** Frontier exhausted: finalize. */
  | { status: 'exhausted' }
  /** The run is not crawling (finished, failed, still seeding or already finalizing). */
  | { status: 'stopped' }
  /** The caller's signal cancelled the step mid-way (nothing after the last write was kept). */
  | { status: 'aborted' };

/**
 * Works the run for one step. Returns what the caller should do next (see WorkOutcome). Safe to
 * run in several workers at once and to repeat after a crash: see frontier.ts.
 */
export async function workRun(db: Db, runId: string, options: WorkOptions = {}): Promise<WorkOutcome> {
  const run = await loadRun(db, runId);
  if (run?.state !== 'running' || run.phase !== 'crawling' || !run.settings) return { status: 'stopped' };
  if (run.error !== null) {
    // Seeding (or the root URL) already decided this run cannot go on.
    await skipPending(db, runId, 'all', 'not crawled: the crawl could not continue');
    return (await frontierProgress(db, runId)).leased === 0
      ? { status: 'exhausted' }
      : waitOutcome(db, runId);
  }
  return new Step(db, run, { ...DEFAULT_TUNING, ...options }, options.signal, options.trace).work();
}

async function waitOutcome(db: Db, runId: string): Promise<WorkOutcome> {
  const progress = await frontierProgress(db, runId);
  return { status: 'wait', untilMs: progress.nextLeaseExpiry ?? Date.now() };
}

class Step {
  private readonly rules: RunRules;
  private readonly settings: RunSettings;
  private readonly window: AdaptiveWindow;
  private readonly hosts: HostLimiter;
  private readonly cap: number;
  private readonly deadline: number;
  private readonly abort = new AbortController();

  private pagesCrawled: number;
  private internalQueue: LeasedUrl[] = [];
  private externalQueue: LeasedUrl[] = [];
  private internalInFlight = 0;
  /** Internal URLs started whose results are not written yet: they may still become pages. */
  private internalUnwritten = 0;
  private externalInFlight = 0;
  private internalDry = false;
  private externalDry = false;
  /** Where this step's next lease of each kind starts: after the last URL it leased (see lease). */
  private readonly leasedThrough: Record<UrlKind, number | null> = { internal: null, external: null };
  private lastInternalStart = 0;
  /**
   * The page cap is reached: internal URLs still pending are link targets of crawled pages, and
   * are checked (status only) without being parsed or counted as pages.
   */
  private checkOnly = false;
  private readonly pages: PageWork;
  private readonly writer: BatchWriter;

  /** A lease statement in flight: requests keep being dispatched from the queues meanwhile. */
  private refilling: Promise<void> | null = null;
  private failure: unknown = null;
  private fatal: string | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly db: Db,
    private readonly run: Run,
    private readonly tuning: EngineTuning,
    private readonly signal: AbortSignal | undefined,
    private readonly trace: CrawlTrace | undefined = undefined,
  ) {
    this.settings = run.settings as RunSettings;
    this.rules = rulesOf(this.settings);
    this.window = new AdaptiveWindow({
      max: Math.max(2, this.settings.maxConcurrency),
      min: 2,
      initial: run.window,
    });
    this.hosts = new HostLimiter(tuning.maxPerExternalHost);
    this.cap = pageCap(this.settings);
    this.pagesCrawled = run.pages_crawled;
    this.deadline = Date.now() + tuning.stepBudgetMs;
    // External checks waiting out a Retry-After each listen on this signal (requests in flight share
    // one listener, see lib/net): dozens at once are expected, not a leak.
    setMaxListeners(0, this.abort.signal);
    signal?.addEventListener('abort', () => this.abort.abort(), { once: true });
    this.abort.signal.addEventListener('abort', () => this.notify(), { once: true });
    this.pages = new PageWork(this.rules, this.settings, tuning, this.window, this.abort.signal);
    this.writer = new BatchWriter(db, run.id, tuning, trace, {
      window: () => this.internalLimit,
      committed: (batch, pages) => {
        this.pagesCrawled += pages;
        this.internalUnwritten -= batch.filter((p) => p.lease.kind === 'internal').length;
      },
      failed: (error) => {
        this.failure ??= error;
      },
      ended: (batch) => {
        // Newly discovered URLs are pending now: lease that kind again even if its queue had run dry.
        for (const p of batch) {
          this.rearm(p.newUrls);
          if (p.redirectedPage) this.rearm(p.redirectedPage.newUrls);
        }
        this.notify();
      },
    });
  }

  /** maxHeldResults are held or in flight: nothing more is sent until the next write takes them. */
  private get heldForWrite(): boolean {
    return this.internalInFlight + this.writer.held >= this.tuning.maxHeldResults;
  }

  /** Internal requests allowed in flight: the window, or one at a time under a Crawl-delay. */
  private get internalLimit(): number {
    return this.rules.crawlDelayMs > 0 ? 1 : this.window.current;
  }

  async work(): Promise<WorkOutcome> {
    try {
      return await this.loop();
    } finally {
      this.trace?.state(null);
    }
  }

  /** What the internal window waits on now (BENCH_TRACE). */
  private traceState(): string {
    const limit = this.internalLimit;
    const fill =
      this.internalInFlight >= limit ? 'full' : this.internalInFlight === 0 ? 'empty' : 'part full';
    if (fill !== 'full' && this.heldForWrite) return `${fill}, held for a write`;
    if (fill === 'full' || this.internalQueue.length > 0) return fill;
    const on = this.refilling ? 'lease in flight' : this.writer.inFlight ? 'write in flight' : 'tick';
    return `${fill}, queue empty, ${on}`;
  }

  private async loop(): Promise<WorkOutcome> {
    await this.reclaim();
    try {
      for (;;) {
        if (this.abort.signal.aborted) return this.abandon();
        if (this.failure) throw this.failure;
        const leasing = Date.now() < this.deadline && this.fatal === null;
        if (leasing) this.startRefill();
        else {
          if (this.refilling) await this.refilling;
          await this.releaseQueued();
        }
        this.dispatch();
        this.writer.flushIfDue(
          this.internalQueue.length === 0 && this.internalInFlight < this.internalLimit,
          this.heldForWrite,
        );
        if (!this.idle()) {
          this.trace?.state(this.traceState());
          await this.sleep();
          continue;
        }
        // Nothing in flight or queued: write what is left, then decide.
        if (!this.writer.idle) {
          this.trace?.state('nothing in flight: final write');
          await this.flushNow();
          continue;
        }
        if (this.fatal !== null) {
          await skipPending(this.db, this.run.id, 'all', 'not crawled: the crawl could not continue');
          return { status: 'exhausted' };
        }
        if (!leasing) return { status: 'more' };
        if (!this.internalDry || !this.externalDry) continue;
        this.trace?.state('nothing in flight: queues dry');
        const next = await this.nextAfterDry();
        if (next) return next;
      }
    } catch (error) {
      if (this.abort.signal.aborted) return this.abandon();
      this.abort.abort();
      // Queued URLs go back at once; those in flight are left to their lease expiry.
      await this.refilling;
      await this.releaseQueued().catch(() => {});
      throw error;
    }
  }

  private idle(): boolean {
    return (
      this.refilling === null &&
      this.internalInFlight === 0 &&
      this.externalInFlight === 0 &&
      this.internalQueue.length === 0 &&
      this.externalQueue.length === 0
    );
  }

  /** Both queues ran dry and every result is written: is the run exhausted, waiting, or fed anew? */
  private async nextAfterDry(): Promise<WorkOutcome | null> {
    if (this.pagesCrawled >= this.cap && !this.checkOnly) await this.reachCap();
    // URLs whose worker died holding them come last, one at a time (the dry queues lease nothing
    // else meanwhile): a second death then charges that URL alone.
    const suspect = await traced(this.trace, 'lease suspect', () =>
      leaseSuspect(this.db, this.run.id, Date.now() + this.tuning.leaseMs),
    );
    if (suspect) {
      (suspect.kind === 'internal' ? this.internalQueue : this.externalQueue).push(suspect);
      return null;
    }
    const progress = await traced(this.trace, 'frontier progress', () =>
      frontierProgress(this.db, this.run.id),
    );
    if (progress.pending > 0) {
      this.internalDry = false;
      this.externalDry = false;
      return null;
    }
    if (progress.leased === 0) return { status: 'exhausted' };
    const until = progress.nextLeaseExpiry ?? Date.now();
    if (until >= this.deadline) return { status: 'wait', untilMs: until };
    // Deferred URLs (Retry-After) or another worker's leases expire within this step: wait here.
    await this.pause(Math.max(0, until - Date.now()) + 5);
    await this.reclaim();
    this.internalDry = false;
    this.externalDry = false;
    return null;
  }

  /** Returns expired leases to the pool; a URL that lost its last one is recorded on the run. */
  private async reclaim(): Promise<void> {
    const { unprocessable } = await traced(this.trace, 'reclaim', () =>
      reclaimExpiredLeases(this.db, this.run.id, Date.now()),
    );
    if (unprocessable === 0) return;
    await this.writer.recordLimits([
      {
        limit: 'unprocessable-urls',
        detail: `The crawler stopped twice while handling a URL; such URLs are reported as errors ("could not be processed") and were not tried again.`,
      },
    ]);
  }

  /**
   * The page cap only stops pages from being crawled: the links found on pages already crawled are
   * still checked. Pending internal URLs no crawled page links to (sitemap URLs) are skipped; from
   * here on every internal URL leased is checked, not crawled.
   */
  private async reachCap(): Promise<void> {
    const cap = pageCapReason(this.settings);
    const skipped = await skipUnlinkedInternal(this.db, {
      runId: this.run.id,
      detail: `not crawled: ${cap.reason}`,
    });
    if (skipped > 0) await this.writer.recordLimits([pageCapLimitHit(this.settings)]);
    this.checkOnly = true;
  }

  /**
   * Leases more URLs when a queue runs low, without waiting for the statement: requests keep being
   * dispatched from what is queued while it runs (it may wait behind a result flush).
   */
  private startRefill(): void {
    if (this.refilling) return;
    const internal = this.internalWant();
    const external = this.externalWant();
    if (internal === 0 && external === 0) return;
    const leaseUntil = Date.now() + this.tuning.leaseMs;
    this.refilling = (async () => {
      if (internal > 0) {
        const leased = await traced(this.trace, 'lease internal', () =>
          this.lease('internal', internal, leaseUntil),
        );
        this.internalQueue.push(...leased);
        if (leased.length < internal) this.internalDry = true;
      }
      if (external > 0) {
        const leased = await traced(this.trace, 'lease external', () =>
          this.lease('external', external, leaseUntil),
        );
        this.externalQueue.push(...leased);
        if (leased.length < external) this.externalDry = true;
      }
    })()
      .catch((error: unknown) => {
        this.failure ??= error;
      })
      .finally(() => {
        this.refilling = null;
        this.notify();
      });
  }

  /**
   * Leases up to `limit` URLs of `kind`, in discovery order from where this step's last lease ended,
   * so the lease does not walk past every URL leased before it (leaseUrls); then from the start when
   * that finds too few, for URLs back in the pool behind it (given back, deferred, reclaimed) and
   * discoveries another worker's write made visible late. The queue is dry only when the walk from
   * the start finds too few as well.
   */
  private async lease(kind: UrlKind, limit: number, leaseUntil: number): Promise<LeasedUrl[]> {
    const after = this.leasedThrough[kind];
    const leased = await leaseUrls(this.db, this.run.id, kind, limit, leaseUntil, after);
    if (after !== null && leased.length < limit)
      leased.push(...(await leaseUrls(this.db, this.run.id, kind, limit - leased.length, leaseUntil)));
    for (const { seq } of leased) this.leasedThrough[kind] = Math.max(this.leasedThrough[kind] ?? seq, seq);
    return leased;
  }

  /**
   * Internal URLs to lease now: up to `leaseWindows` windows' worth, leased once half are left, so
   * the window stays busy while a lease waits behind a result flush; never beyond the page cap.
   */
  private internalWant(): number {
    if (this.internalDry) return 0;
    const ahead = this.tuning.leaseWindows;
    const wanted = Math.max(this.internalLimit * ahead, 8) - this.internalQueue.length;
    const low = (this.internalLimit * ahead) / 2;
    if (this.checkOnly) return wanted > low ? wanted : 0;
    const capLeft = this.cap - this.pagesCrawled - this.internalUnwritten - this.internalQueue.length;
    if (capLeft <= 0) {
      if (this.internalQueue.length === 0) this.internalDry = true;
      return 0;
    }
    return wanted > low ? Math.min(wanted, capLeft) : 0;
  }

  private externalWant(): number {
    if (this.externalDry) return 0;
    const wanted = this.tuning.externalConcurrency * 2 - this.externalQueue.length;
    return wanted > this.tuning.externalConcurrency / 2 ? wanted : 0;
  }

  private async releaseQueued(): Promise<void> {
    const queued = [...this.internalQueue, ...this.externalQueue];
    if (queued.length === 0) return;
    this.internalQueue = [];
    this.externalQueue = [];
    await releaseLeases(this.db, this.run.id, queued);
  }

  private dispatch(): void {
    while (
      this.internalInFlight < this.internalLimit &&
      this.internalQueue.length > 0 &&
      !this.heldForWrite
    ) {
      if (this.rules.crawlDelayMs > 0 && Date.now() - this.lastInternalStart < this.rules.crawlDelayMs) break;
      const lease = this.internalQueue.shift() as LeasedUrl;
      this.lastInternalStart = Date.now();
      this.internalInFlight++;
      this.internalUnwritten++;
      this.track(this.pages.fetchInternal(lease, this.checkOnly), () => this.internalInFlight--);
    }
    // Pick queued checks whose host has a free slot, so one slow host cannot hold every slot.
    for (
      let i = 0;
      i < this.externalQueue.length && this.externalInFlight < this.tuning.externalConcurrency;
    ) {
      const lease = this.externalQueue[i] as LeasedUrl;
      const host = hostOf(lease.url);
      if (this.hosts.active(host) >= this.hosts.maxPerHost) {
        i++;
        continue;
      }
      this.externalQueue.splice(i, 1);
      this.externalInFlight++;
      this.track(
        this.hosts.run(host, () => this.pages.checkExternal(lease)),
        () => this.externalInFlight--,
      );
    }
  }

  private track(task: Promise<Processed>, settle: () => void): void {
    task.then(
      (processed) => {
        settle();
        this.writer.add(processed);
        if (processed.fatal) this.fatal ??= processed.fatal;
        this.notify();
      },
      (error: unknown) => {
        settle();
        if (!this.abort.signal.aborted) this.failure ??= error;
        this.notify();
      },
    );
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /** Waits for a request to finish, a flush to end, or a short tick (crawl-delay pacing, flush timer). */
  private sleep(): Promise<void> {
    const tick =
      this.rules.crawlDelayMs > 0 ? Math.min(this.rules.crawlDelayMs, 100) : this.tuning.flushIntervalMs;
    return this.pause(tick);
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = null;
        resolve();
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private rearm(urls: readonly NewFrontierUrl[]): void {
    for (const url of urls) {
      if (url.kind === 'internal') this.internalDry = false;
      else this.externalDry = false;
    }
  }

  private async flushNow(): Promise<void> {
    await this.writer.flushNow();
    if (this.failure) throw this.failure;
  }

  /** A crash stand-in: stop without writing what is not written yet; leases expire and are redone. */
  private async abandon(): Promise<WorkOutcome> {
    this.abort.abort();
    await this.refilling;
    await this.writer.inFlight;
    return { status: 'aborted' };
  }
}
