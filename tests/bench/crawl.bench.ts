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
 * over the Postgres frontier, finalization (broken links, SEO, ledger). Its database is prepared
 * first in a separate process, as a running server's already is (PGlite's initdb at first boot is a
 * one-time cost that would otherwise dominate the memory figure); the measured process opens it,
 * crawls and finalizes.
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
 * Creates the database a running server would already have: PGlite's data folder initialized and
 * migrated (a one-time step at first boot), with an organization and the site. Run in its own
 * process so initdb's one-off memory does not count against the crawl.
 */
async function prepareSitewatch(
  rootUrl: string,
  pages: number,
): Promise<{ dataDir: string; siteId: string }> {
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
  await handle.close();
  if (!site) throw new Error('could not create the bench site');
  return { dataDir, siteId: site.id };
}

/** The measured part: open the database as a server would, then run the production crawl path. */
async function runSitewatch(dataDir: string, siteId: string): Promise<Measurement> {
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
  const [site] = await db.select().from(sites).where(eq(sites.id, siteId));
  if (!site) throw new Error('bench site missing');

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
function child<T = Measurement>(role: string, args: Record<string, string>): Promise<T> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', self, '--child', role, ...Object.entries(args).flatMap(([k, v]) => [`--${k}`, v])],
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
      if (code !== 0) return reject(new Error(`${role} child exited with ${code}: ${out}`));
      try {
        resolve(JSON.parse(last) as T);
      } catch {
        reject(new Error(`${role} child printed no result: ${out}`));
      }
    });
  });
}

async function main(): Promise<void> {
  const role = arg('child');
  if (role) {
    const result =
      role === 'prepare'
        ? await prepareSitewatch(arg('root') as string, Number(arg('pages')))
        : role === 'sitewatch'
          ? await runSitewatch(arg('data') as string, arg('site') as string)
          : await runLinkinator(arg('root') as string);
    process.stdout.write(`\n${JSON.stringify(result)}\n`);
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
      const prepared = await child<{ dataDir: string; siteId: string }>('prepare', {
        root: site.rootUrl,
        pages: String(pages),
      });
      const ours = await child('sitewatch', { data: prepared.dataDir, site: prepared.siteId });
      const theirs = await child('linkinator', { root: site.rootUrl });
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
