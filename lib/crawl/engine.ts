import { setMaxListeners } from 'node:events';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import {
  type LimitHit,
  type PageLink,
  type Run,
  type RunLimit,
  type RunSettings,
  runs,
} from '@/lib/db/schema';
import { MAX_HTML_BYTES, MAX_HTML_NESTING, parseHtmlBytes } from '@/lib/html/document';
import { type FollowedResponse, fetchFollowing, header, NetError } from '@/lib/net';
import { parseUrl } from '@/lib/net/url';
import { extractSeoFacts } from '@/lib/seo/extract';
import {
  checkLink,
  classifyFailure,
  classifyResponse,
  type LinkCheckOutcome,
  msSince,
  retryAfterMs,
} from './check';
import { extractLinks, MAX_LINKS_PER_PAGE } from './extract';
import {
  claimRedirectedPages,
  completeUrls,
  countUrls,
  deferLeases,
  enqueueUrls,
  frontierProgress,
  type LeasedUrl,
  leaseSuspect,
  leaseUrls,
  type NewFrontierUrl,
  type RedirectedPage,
  reclaimExpiredLeases,
  releaseLeases,
  skipPending,
  skipUnlinkedInternal,
  type UrlResult,
} from './frontier';
import { HostLimiter } from './host-limiter';
import { recordLimitHit } from './limits';
import { admit, allowanceMessage, pageCap, type RunRules, rulesOf } from './rules';
import { loadRun } from './run';
import { isSameSite, normalizeUrl } from './url';
import { AdaptiveWindow, isBackoffSignal } from './window';

/**
 * The crawl engine: a run is worked in bounded steps. Each step leases URLs from the Postgres
 * frontier, fetches internal pages through the adaptive window and checks external targets through
 * per-host limits, and writes results back in batched statements while requests are in flight.
 * When its time budget is spent it stops leasing, finishes what it holds and returns; the next
 * step (another function invocation, maybe another machine) continues from Postgres. Nothing
 * about the run lives in memory beyond the step.
 */

export interface EngineTuning {
  /** A step stops leasing after this long, then drains what it holds. */
  stepBudgetMs: number;
  /** Per request (every hop of a redirect chain together). */
  requestTimeoutMs: number;
  /** How long a lease lasts; a dead worker's URLs return to the pool after it. */
  leaseMs: number;
  /** External checks in flight at once, across all hosts. */
  externalConcurrency: number;
  /** External checks in flight at once against one host. */
  maxPerExternalHost: number;
  /** Attempts for an internal URL answering 429/503 or failing transiently before it is judged. */
  maxAttempts: number;
  /** Longest Retry-After honoured. */
  retryAfterCapMs: number;
  /** Results written per statement batch. */
  flushSize: number;
  /** Results never wait longer than this to be written. */
  flushIntervalMs: number;
  /** External links checked per run; the rest are recorded as not checked (see MAX_EXTERNAL_CHECKS). */
  maxExternalChecks: number;
}

/**
 * External links checked per run. Ten distinct external links on each of the 5,000 pages of the
 * default monthly allowance; at 32 checks in flight that is a few minutes of requests to other
 * people's servers. Past it a page of generated links (or a site of them) would have the crawler
 * queue and send hundreds of thousands of requests on one site's behalf.
 */
export const MAX_EXTERNAL_CHECKS = 50_000;

export const DEFAULT_TUNING: EngineTuning = {
  stepBudgetMs: 30_000,
  requestTimeoutMs: 10_000,
  leaseMs: 120_000,
  externalConcurrency: 32,
  maxPerExternalHost: 4,
  maxAttempts: 3,
  retryAfterCapMs: 30_000,
  flushSize: 250,
  flushIntervalMs: 300,
  maxExternalChecks: MAX_EXTERNAL_CHECKS,
};

const HTML_TYPES = /^\s*(text\/html|application\/xhtml\+xml)/i;
const TRANSIENT_CODES = new Set(['timeout', 'reset', 'network']);

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

export interface WorkOptions extends Partial<EngineTuning> {
  signal?: AbortSignal;
}

// --- one step ---------------------------------------------------------------------------------

interface Processed {
  lease: LeasedUrl;
  /** Set when the URL is finished; absent when it is deferred for another attempt. */
  result?: UrlResult;
  deferUntil?: number;
  newUrls: NewFrontierUrl[];

  /** For the root URL only: why the crawl cannot go on. */
  fatal?: string;
  /**
   * The lease redirected to another on-site URL whose page was parsed: it is recorded under that
   * URL, with its links, only if the frontier does not have the URL yet.
   */
  redirectedPage?: RedirectedPage & { newUrls: NewFrontierUrl[] };
  /** Limits that cut this URL's work short (its parse, the page cap): recorded on the run (limits_hit). */
  limits?: LimitHit[];
}

/**
 * Works the run for one step. Returns what the caller should do next (see WorkOutcome). Safe to
 * run in several workers at once and to repeat after a crash: see lib/crawl/frontier.ts.
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
  return new Step(db, run, { ...DEFAULT_TUNING, ...options }, options.signal).work();
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
  private lastInternalStart = 0;
  /**
   * The page cap is reached: internal URLs still pending are link targets of crawled pages, and
   * are checked (status only) without being parsed or counted as pages.
   */
  private checkOnly = false;
  /** External URLs in the run's frontier, counted once per step when first needed. */
  private externalCount: number | null = null;
  /** Limits this step already recorded on the run: one statement per limit, not per result. */
  private readonly limitsRecorded = new Set<RunLimit>();

  private done: Processed[] = [];
  /** A lease statement in flight: requests keep being dispatched from the queues meanwhile. */
  private refilling: Promise<void> | null = null;
  private flushing: Promise<void> | null = null;
  private lastFlush = Date.now();
  private failure: unknown = null;
  private fatal: string | null = null;
  /** URLs this step already queued for insertion: repeated nav links cost one row, not thousands. */
  private readonly seen = new Set<string>();
  private wake: (() => void) | null = null;

  constructor(
    private readonly db: Db,
    private readonly run: Run,
    private readonly tuning: EngineTuning,
    private readonly signal: AbortSignal | undefined,
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
  }

  /** Internal requests allowed in flight: the window, or one at a time under a Crawl-delay. */
  private get internalLimit(): number {
    return this.rules.crawlDelayMs > 0 ? 1 : this.window.current;
  }

  async work(): Promise<WorkOutcome> {
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
        if (this.shouldFlush()) this.startFlush();
        if (!this.idle()) {
          await this.sleep();
          continue;
        }
        // Nothing in flight or queued: write what is left, then decide.
        if (this.done.length > 0 || this.flushing) {
          await this.flushNow();
          continue;
        }
        if (this.fatal !== null) {
          await skipPending(this.db, this.run.id, 'all', 'not crawled: the crawl could not continue');
          return { status: 'exhausted' };
        }
        if (!leasing) return { status: 'more' };
        if (!this.internalDry || !this.externalDry) continue;
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
    const suspect = await leaseSuspect(this.db, this.run.id, Date.now() + this.tuning.leaseMs);
    if (suspect) {
      (suspect.kind === 'internal' ? this.internalQueue : this.externalQueue).push(suspect);
      return null;
    }
    const progress = await frontierProgress(this.db, this.run.id);
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
    const { unprocessable } = await reclaimExpiredLeases(this.db, this.run.id, Date.now());
    if (unprocessable === 0) return;
    await this.recordLimits([
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
    const cap = this.capReason();
    const skipped = await skipUnlinkedInternal(this.db, this.run.id, `not crawled: ${cap.reason}`);
    if (skipped > 0) await this.recordLimits([this.capLimitHit()]);
    this.checkOnly = true;
  }

  private capReason(): { limit: 'allowance' | 'max-pages'; reason: string } {
    return this.settings.allowanceRemaining !== null &&
      this.settings.allowanceRemaining < this.settings.maxPages
      ? { limit: 'allowance', reason: allowanceMessage() }
      : { limit: 'max-pages', reason: `the site's maxPages (${this.settings.maxPages}) was reached` };
  }

  private capLimitHit(): LimitHit {
    const cap = this.capReason();
    return {
      limit: cap.limit,
      detail: `The crawl stopped after ${this.cap} pages (${cap.reason}); the links on the pages crawled were all checked.`,
    };
  }

  /**
   * Records limits not yet recorded by this step (recordLimitHit keeps the run's list free of
   * repeats; this saves the statements). A failed transaction fails the step, whose set goes with it.
   */
  private async recordLimits(hits: readonly LimitHit[], db: Db = this.db): Promise<void> {
    for (const hit of hits) {
      if (this.limitsRecorded.has(hit.limit)) continue;
      this.limitsRecorded.add(hit.limit);
      await recordLimitHit(db, this.run.id, hit.limit, hit.detail);
    }
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
        const leased = await leaseUrls(this.db, this.run.id, 'internal', internal, leaseUntil);
        this.internalQueue.push(...leased);
        if (leased.length < internal) this.internalDry = true;
      }
      if (external > 0) {
        const leased = await leaseUrls(this.db, this.run.id, 'external', external, leaseUntil);
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
   * Internal URLs to lease now: up to four windows' worth, leased once two are left, so the window
   * stays busy while a lease waits behind a result flush; never beyond the page cap.
   */
  private internalWant(): number {
    if (this.internalDry) return 0;
    const wanted = Math.max(this.internalLimit * 4, 8) - this.internalQueue.length;
    if (this.checkOnly) return wanted > this.internalLimit * 2 ? wanted : 0;
    const capLeft = this.cap - this.pagesCrawled - this.internalUnwritten - this.internalQueue.length;
    if (capLeft <= 0) {
      if (this.internalQueue.length === 0) this.internalDry = true;
      return 0;
    }
    return wanted > this.internalLimit * 2 ? Math.min(wanted, capLeft) : 0;
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
    while (this.internalInFlight < this.internalLimit && this.internalQueue.length > 0) {
      if (this.rules.crawlDelayMs > 0 && Date.now() - this.lastInternalStart < this.rules.crawlDelayMs) break;
      const lease = this.internalQueue.shift() as LeasedUrl;
      this.lastInternalStart = Date.now();
      this.internalInFlight++;
      this.internalUnwritten++;
      this.track(this.fetchInternal(lease), () => this.internalInFlight--);
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
        this.hosts.run(host, () => this.checkExternal(lease)),
        () => this.externalInFlight--,
      );
    }
  }

  private track(task: Promise<Processed>, settle: () => void): void {
    task.then(
      (processed) => {
        settle();
        this.done.push(processed);
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

  private shouldFlush(): boolean {
    if (this.flushing || this.done.length === 0) return false;
    return (
      this.done.length >= this.tuning.flushSize ||
      Date.now() - this.lastFlush >= this.tuning.flushIntervalMs ||
      this.starving()
    );
  }

  /**
   * The window has room, nothing is queued, and results hold URLs not yet written: discoveries become
   * leasable only once written, so waiting out the flush interval would leave the window idle (it
   * did, for most of a crawl's first second).
   */
  private starving(): boolean {
    return (
      this.internalQueue.length === 0 &&
      this.internalInFlight < this.internalLimit &&
      this.done.some((p) => p.newUrls.length > 0)
    );
  }

  private startFlush(): void {
    const batch = this.done;
    this.done = [];
    this.lastFlush = Date.now();
    this.flushing = this.write(batch)
      .catch((error: unknown) => {
        this.failure ??= error;
      })
      .finally(() => {
        this.flushing = null;
        // Newly discovered URLs are pending now: lease that kind again even if its queue had run dry.
        for (const p of batch) {
          this.rearm(p.newUrls);
          if (p.redirectedPage) this.rearm(p.redirectedPage.newUrls);
        }
        this.notify();
      });
  }

  private rearm(urls: readonly NewFrontierUrl[]): void {
    for (const url of urls) {
      if (url.kind === 'internal') this.internalDry = false;
      else this.externalDry = false;
    }
  }

  private async flushNow(): Promise<void> {
    if (this.flushing) await this.flushing;
    if (this.done.length > 0) {
      this.startFlush();
      await this.flushing;
    }
    if (this.failure) throw this.failure;
  }

  /** One transaction per batch: new URLs first, then results, then the run's counters. */
  private async write(batch: Processed[]): Promise<void> {
    const newUrls: NewFrontierUrl[] = [];
    const results: UrlResult[] = [];
    const deferred: { url: string; token: number; until: number }[] = [];
    for (const p of batch) {
      newUrls.push(...p.newUrls);
      if (p.result) results.push(p.result);
      else if (p.deferUntil !== undefined)
        deferred.push({ url: p.lease.url, token: p.lease.token, until: p.deferUntil });
    }
    const fatal = batch.find((p) => p.fatal)?.fatal ?? null;
    const limits = batch.flatMap((p) => p.limits ?? []);
    const redirected = batch.flatMap((p) => (p.redirectedPage ? [p.redirectedPage] : []));
    const runId = this.run.id;
    const completed = await this.db.transaction(async (txn) => {
      const tx = txn as unknown as Db;
      const claimed =
        redirected.length > 0 ? await claimRedirectedPages(tx, runId, redirected) : new Set<string>();
      for (const page of redirected) {
        if (!claimed.has(page.url)) continue;
        newUrls.push(...page.newUrls);
      }
      await enqueueUrls(
        tx,
        runId,
        newUrls.filter((u) => u.kind === 'internal'),
      );
      await this.enqueueExternal(
        tx,
        newUrls.filter((u) => u.kind === 'external'),
      );
      const completedRows = await completeUrls(tx, runId, results);
      await deferLeases(tx, runId, deferred);
      const pages = completedRows.filter((r) => r.isPage).length + claimed.size;
      const checked = completedRows.filter((r) => r.verdict !== 'skipped').length + claimed.size;
      const broken = completedRows.filter((r) => r.verdict === 'broken' || r.verdict === 'error').length;
      await tx
        .update(runs)
        .set({
          pages_crawled: sql`${runs.pages_crawled} + ${pages}`,
          links_checked: sql`${runs.links_checked} + ${checked}`,
          broken_count: sql`${runs.broken_count} + ${broken}`,
          window: this.internalLimit,
          heartbeat_at: Date.now(),
          ...(fatal ? { error: sql`coalesce(${runs.error}, ${fatal})` } : {}),
        })
        .where(eq(runs.id, runId));
      await this.recordLimits(limits, tx);
      return completedRows.filter((r) => r.isPage).length + claimed.size;
    });
    this.pagesCrawled += completed;
    this.internalUnwritten -= batch.filter((p) => p.lease.kind === 'internal').length;
  }

  /**
   * Queues external checks up to the run's cap; those beyond it are recorded as not checked (never
   * leased), and the run says the cap was hit.
   */
  private async enqueueExternal(tx: Db, urls: NewFrontierUrl[]): Promise<void> {
    if (urls.length === 0) return;
    const cap = this.tuning.maxExternalChecks;
    this.externalCount ??= await countUrls(tx, this.run.id, 'external');
    let rest = urls;
    while (rest.length > 0 && this.externalCount < cap) {
      const room = cap - this.externalCount;
      this.externalCount += await enqueueUrls(tx, this.run.id, rest.slice(0, room));
      rest = rest.slice(room);
    }
    if (rest.length === 0) return;
    const detail = `not checked: the run reached its cap of ${cap} external link checks`;
    const skipped = await enqueueUrls(tx, this.run.id, rest, { skippedDetail: detail });
    if (skipped === 0) return;
    await this.recordLimits(
      [
        {
          limit: 'external-checks',
          detail: `${cap} external links were checked; further external links were not (the cap on external checks per run).`,
        },
      ],
      tx,
    );
  }

  /** A crash stand-in: stop without writing what is not written yet; leases expire and are redone. */
  private async abandon(): Promise<WorkOutcome> {
    this.abort.abort();
    await this.refilling;
    if (this.flushing) await this.flushing;
    return { status: 'aborted' };
  }

  // --- per URL --------------------------------------------------------------------------------

  private async fetchInternal(lease: LeasedUrl): Promise<Processed> {
    const isRoot = lease.url === this.rules.root;
    // Beyond the page cap a page is only checked: its status and headers, never its body.
    const checkOnly = this.checkOnly;
    let response: FollowedResponse;
    const start = performance.now();
    try {
      response = await fetchFollowing({
        url: lease.url,
        timeoutMs: this.tuning.requestTimeoutMs,
        signal: this.abort.signal,
        // A page is read as far as it is parsed (MAX_HTML_BYTES); a longer one arrives marked truncated.
        maxBytes: lease.isAsset || checkOnly ? 0 : MAX_HTML_BYTES,
        ...(lease.isAsset ? {} : { headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' } }),
      });
    } catch (error) {
      if (!(error instanceof NetError) || error.code === 'aborted') throw error;
      if (isBackoffSignal({ errorCode: error.code })) this.window.onBackoff();
      if (TRANSIENT_CODES.has(error.code) && lease.token < this.tuning.maxAttempts) {
        return this.deferred(lease, Date.now() + 1000);
      }
      const outcome = classifyFailure(error, lease.url);
      return this.finished(lease, outcome, {
        fatal: isRoot ? `the root URL ${lease.url} could not be fetched: ${outcome.detail}` : undefined,
      });
    }

    if (isBackoffSignal({ status: response.status })) {
      this.window.onBackoff();
      if (lease.token < this.tuning.maxAttempts) {
        const wait = retryAfterMs(response.headers, 1000, this.tuning.retryAfterCapMs);
        return this.deferred(lease, Date.now() + wait);
      }
    } else {
      this.window.onSuccess();
    }

    const outcome = classifyResponse(response, msSince(start));
    if (outcome.verdict !== 'ok') {
      return this.finished(lease, outcome, {
        fatal: isRoot
          ? `the root URL ${lease.url} answered ${response.status}: ${outcome.detail}`
          : undefined,
      });
    }
    const type = header(response.headers, 'content-type') ?? '';
    const onSite = isSameSite(response.url, this.rules.hostname);
    if (lease.isAsset || !onSite || !HTML_TYPES.test(type) || response.status >= 300) {
      let fatal: string | undefined;
      if (isRoot && !onSite) {
        fatal = `the root URL redirects to ${response.url}, outside ${this.rules.hostname}; the crawl covers ${this.rules.hostname} only`;
      } else if (isRoot) {
        fatal = `the root URL ${lease.url} did not answer with an HTML page (content-type ${type || 'missing'})`;
      }
      return this.finished(lease, outcome, { fatal });
    }
    if (checkOnly) {
      // A page the cap kept from being crawled: it has its verdict, and the run says it was cut short.
      const checked = { ...outcome, detail: `checked but not crawled: ${this.capReason().reason}` };
      return { ...this.finished(lease, checked, {}), limits: [this.capLimitHit()] };
    }
    const landed =
      this.rules.strip.size > 0 ? normalizeUrl(response.url, undefined, this.rules.strip) : response.url;
    if (landed === lease.url || landed === null) return this.parsePage(lease, response, outcome, lease.url);
    // Redirected to another page of the site: that page is parsed under its own URL (see Processed).
    const target = admit(this.rules, response.url);
    if (target === null || target.kind !== 'internal') return this.finished(lease, outcome, {});
    const parsed = this.parsePage(lease, response, outcome, target.url);
    this.seen.add(target.url);
    return {
      lease,
      result: toResult(lease, outcome, null, null),
      newUrls: [],
      ...(parsed.limits ? { limits: parsed.limits } : {}),
      redirectedPage: {
        url: target.url,
        depth: lease.depth,
        foundOn: lease.url,
        statusCode: response.status,
        contentType: outcome.contentType,
        responseMs: outcome.responseMs,
        seoFacts: parsed.result?.seoFacts ?? null,
        links: parsed.result?.links ?? [],
        newUrls: parsed.newUrls,
      },
    };
  }

  /** Parses one HTML page (once: links and SEO facts come from the same document) as `pageUrl`. */
  private parsePage(
    lease: LeasedUrl,
    response: FollowedResponse,
    outcome: LinkCheckOutcome,
    pageUrl: string,
  ): Processed {
    const { document, truncated } = parseHtmlBytes(response.body);
    const { links, linksCapped } = extractLinks(document, response.url);
    const seoFacts = this.rules.seo
      ? extractSeoFacts(document, response.url, {
          xRobotsTag: joinedHeader(response.headers['x-robots-tag']),
        })
      : null;

    const newUrls: NewFrontierUrl[] = [];
    const pageLinks: PageLink[] = [];
    const onPage = new Set<string>();
    for (const link of links) {
      const target = admit(this.rules, link.url);
      if (target === null || target.url === pageUrl || onPage.has(target.url)) continue;
      onPage.add(target.url);
      pageLinks.push([target.url, link.text, link.selector, link.attrs]);
      if (this.seen.has(target.url)) continue;
      this.seen.add(target.url);
      newUrls.push({
        url: target.url,
        kind: target.kind,
        depth: lease.depth + 1,
        foundOn: pageUrl,
        isAsset: link.asset,
      });
    }
    if (this.seen.size > 200_000) this.seen.clear();
    const limits: LimitHit[] = [];
    if (truncated !== null || response.truncated) {
      limits.push({
        limit: 'html-bytes',
        detail:
          truncated === 'nesting'
            ? `${pageUrl} nests elements more than ${MAX_HTML_NESTING} deep: it was read for links only down to there`
            : `${pageUrl} is larger than ${MAX_HTML_BYTES} bytes: only its first ${MAX_HTML_BYTES} bytes were read for links`,
      });
    }
    if (linksCapped) {
      limits.push({
        limit: 'links-per-page',
        detail: `${pageUrl} has more than ${MAX_LINKS_PER_PAGE} links: only its first ${MAX_LINKS_PER_PAGE} were checked`,
      });
    }
    const processed: Processed = { lease, result: toResult(lease, outcome, seoFacts, pageLinks), newUrls };
    if (limits.length > 0) processed.limits = limits;
    return processed;
  }

  private async checkExternal(lease: LeasedUrl): Promise<Processed> {
    const outcome = await checkLink(lease.url, {
      timeoutMs: this.tuning.requestTimeoutMs,
      retryAfterCapMs: this.tuning.retryAfterCapMs,
      signal: this.abort.signal,
    });
    return this.finished(lease, outcome, {});
  }

  private finished(
    lease: LeasedUrl,
    outcome: LinkCheckOutcome,
    extra: { fatal?: string | undefined },
  ): Processed {
    const processed: Processed = {
      lease,
      result: toResult(lease, outcome, null, null),
      newUrls: [],
    };
    if (extra.fatal) processed.fatal = extra.fatal;
    return processed;
  }

  private deferred(lease: LeasedUrl, until: number): Processed {
    return { lease, deferUntil: until, newUrls: [] };
  }
}

function toResult(
  lease: LeasedUrl,
  outcome: LinkCheckOutcome,
  seoFacts: unknown,
  /** The page's links when it was crawled as a page; null for anything only checked. */
  links: PageLink[] | null,
): UrlResult {
  return {
    url: lease.url,
    token: lease.token,
    verdict: outcome.verdict,
    statusCode: outcome.statusCode,
    redirectChain: outcome.redirectChain ? JSON.stringify(outcome.redirectChain) : null,
    detail: outcome.detail,
    contentType: outcome.contentType,
    responseMs: outcome.responseMs,
    seoFacts,
    isPage: links !== null,
    links,
  };
}

function hostOf(url: string): string {
  return parseUrl(url)?.host ?? url;
}

function joinedHeader(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}
