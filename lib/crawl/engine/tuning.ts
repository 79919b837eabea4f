/**
 * How a crawl step works: its time budget, request and lease lengths, the external checks in flight,
 * retries, and how results are batched. The defaults are the product's; tests and benchmarks pass
 * their own (`workRun`'s options).
 */

import type { CrawlTrace } from './trace';

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
  /**
   * Internal URLs leased ahead of the window, in windows; more are leased once half are left. On
   * PGlite a lease queues behind the result write in progress (one thread runs every statement):
   * at 4 a 5,000-page crawl spends about a third of its crawl with the window short of URLs. 8
   * brings that to a tenth, yet made the same crawl 1.2-3.3 times slower in wall time (window full at
   * 100 requests, the process mostly idle: the requests themselves took longer; not understood yet,
   * see the README's crawl benchmark), so the default stays 4. BENCH_TUNING tries others.
   */
  leaseWindows: number;
  /** Results written per statement batch. */
  flushSize: number;
  /** Results never wait longer than this to be written. */
  flushIntervalMs: number;
  /**
   * Finished results held for the next write, plus internal requests in flight, beyond which no more
   * internal requests are sent until that write takes the held ones. Each result holds its page's
   * links and SEO facts until written: without a bound they piled up while the database slowed as
   * the run grew (writes of 0.5 s and more past 500,000 pages), and a 1,000,000-page crawl peaked at
   * 463 MB where a 100,000-page one took 174. The write under way is not counted, so requests go on
   * while it runs (a bound that counted it left the window empty for a fifth of that crawl): at most
   * about twice this many results are in memory, the batch being written and those held for the next.
   */
  maxHeldResults: number;
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
  leaseWindows: 4,
  flushSize: 250,
  flushIntervalMs: 300,
  maxHeldResults: 2_000,
  maxExternalChecks: MAX_EXTERNAL_CHECKS,
};

/** A step's options: the tuning to change, and a signal that cancels the step. */
export interface WorkOptions extends Partial<EngineTuning> {
  signal?: AbortSignal;
  /** Diagnosis only (the crawl benchmark's BENCH_TRACE): where the step's time goes. */
  trace?: CrawlTrace;
}
