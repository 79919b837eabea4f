/**
 * Crawl benchmark: Sitewatch's crawler against linkinator on synthetic local sites of 5,000 and
 * 20,000 pages (tests/support/test-site.ts), side by side.
 *
 *   npm run bench:crawl                       # PGlite (the embedded default)
 *   BENCH_DATABASE_URL=postgres://... npm run bench:crawl   # a Postgres server
 *   npm run bench:crawl -- --pages 5000       # one size only
 *   npm run bench:crawl -- --cold             # no warm-up crawl (a freshly started process)
 *   npm run bench:crawl -- --only sitewatch   # Sitewatch alone, no ratio
 *   npm run bench:crawl -- --runs 1           # one run of each tool instead of three
 *
 * Diagnostics: BENCH_PROFILE=file.cpuprofile (the measured crawl's main thread; BENCH_HEAP=file.json
 * adds a sampling allocation profile), BENCH_VERBOSE=1 (phases, CPU per thread, and what the
 * process was doing at its RSS peak and where that memory was), and
 * BENCH_NODE_FLAGS='--trace-gc' (extra Node flags for the Sitewatch child), BENCH_TRACE=1 (where the
 * measured crawl's wall time goes: database statements, finalization's steps, and what the step
 * loop's window waited on; lib/crawl/engine/trace.ts).
 *
 * The sites are served by this process; each crawler runs in its own child process so its peak RSS
 * is its own. Sitewatch runs the same code path as production: a run row, seeding, bounded work
 * steps over the Postgres frontier, finalization (broken links, SEO, ledger). Its database is
 * prepared first in a separate process, as a running server's already is (PGlite's initdb at first
 * boot is a one-time cost that would otherwise dominate the memory figure).
 *
 * Both crawlers first crawl a 1,000-page warm-up site in the same process, untimed, so the figure
 * is a process that has run before (JIT-compiled JavaScript, and for Sitewatch the embedded
 * Postgres compiled from WebAssembly), as a server that has been up is: compiling PGlite's
 * WebAssembly alone takes seconds of CPU on background threads, which a cold process spends while
 * it crawls. Peak RSS covers the whole life of the process, warm-up included. `--cold` measures
 * fresh processes instead.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serverEnv, serverNodeArgs } from '../../scripts/node-flags.mjs';
import { compileBench } from './compile';
import { machineLine } from './machine';

interface Measurement {
  tool: 'sitewatch' | 'linkinator';
  pages: number;
  linksChecked: number;
  broken: number;
  seconds: number;
  pagesPerSecond: number;
  peakRssMb: number;
  /** CPU seconds the measured crawl used across all the process's threads. */
  cpuSeconds: number;
}

const WARM_UP_PAGES = 1_000;
/** From this many pages the run's database figures and report reads are printed (crawl-scale.ts). */
const SCALE_FIGURES_PAGES = 100_000;
const self = fileURLToPath(import.meta.url);

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

const verbose = Boolean(process.env.BENCH_VERBOSE);
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/**
 * Samples RSS every 25 ms; the peak is what a process needs to hold the crawl. With BENCH_VERBOSE
 * it prints RSS as each phase starts and, at the end, what the process was doing at its peak and
 * where the memory was then (memoryMap).
 */
class RssSampler {
  private peak = process.memoryUsage.rss();
  private phase = 'start';
  private atPeak = '';
  private mappedAt = 0;
  private readonly timer = setInterval(() => this.sample(), 25);

  enter(phase: string): void {
    this.phase = phase;
    if (verbose) console.error(`  ${phase}: RSS ${mb(process.memoryUsage.rss())} MB`);
  }

  /** Stops sampling and returns the peak in MB. */
  stop(): number {
    clearInterval(this.timer);
    this.sample();
    if (verbose) console.error(`  peak RSS ${mb(this.peak)} MB during ${this.atPeak || this.phase}`);
    return mb(this.peak);
  }

  private sample(): void {
    const now = process.memoryUsage.rss();
    if (now <= this.peak) return;
    this.peak = now;
    // Reading the memory map takes milliseconds: only for a peak at least 4 MB above the last one read.
    if (verbose && now - this.mappedAt >= 4 * 1024 * 1024) {
      this.mappedAt = now;
      this.atPeak = `${this.phase} (V8 heap ${mb(process.memoryUsage().heapTotal)} MB; ${memoryMap()})`;
    }
  }
}

/**
 * Resident memory by kind of mapping (Linux /proc/self/smaps), in MB. Anonymous mappings are told
 * apart by size, which on Node says what they hold: V8 heap pages are 256 KB, malloc arenas and
 * V8 code spaces up to 64 MB, and WebAssembly memories (PGlite's) are reserved far larger.
 */
function memoryMap(): string {
  let text: string;
  try {
    text = readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return 'no /proc';
  }
  const kinds = new Map<string, number>();
  let file = '';
  let kind = '';
  for (const line of text.split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) {
      file = line.split(/\s+/).slice(5).join(' ');
      kind = file ? (file.startsWith('/') ? 'files' : file) : '';
    } else if (line.startsWith('Size:') && !file) {
      const kb = Number(line.split(/\s+/)[1]);
      kind = kb <= 256 ? 'V8 heap pages' : kb <= 65_536 ? 'malloc and code' : 'WebAssembly';
    } else if (line.startsWith('Rss:')) {
      kinds.set(kind, (kinds.get(kind) ?? 0) + Number(line.split(/\s+/)[1]));
    }
  }
  return [...kinds]
    .filter(([, kb]) => kb >= 1024)
    .sort((x, y) => y[1] - x[1])
    .map(([name, kb]) => `${name} ${Math.round(kb / 1024)}`)
    .join(', ');
}

/**
 * CPU seconds per thread of this process (Linux), so the figure includes V8's background threads
 * (garbage collection, JIT and WebAssembly compilation) and not only the main thread.
 */
function threadCpuSeconds(): Map<string, number> {
  const out = new Map<string, number>();
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(tid, (Number(fields[11]) + Number(fields[12])) / 100);
    }
  } catch {
    // Not Linux: the CPU column stays empty.
  }
  return out;
}

function cpuSince(before: Map<string, number>): number {
  let total = 0;
  for (const [tid, seconds] of threadCpuSeconds()) {
    const used = seconds - (before.get(tid) ?? 0);
    total += used;
    if (verbose) console.error(`  thread ${tid}: ${used.toFixed(2)} s`);
  }
  return total;
}

/** BENCH_PROFILE=path.cpuprofile records the measured crawl's main thread (open it in DevTools). */
async function startProfiler(): Promise<{ stop: () => Promise<void> } | null> {
  const path = process.env.BENCH_PROFILE;
  if (!path) return null;
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  if (process.env.BENCH_HEAP)
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  return {
    stop: async () => {
      const { profile } = await session.post('Profiler.stop');
      if (process.env.BENCH_HEAP) {
        const heap = await session.post('HeapProfiler.stopSampling');
        writeFileSync(process.env.BENCH_HEAP, JSON.stringify(heap.profile));
      }
      writeFileSync(path, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

/**
 * Creates the database a running server would already have: PGlite's data folder initialized and
 * migrated (a one-time step at first boot), with an organization and one site per root URL. Run in
 * its own process so initdb's one-off memory does not count against the crawl.
 */
async function prepareSitewatch(
  roots: { rootUrl: string; pages: number }[],
): Promise<{ dataDir: string; siteIds: string[] }> {
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { openDatabase } = await import('@/lib/db/client');
  const { migrate } = await import('@/lib/db/migrate');
  const { organizations, sites, billingSettings } = await import('@/lib/db/schema');
  const dataDir = mkdtempSync(`${tmpdir()}/sitewatch-bench-`);
  const handle = await openDatabase(process.env.BENCH_DATABASE_URL, dataDir);
  await migrate(handle);
  const { db } = handle;
  const tenantId = `bench-${Date.now()}`;
  await db.insert(organizations).values({ id: tenantId, name: 'Bench', slug: tenantId });
  // Overage on: the benchmark measures the crawler, not the monthly allowance.
  await db
    .insert(billingSettings)
    .values({ tenant_id: tenantId, overage_enabled: 1, updated_at: Date.now() });
  const siteIds: string[] = [];
  for (const { rootUrl, pages } of roots) {
    const url = new URL(rootUrl);
    const [site] = await db
      .insert(sites)
      .values({
        tenant_id: tenantId,
        hostname: url.hostname,
        root_url: rootUrl,
        cadence_minutes: 10_080,
        max_pages: pages + 10,
        max_concurrency: 100,
        enabled: 1,
        created_at: Date.now(),
        scanner_enabled: 1,
        a11y_enabled: 0,
        performance_enabled: 0,
        uptime_enabled: 0,
        seo_enabled: 1,
      })
      .returning();
    if (!site) throw new Error('could not create the bench site');
    siteIds.push(site.id);
  }
  await handle.close();
  return { dataDir, siteIds };
}

/**
 * The measured part: open the database as a server would, crawl the warm-up site (unless cold),
 * then crawl the measured site through the production path.
 */
async function runSitewatch(dataDir: string, siteIds: string[]): Promise<Measurement> {
  const memory = new RssSampler();
  process.env.ALLOW_PRIVATE_NETWORK = 'true';
  process.env.EMBEDDED_RUNNER = 'false';
  const { eq } = await import('drizzle-orm');
  const { openDatabase } = await import('@/lib/db/client');
  const { migrate } = await import('@/lib/db/migrate');
  const { sites } = await import('@/lib/db/schema');
  const { startCrawl, loadRun } = await import('@/lib/crawl/runs/run');
  const { crawlEvents } = await import('@/jobs/crawl-events');
  const { workRun } = await import('@/lib/crawl/engine/step');
  const { seedRun } = await import('@/lib/crawl/runs/seed');
  const { finalizeRun } = await import('@/lib/crawl/runs/finalize');
  const { rmSync } = await import('node:fs');

  memory.enter('open the database');
  const handle = await openDatabase(process.env.BENCH_DATABASE_URL, dataDir);
  await migrate(handle); // a no-op on a migrated database, as at every server start
  const { db } = handle;
  // BENCH_TUNING='{"flushSize":500}' tries engine settings without editing code.
  const tuning = process.env.BENCH_TUNING ? JSON.parse(process.env.BENCH_TUNING) : {};
  const { CrawlTrace } = await import('@/lib/crawl/engine/trace');

  const crawl = async (siteId: string, label: string) => {
    const [site] = await db.select().from(sites).where(eq(sites.id, siteId));
    if (!site) throw new Error('bench site missing');
    memory.enter(`${label}: start and seed`);
    // BENCH_TRACE=1: where the measured crawl's wall time goes (lib/crawl/engine/trace.ts).
    const trace = process.env.BENCH_TRACE && label === 'measured' ? new CrawlTrace() : undefined;
    const options = { ...tuning, trace };
    const t0 = performance.now();
    const { run } = await startCrawl(db, site, { trigger: 'manual', chainA11y: false, events: crawlEvents });
    await seedRun(db, run.id, options);
    const t1 = performance.now();
    memory.enter(`${label}: crawl`);
    for (;;) {
      const outcome = await workRun(db, run.id, options);
      if (outcome.status === 'exhausted' || outcome.status === 'stopped') break;
      if (outcome.status === 'wait')
        await new Promise((r) => setTimeout(r, Math.max(10, outcome.untilMs - Date.now())));
    }
    const t2 = performance.now();
    memory.enter(`${label}: finalize`);
    await finalizeRun(db, run.id, Date.now(), trace);
    if (verbose || trace) {
      const ms = (from: number, to: number) => `${(to - from).toFixed(0)} ms`;
      const { rss, heapUsed, heapTotal } = process.memoryUsage();
      console.error(
        `  ${label}: start and seed ${ms(t0, t1)}, crawl ${ms(t1, t2)}, finalize ${ms(t2, performance.now())}; ` +
          `then RSS ${mb(rss)} MB, V8 heap ${mb(heapUsed)} MB used of ${mb(heapTotal)} MB`,
      );
      if (trace) console.error(trace.report());
    }
    const finished = await loadRun(db, run.id);
    if (!finished) throw new Error('run vanished');
    return finished;
  };

  const measured = siteIds.at(-1) as string;
  for (const siteId of siteIds.slice(0, -1)) await crawl(siteId, 'warm-up');
  const profiler = await startProfiler();
  const cpu = threadCpuSeconds();
  const started = performance.now();
  const finished = await crawl(measured, 'measured');
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = cpuSince(cpu);
  await profiler?.stop();
  const peakRssMb = memory.stop();
  // At scale, what the run left in the database and how its reports read (after the measurement).
  if (finished.pages_crawled >= SCALE_FIGURES_PAGES) {
    const { printDatabaseFigures, timeComparedReads, timeReportReads } = await import('./crawl-scale');
    await printDatabaseFigures(db, finished.id);
    await timeReportReads(db, finished);
    await timeComparedReads(db, finished);
  }
  await handle.close();
  rmSync(dataDir, { recursive: true, force: true });
  return {
    tool: 'sitewatch',
    pages: finished.pages_crawled,
    linksChecked: finished.links_checked,
    broken: finished.broken_count,
    seconds,
    pagesPerSecond: finished.pages_crawled / seconds,
    peakRssMb,
    cpuSeconds,
  };
}

async function runLinkinator(roots: string[]): Promise<Measurement> {
  const { LinkChecker } = await import('linkinator');
  const memory = new RssSampler();
  const check = (rootUrl: string) =>
    new LinkChecker().check({ path: rootUrl, recurse: true, concurrency: 100, timeout: 10_000 });
  const measured = roots.at(-1) as string;
  memory.enter('warm-up: crawl');
  for (const root of roots.slice(0, -1)) await check(root);
  memory.enter('measured: crawl');
  const cpu = threadCpuSeconds();
  const started = performance.now();
  const result = await check(measured);
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = cpuSince(cpu);
  const peakRssMb = memory.stop();
  const origin = new URL(measured).origin;
  const pages = new Set(
    result.links
      .filter((l) => l.url.startsWith(origin) && l.status === 200 && l.state === 'OK')
      .map((l) => l.url),
  ).size;
  return {
    tool: 'linkinator',
    pages,
    linksChecked: new Set(result.links.map((l) => l.url)).size,
    broken: new Set(result.links.filter((l) => l.state === 'BROKEN').map((l) => l.url)).size,
    seconds,
    pagesPerSecond: pages / seconds,
    peakRssMb,
    cpuSeconds,
  };
}

/**
 * Both crawlers run with the flags and environment the Sitewatch server runs with
 * (scripts/node-flags.mjs), so neither is measured with a runtime setting the other lacks;
 * BENCH_NODE_FLAGS adds more to Sitewatch.
 */
function nodeFlags(role: string): string[] {
  if (role === 'prepare') return [];
  const extra = process.env.BENCH_NODE_FLAGS;
  return [
    ...serverNodeArgs(process.env.NODE_OPTIONS),
    ...(extra && role === 'sitewatch' ? extra.split(' ') : []),
  ];
}

let compiled: Promise<string> | null = null;

/** Runs one role in a child process and reads its result from the last line of stdout. */
async function child<T>(role: string, input: unknown): Promise<T> {
  compiled ??= compileBench(self, 'crawl.bench');
  const entry = await compiled;
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      [...nodeFlags(role), entry, '--child', role, '--input', JSON.stringify(input)],
      { stdio: ['ignore', 'pipe', 'inherit'], env: role === 'prepare' ? process.env : serverEnv() },
    );
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    proc.on('error', reject);
    proc.on('exit', (code) => {
      const lines = out.trim().split('\n');
      const last = lines.pop() ?? '';
      // Whatever else the child printed (BENCH_NODE_FLAGS='--trace-gc' writes to stdout) is kept.
      if (lines.some((line) => line.trim() !== '')) process.stderr.write(`${lines.join('\n')}\n`);
      if (code !== 0) return reject(new Error(`${role} child exited with ${code}: ${out}`));
      try {
        resolve(JSON.parse(last) as T);
      } catch {
        reject(new Error(`${role} child printed no result: ${out}`));
      }
    });
  });
}

async function childMain(role: string, input: string): Promise<unknown> {
  if (role === 'prepare') return prepareSitewatch(JSON.parse(input));
  if (role === 'sitewatch') {
    const { dataDir, siteIds } = JSON.parse(input) as { dataDir: string; siteIds: string[] };
    return runSitewatch(dataDir, siteIds);
  }
  return runLinkinator(JSON.parse(input) as string[]);
}

/** Median of a non-empty list. */
function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** One table row: medians of speed and CPU, the highest peak RSS (the figure a limit must allow). */
function summarize(pages: number, runs: Measurement[]): string[] {
  const first = runs[0] as Measurement;
  return [
    String(pages),
    first.tool,
    String(Math.min(...runs.map((m) => m.pages))),
    String(Math.min(...runs.map((m) => m.linksChecked))),
    String(Math.max(...runs.map((m) => m.broken))),
    median(runs.map((m) => m.seconds)).toFixed(2),
    median(runs.map((m) => m.pagesPerSecond)).toFixed(0),
    median(runs.map((m) => m.cpuSeconds)).toFixed(2),
    String(Math.max(...runs.map((m) => m.peakRssMb))),
  ];
}

const range = (values: number[]) =>
  values.length > 1 ? ` (${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)})` : '';

async function main(): Promise<void> {
  const role = arg('child');
  if (role) {
    const result = await childMain(role, arg('input') as string);
    process.stdout.write(`\n${JSON.stringify(result)}\n`);
    process.exit(0);
  }

  const { startSyntheticSite } = await import('../support/test-site');
  const sizes = arg('pages') ? [Number(arg('pages'))] : [5_000, 20_000];
  const runs = Number(arg('runs') ?? 3);
  const cold = process.argv.includes('--cold');
  // `--only sitewatch` skips linkinator (diagnosing Sitewatch's own figures).
  const onlySitewatch = arg('only') === 'sitewatch';
  const database = process.env.BENCH_DATABASE_URL ? 'Postgres' : 'PGlite on disk';
  console.log(machineLine());
  console.log(
    `crawl benchmark: Sitewatch (${database}) vs linkinator, synthetic sites on 127.0.0.1, ${
      cold ? 'fresh processes' : `after a ${WARM_UP_PAGES.toLocaleString('en')}-page warm-up crawl`
    }, ${runs} run${runs === 1 ? '' : 's'} of each, alternating\n`,
  );
  const rows: string[][] = [];
  // The warm-up site stands on another loopback address, as another customer's site would.
  const warmUp = cold ? null : await startSyntheticSite({ pages: WARM_UP_PAGES, host: '127.0.0.2' });
  try {
    for (const pages of sizes) {
      const site = await startSyntheticSite({ pages });
      const ours: Measurement[] = [];
      const theirs: Measurement[] = [];
      try {
        const sites = [...(warmUp ? [warmUp] : []), site];
        // The tools take turns, so a drift in the machine's speed (it is shared) reaches both.
        for (let run = 0; run < runs; run++) {
          const prepared = await child<{ dataDir: string; siteIds: string[] }>(
            'prepare',
            sites.map((s) => ({ rootUrl: s.rootUrl, pages: s.expected.pages })),
          );
          const mine = await child<Measurement>('sitewatch', prepared);
          ours.push(mine);
          if (mine.pages !== site.expected.pages || mine.broken !== site.expected.broken.length) {
            console.warn(
              `! sitewatch found ${mine.pages} pages and ${mine.broken} broken targets; the site has ${site.expected.pages} and ${site.expected.broken.length}`,
            );
          }
          if (!onlySitewatch)
            theirs.push(
              await child<Measurement>(
                'linkinator',
                sites.map((s) => s.rootUrl),
              ),
            );
          if (verbose)
            console.error(
              `  run ${run + 1}: ${[mine, ...theirs.slice(-1)].map((m) => `${m.tool} ${m.pagesPerSecond.toFixed(0)} pages/s, ${m.peakRssMb} MB`).join('; ')}`,
            );
        }
      } finally {
        await site.close();
      }
      rows.push(summarize(pages, ours));
      if (theirs.length > 0) {
        rows.push(summarize(pages, theirs));
        // Each run's ratio is against the linkinator run right after it; the range shows the spread.
        const speed = ours.map((m, i) => m.pagesPerSecond / (theirs[i] as Measurement).pagesPerSecond);
        const cpu = ours.map((m, i) => m.cpuSeconds / (theirs[i] as Measurement).cpuSeconds);
        const last = rows.slice(-2) as [string[], string[]];
        rows.push([
          '',
          'ratio',
          '',
          '',
          '',
          '',
          `${median(speed).toFixed(2)}x${range(speed)}`,
          `${median(cpu).toFixed(2)}x`,
          `${(Number(last[0][8]) / Number(last[1][8])).toFixed(2)}x`,
        ]);
      }
    }
  } finally {
    await warmUp?.close();
  }
  const header = [
    'site',
    'tool',
    'pages',
    'links checked',
    'broken',
    'seconds',
    'pages/s',
    'CPU s',
    'peak RSS MB',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i] ?? 0)).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  if (runs > 1)
    console.log(
      `\nseconds, pages/s and CPU s: medians of ${runs} runs; peak RSS: the highest; pages and links: the fewest; ratio: the median of each run against the linkinator run after it (range)`,
    );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
