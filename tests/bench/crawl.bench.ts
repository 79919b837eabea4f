/**
 * Crawl benchmark: Sitewatch's crawler against linkinator on synthetic local sites of 5,000 and
 * 20,000 pages (tests/support/test-site.ts), side by side.
 *
 *   npm run bench:crawl                       # PGlite (the embedded default)
 *   BENCH_DATABASE_URL=postgres://... npm run bench:crawl   # a Postgres server
 *   npm run bench:crawl -- --pages 5000       # one size only
 *
 * The site is served by this process; each crawler runs in its own child process so its peak RSS is
 * its own. Sitewatch runs the same code path as production: a run row, seeding, bounded work steps
 * over the Postgres frontier, finalization (broken links, SEO, ledger).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

interface Measurement {
  tool: 'sitewatch' | 'linkinator';
  pages: number;
  linksChecked: number;
  broken: number;
  seconds: number;
  pagesPerSecond: number;
  peakRssMb: number;
}

const self = fileURLToPath(import.meta.url);

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

/** Samples RSS every 25 ms; the peak is what a process needs to hold the crawl. */
function rssSampler(): () => number {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 25);
  return () => {
    clearInterval(timer);
    return Math.round(Math.max(peak, process.memoryUsage().rss) / 1024 / 1024);
  };
}

async function runSitewatch(rootUrl: string, pages: number): Promise<Measurement> {
  process.env.ALLOW_PRIVATE_NETWORK = 'true';
  process.env.EMBEDDED_RUNNER = 'false';
  const { openDatabase } = await import('@/lib/db/client');
  const { migrate } = await import('@/lib/db/migrate');
  const { organizations, sites, billingSettings } = await import('@/lib/db/schema');
  const { startCrawl, loadRun } = await import('@/lib/crawl/run');
  const { seedRun, workRun } = await import('@/lib/crawl/engine');
  const { finalizeRun } = await import('@/lib/crawl/finalize');

  // The embedded default keeps PGlite's data in a folder on disk; so does the benchmark.
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
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

  const peak = rssSampler();
  const started = performance.now();
  const { run } = await startCrawl(db, site, { trigger: 'manual', chainA11y: false });
  // BENCH_TUNING='{"flushSize":500}' tries engine settings without editing code.
  const tuning = process.env.BENCH_TUNING ? JSON.parse(process.env.BENCH_TUNING) : {};
  await seedRun(db, run.id, tuning);
  for (;;) {
    const outcome = await workRun(db, run.id, tuning);
    if (outcome.status === 'exhausted' || outcome.status === 'stopped') break;
    if (outcome.status === 'wait')
      await new Promise((r) => setTimeout(r, Math.max(10, outcome.untilMs - Date.now())));
  }
  await finalizeRun(db, run.id);
  const seconds = (performance.now() - started) / 1000;
  const finished = await loadRun(db, run.id);
  const peakRssMb = peak();
  await handle.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (!finished) throw new Error('run vanished');
  return {
    tool: 'sitewatch',
    pages: finished.pages_crawled,
    linksChecked: finished.links_checked,
    broken: finished.broken_count,
    seconds,
    pagesPerSecond: finished.pages_crawled / seconds,
    peakRssMb,
  };
}

async function runLinkinator(rootUrl: string): Promise<Measurement> {
  const { LinkChecker } = await import('linkinator');
  const origin = new URL(rootUrl).origin;
  const peak = rssSampler();
  const started = performance.now();
  const result = await new LinkChecker().check({
    path: rootUrl,
    recurse: true,
    concurrency: 100,
    timeout: 10_000,
  });
  const seconds = (performance.now() - started) / 1000;
  const peakRssMb = peak();
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
  };
}

/** Runs one crawler in a child process and reads its measurement from the last line of stdout. */
function child(tool: Measurement['tool'], rootUrl: string, pages: number): Promise<Measurement> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', self, '--child', tool, '--root', rootUrl, '--pages', String(pages)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: process.env,
      },
    );
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    proc.on('error', reject);
    proc.on('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`${tool} child exited with ${code}: ${out}`));
      try {
        resolve(JSON.parse(last) as Measurement);
      } catch {
        reject(new Error(`${tool} child printed no measurement: ${out}`));
      }
    });
  });
}

async function main(): Promise<void> {
  const role = arg('child');
  if (role) {
    const rootUrl = arg('root') as string;
    const pages = Number(arg('pages'));
    const measurement =
      role === 'sitewatch' ? await runSitewatch(rootUrl, pages) : await runLinkinator(rootUrl);
    process.stdout.write(`\n${JSON.stringify(measurement)}\n`);
    process.exit(0);
  }

  const { startSyntheticSite } = await import('../support/test-site');
  const sizes = arg('pages') ? [Number(arg('pages'))] : [5_000, 20_000];
  const database = process.env.BENCH_DATABASE_URL ? 'Postgres' : 'PGlite on disk';
  console.log(`crawl benchmark: Sitewatch (${database}) vs linkinator, synthetic sites on 127.0.0.1\n`);
  const rows: string[][] = [];
  for (const pages of sizes) {
    const site = await startSyntheticSite({ pages });
    try {
      const ours = await child('sitewatch', site.rootUrl, pages);
      const theirs = await child('linkinator', site.rootUrl, pages);
      for (const m of [ours, theirs]) {
        rows.push([
          String(pages),
          m.tool,
          String(m.pages),
          String(m.linksChecked),
          String(m.broken),
          m.seconds.toFixed(1),
          m.pagesPerSecond.toFixed(0),
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
  const header = ['site', 'tool', 'pages', 'links checked', 'broken', 'seconds', 'pages/s', 'peak RSS MB'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i] ?? 0)).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
