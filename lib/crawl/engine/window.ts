/**
 * The crawl's in-flight window, sized by AIMD as TCP does: it starts small and, until the first
 * sign of strain, grows by one per healthy response (doubling every round trip: "slow start", so a
 * fast site reaches its concurrency quickly); after that it grows by one per window's worth of
 * healthy responses. A 429, a 503 or a timeout halves it, once per window: the requests already in
 * flight when it shrank report the same strain and must not shrink it again.
 */
export interface WindowOptions {
  /** Upper bound: the site's maxConcurrency. */
  max: number;
  /** Lower bound, default 2. */
  min?: number;
  /** Starting size, default `min`. */
  initial?: number;
}

export class AdaptiveWindow {
  readonly min: number;
  readonly max: number;
  private size: number;
  private slowStart = true;
  private healthy = 0;
  private sinceDecrease = 0;
  /** Responses to ignore backoffs for after a decrease: as many as were in flight when it happened. */
  private guard = 0;

  constructor({ max, min = 2, initial }: WindowOptions) {
    if (!(min >= 1 && max >= min)) throw new RangeError(`invalid window bounds [${min}, ${max}]`);
    this.min = min;
    this.max = max;
    this.size = clamp(Math.floor(initial ?? min), min, max);
  }

  /** Requests that may be in flight now. */
  get current(): number {
    return this.size;
  }

  onSuccess(): void {
    this.sinceDecrease++;
    if (this.slowStart) {
      this.size = Math.min(this.max, this.size + 1);
      return;
    }
    this.healthy++;
    if (this.healthy >= this.size) {
      this.healthy = 0;
      this.size = Math.min(this.max, this.size + 1);
    }
  }

  onBackoff(): void {
    const alreadyReacted = this.sinceDecrease < this.guard;
    this.sinceDecrease++;
    if (alreadyReacted) return;
    this.slowStart = false;
    this.healthy = 0;
    // The response that triggered this decrease is the first of the window it guards.
    this.sinceDecrease = 1;
    this.guard = this.size;
    this.size = Math.max(this.min, Math.floor(this.size / 2));
  }
}

/** Whether a response or failure is a sign of an overloaded site (the window should shrink). */
export function isBackoffSignal(outcome: { status?: number | null; errorCode?: string | null }): boolean {
  return outcome.status === 429 || outcome.status === 503 || outcome.errorCode === 'timeout';
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, n));
}
