/**
 * Where a crawl's wall time goes, for diagnosis only: the crawl benchmark passes one with
 * BENCH_TRACE=1 (tests/bench/crawl.bench.ts); production passes none and pays one `undefined`
 * check per span. It sums the time of named spans (database statements and transactions, each
 * finalization statement) and, for the step loop, how long the internal window was full, waiting
 * on a lease or a write, or empty: time the crawl spent waiting rather than working.
 */
export class CrawlTrace {
  private readonly spans = new Map<string, { count: number; ms: number }>();
  private readonly gaps = new Map<string, number>();
  private last: { at: number; state: string } | null = null;

  /** Times `work` under `name` (spans of one name may overlap: their times add up). */
  async span<T>(name: string, work: () => Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await work();
    } finally {
      this.add(name, performance.now() - start);
    }
  }

  add(name: string, ms: number): void {
    const entry = this.spans.get(name) ?? { count: 0, ms: 0 };
    entry.count++;
    entry.ms += ms;
    this.spans.set(name, entry);
  }

  /** The step loop's state from now on; the time since the last call is charged to the previous state. */
  state(state: string | null): void {
    const now = performance.now();
    if (this.last) this.gaps.set(this.last.state, (this.gaps.get(this.last.state) ?? 0) + now - this.last.at);
    this.last = state === null ? null : { at: now, state };
  }

  report(): string {
    const lines: string[] = [];
    const fmt = (ms: number) => `${ms.toFixed(0).padStart(7)} ms`;
    for (const [name, { count, ms }] of [...this.spans].sort((a, b) => b[1].ms - a[1].ms))
      lines.push(`  ${fmt(ms)}  ${String(count).padStart(6)}x  ${name}`);
    if (this.gaps.size > 0) lines.push('  step loop, internal window:');
    for (const [name, ms] of [...this.gaps].sort((a, b) => b[1] - a[1])) lines.push(`  ${fmt(ms)}  ${name}`);
    return lines.join('\n');
  }
}

/** `work` timed under `name` when there is a trace; just `work` otherwise. */
export function traced<T>(trace: CrawlTrace | undefined, name: string, work: () => Promise<T>): Promise<T> {
  return trace ? trace.span(name, work) : work();
}
