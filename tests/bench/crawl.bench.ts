/**
 * Crawl benchmark: Sitewatch's crawler against linkinator on synthetic local sites of 5,000 and
 * 20,000 pages (tests/support/test-site.ts), side by side.
 *
 *   npm run bench:crawl                       # PGlite (the embedded default)
 *   BENCH_DATABASE_URL=postgres://... npm run bench:crawl   # a Postgres server
 *   npm run bench:crawl -- --pages 5000       # one size only
 *   npm run bench:crawl -- --cold             # no warm-up crawl (a freshly started process)
 *
 * Diagnostics: BENCH_PROFILE=file.cpuprofile (the measured crawl's main thread; BENCH_HEAP=file.json
 * adds a sampling allocation profile), BENCH_VERBOSE=1 (phases and CPU per thread), and
 * BENCH_NODE_FLAGS='--trace-gc' (extra Node flags for the Sitewatch child).
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
import { SERVER_NODE_FLAGS } from '../../scripts/node-flags.mjs';

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
const self = fileURLToPath(import.meta.url);

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

/** Samples RSS every 25 ms; the peak is what a process needs to hold the crawl. */
function rssSampler(): () => number {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 25);
  return () => {
    clearInterval(timer);
    return Math.round(Math.max(peak, process.memoryUsage.rss()) / 1024 / 1024);
  };
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
    if (process.env.BENCH_VERBOSE) console.error(`  thread ${tid}: ${used.toFixed(2)} s`);
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
  const peak = rssSampler();
  process.env.ALLOW_PRIVATE_NETWORK = 'true';
  process.env.EMBEDDED_RUNNER = 'false';
  const { eq } = await import('drizzle-orm');
  const { openDatabase } = await import('@/lib/db/client');
  const { migrate } = await import('@/lib/db/migrate');
  const { sites } = await import('@/lib/db/schema');
  const { startCrawl, loadRun } = await import('@/lib/crawl/run');
  const { workRun } = await import('@/lib/crawl/engine');
  const { seedRun } = await import('@/lib/crawl/seed');
  const { finalizeRun } = await import('@/lib/crawl/finalize');
  const { rmSync } = await import('node:fs');

  const handle = await openDatabase(process.env.BENCH_DATABASE_URL, dataDir);
  await migrate(handle); // a no-op on a migrated database, as at every server start
  const { db } = handle;
  // BENCH_TUNING='{"flushSize":500}' tries engine settings without editing code.
  const tuning = process.env.BENCH_TUNING ? JSON.parse(process.env.BENCH_TUNING) : {};

  const crawl = async (siteId: string) => {
    const [site] = await db.select().from(sites).where(eq(sites.id, siteId));
    if (!site) throw new Error('bench site missing');
    const t0 = performance.now();
    const { run } = await startCrawl(db, site, { trigger: 'manual', chainA11y: false });
    await seedRun(db, run.id, tuning);
    const t1 = performance.now();
    for (;;) {
      const outcome = await workRun(db, run.id, tuning);
      if (outcome.status === 'exhausted' || outcome.status === 'stopped') break;
      if (outcome.status === 'wait')
        await new Promise((r) => setTimeout(r, Math.max(10, outcome.untilMs - Date.now())));
    }
    const t2 = performance.now();
    const rssAtCrawlEnd = process.memoryUsage.rss();
    await finalizeRun(db, run.id);
    if (process.env.BENCH_VERBOSE) {
      const ms = (from: number, to: number) => `${(to - from).toFixed(0)} ms`;
      const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
      const { rss, heapUsed, heapTotal } = process.memoryUsage();
      console.error(
        `  phases: start and seed ${ms(t0, t1)}, crawl ${ms(t1, t2)}, finalize ${ms(t2, performance.now())}; ` +
          `RSS ${mb(rssAtCrawlEnd)} after the crawl, ${mb(rss)} after finalizing (heap ${mb(heapUsed)} of ${mb(heapTotal)})`,
      );
    }
    const finished = await loadRun(db, run.id);
    if (!finished) throw new Error('run vanished');
    return finished;
  };

  const measured = siteIds.at(-1) as string;
  for (const siteId of siteIds.slice(0, -1)) await crawl(siteId);
  const profiler = await startProfiler();
  const cpu = threadCpuSeconds();
  const started = performance.now();
  const finished = await crawl(measured);
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = cpuSince(cpu);
  await profiler?.stop();
  const peakRssMb = peak();
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
  const peak = rssSampler();
  const check = (rootUrl: string) =>
    new LinkChecker().check({ path: rootUrl, recurse: true, concurrency: 100, timeout: 10_000 });
  const measured = roots.at(-1) as string;
  for (const root of roots.slice(0, -1)) await check(root);
  const cpu = threadCpuSeconds();
  const started = performance.now();
  const result = await check(measured);
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = cpuSince(cpu);
  const peakRssMb = peak();
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
 * Both crawlers run with the flags the Sitewatch server runs with (scripts/node-flags.mjs), so
 * neither is measured with a runtime setting the other lacks; BENCH_NODE_FLAGS adds more to Sitewatch.
 */
function nodeFlags(role: string): string[] {
  if (role === 'prepare') return [];
  const extra = process.env.BENCH_NODE_FLAGS;
  return [...SERVER_NODE_FLAGS, ...(extra && role === 'sitewatch' ? extra.split(' ') : [])];
}

/** Runs one role in a child process and reads its result from the last line of stdout. */
function child<T>(role: string, input: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      [...nodeFlags(role), '--import', 'tsx', self, '--child', role, '--input', JSON.stringify(input)],
      { stdio: ['ignore', 'pipe', 'inherit'], env: process.env },
    );
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    proc.on('error', reject);
    proc.on('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
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

async function main(): Promise<void> {
  const role = arg('child');
  if (role) {
    const result = await childMain(role, arg('input') as string);
    process.stdout.write(`\n${JSON.stringify(result)}\n`);
    process.exit(0);
  }

  const { startSyntheticSite } = await import('../support/test-site');
  const sizes = arg('pages') ? [Number(arg('pages'))] : [5_000, 20_000];
  const cold = process.argv.includes('--cold');
  const database = process.env.BENCH_DATABASE_URL ? 'Postgres' : 'PGlite on disk';
  console.log(
    `crawl benchmark: Sitewatch (${database}) vs linkinator, synthetic sites on 127.0.0.1, ${
      cold ? 'fresh processes' : `after a ${WARM_UP_PAGES.toLocaleString('en')}-page warm-up crawl`
    }\n`,
  );
  const rows: string[][] = [];
  // The warm-up site stands on another loopback address, as another customer's site would.
  const warmUp = cold ? null : await startSyntheticSite({ pages: WARM_UP_PAGES, host: '127.0.0.2' });
  try {
    for (const pages of sizes) {
      const site = await startSyntheticSite({ pages });
      try {
        const sites = [...(warmUp ? [warmUp] : []), site];
        const prepared = await child<{ dataDir: string; siteIds: string[] }>(
          'prepare',
          sites.map((s) => ({ rootUrl: s.rootUrl, pages: s.expected.pages })),
        );
        const ours = await child<Measurement>('sitewatch', prepared);
        const theirs = await child<Measurement>(
          'linkinator',
          sites.map((s) => s.rootUrl),
        );
        for (const m of [ours, theirs]) {
          rows.push([
            String(pages),
            m.tool,
            String(m.pages),
            String(m.linksChecked),
            String(m.broken),
            m.seconds.toFixed(2),
            m.pagesPerSecond.toFixed(0),
            m.cpuSeconds.toFixed(2),
            String(m.peakRssMb),
          ]);
        }
        rows.push([
          '',
          'ratio',
          '',
          '',
          '',
          '',
          `${(ours.pagesPerSecond / theirs.pagesPerSecond).toFixed(2)}x`,
          `${(ours.cpuSeconds / theirs.cpuSeconds).toFixed(2)}x`,
          `${(ours.peakRssMb / theirs.peakRssMb).toFixed(2)}x`,
        ]);
        if (ours.pages !== site.expected.pages || ours.broken !== site.expected.broken.length) {
          console.warn(
            `! sitewatch found ${ours.pages} pages and ${ours.broken} broken targets; the site has ${site.expected.pages} and ${site.expected.broken.length}`,
          );
        }
      } finally {
        await site.close();
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
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
