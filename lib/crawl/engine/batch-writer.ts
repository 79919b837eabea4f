/**
 * The batch writer of a crawl step: the URLs the page work finished are held until a batch is due
 * (full, the flush interval passed, or the window waiting on discoveries not yet written), then
 * written back in one transaction (new URLs first, then results and deferrals, then the run's
 * counters) while requests stay in flight. External checks are kept within the run's cap, and the
 * limits the step hit are recorded once each.
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { type LimitHit, type RunLimit, runs } from '@/lib/db/schema';
import { recordLimitHit } from '../runs/limits';
import {
  claimRedirectedPages,
  completeUrls,
  countUrls,
  enqueueUrls,
  type NewFrontierUrl,
  type UrlResult,
} from './frontier';
import { deferLeases } from './frontier-leases';
import type { Processed } from './page-work';
import { type CrawlTrace, traced } from './trace';
import type { EngineTuning } from './tuning';

/** What the writer tells its step, and asks of it. */
export interface BatchWriterHooks {
  /** The step's internal window now: the run keeps it for its next step. */
  window(): number;
  /** A batch is committed: `pages` of its URLs became pages. */
  committed(batch: readonly Processed[], pages: number): void;
  /** A write failed: the step fails with the error. */
  failed(error: unknown): void;
  /** A write ended, committed or failed: the URLs the batch discovered are leasable now. */
  ended(batch: readonly Processed[]): void;
}

export class BatchWriter {
  private done: Processed[] = [];
  /** The write in flight: requests keep being dispatched meanwhile. */
  private flushing: Promise<void> | null = null;
  private lastFlush = Date.now();
  /** External URLs in the run's frontier, counted once per step when first needed. */
  private externalCount: number | null = null;
  /** Limits this step already recorded on the run: one statement per limit, not per result. */
  private readonly limitsRecorded = new Set<RunLimit>();

  constructor(
    private readonly db: Db,
    private readonly runId: string,
    private readonly tuning: EngineTuning,
    private readonly trace: CrawlTrace | undefined,
    private readonly hooks: BatchWriterHooks,
  ) {}

  add(processed: Processed): void {
    this.done.push(processed);
  }

  /** Results held for the next write (not the write in flight). */
  get held(): number {
    return this.done.length;
  }

  /** Nothing waits to be written and no write is in flight. */
  get idle(): boolean {
    return this.done.length === 0 && this.flushing === null;
  }

  /** The write in flight, if any. */
  get inFlight(): Promise<void> | null {
    return this.flushing;
  }

  /**
   * Starts a write when one is due. `windowWaits`: the window has room and nothing is queued, so
   * held results that discovered URLs should not wait out the flush interval. `held`: the step
   * dispatches nothing until a write takes what is held (maxHeldResults), so that is due now.
   */
  flushIfDue(windowWaits: boolean, held: boolean): void {
    if (this.shouldFlush(windowWaits, held)) this.startFlush();
  }

  private shouldFlush(windowWaits: boolean, held: boolean): boolean {
    if (this.flushing || this.done.length === 0) return false;
    return (
      held ||
      this.done.length >= this.tuning.flushSize ||
      Date.now() - this.lastFlush >= this.tuning.flushIntervalMs ||
      this.starving(windowWaits)
    );
  }

  /**
   * The window has room, nothing is queued, and results hold URLs not yet written: discoveries become
   * leasable only once written, so waiting out the flush interval would leave the window idle (it
   * did, for most of a crawl's first second).
   */
  private starving(windowWaits: boolean): boolean {
    return windowWaits && this.done.some((p) => p.newUrls.length > 0);
  }

  private startFlush(): void {
    const batch = this.done;
    this.done = [];
    this.lastFlush = Date.now();
    this.flushing = traced(this.trace, 'write batch', () => this.write(batch))
      .then((pages) => this.hooks.committed(batch, pages))
      .catch((error: unknown) => this.hooks.failed(error))
      .finally(() => {
        this.flushing = null;
        this.hooks.ended(batch);
      });
  }

  /** Writes everything held, after the write in flight. */
  async flushNow(): Promise<void> {
    if (this.flushing) await this.flushing;
    if (this.done.length > 0) {
      this.startFlush();
      await this.flushing;
    }
  }

  /** One transaction per batch: new URLs first, then results, then the run's counters. Returns the pages it completed. */
  private async write(batch: Processed[]): Promise<number> {
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
    const runId = this.runId;
    const completed = await this.db.transaction(async (tx) => {
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
          window: this.hooks.window(),
          heartbeat_at: Date.now(),
          ...(fatal ? { error: sql`coalesce(${runs.error}, ${fatal})` } : {}),
        })
        .where(eq(runs.id, runId));
      await this.recordLimits(limits, tx);
      return completedRows.filter((r) => r.isPage).length + claimed.size;
    });
    return completed;
  }

  /**
   * Queues external checks up to the run's cap; those beyond it are recorded as not checked (never

   * leased), and the run says the cap was hit.
   */
  private async enqueueExternal(tx: Db, urls: NewFrontierUrl[]): Promise<void> {
    if (urls.length === 0) return;
    const cap = this.tuning.maxExternalChecks;
    this.externalCount ??= await countUrls(tx, this.runId, 'external');
    let rest = urls;
    while (rest.length > 0 && this.externalCount < cap) {
      const room = cap - this.externalCount;
      this.externalCount += await enqueueUrls(tx, this.runId, rest.slice(0, room));
      rest = rest.slice(room);
    }
    if (rest.length === 0) return;
    const detail = `not checked: the run reached its cap of ${cap} external link checks`;
    const skipped = await enqueueUrls(tx, this.runId, rest, { skippedDetail: detail });
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

  /**
   * Records limits not yet recorded by this step (recordLimitHit keeps the run's list free of
   * repeats; this saves the statements). A failed transaction fails the step, whose set goes with it.
   */
  async recordLimits(hits: readonly LimitHit[], db: Db = this.db): Promise<void> {
    for (const hit of hits) {
      if (this.limitsRecorded.has(hit.limit)) continue;
      this.limitsRecorded.add(hit.limit);
      await recordLimitHit(db, this.runId, hit.limit, hit.detail);
    }
  }
}
