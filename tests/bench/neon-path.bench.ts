/**
 * `npm run bench:neon` (needs BENCH_DATABASE_URL or TEST_DATABASE_URL, a Postgres server): the
 * hosted path's database driver beside node-postgres, same process, same server, taking turns.
 * For each driver it crawls a synthetic site of `--pages` pages on 127.0.0.1 through the production
 * steps (start, seed, frontier steps, finalize) and runs one uptime round of `--monitors` monitors
 * from the four embedded regions (claim, probe, complete). It prints seconds and pages per second,
 * and for the Neon driver the WebSocket connections each phase held at once and opened in all, as
 * the proxy (tests/support/neon-ws-proxy.ts, in this process) counts them: what one function
 * instance takes from Neon's connection pooler. README, "Scale path".
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { crawlEvents } from '@/jobs/crawl-events';
import { workRun } from '@/lib/crawl/engine/step';
import { finalizeRun } from '@/lib/crawl/runs/finalize';
import { loadRun, startCrawl } from '@/lib/crawl/runs/run';
import { seedRun } from '@/lib/crawl/runs/seed';
import { type DbHandle, openDatabase } from '@/lib/db/client';
import { migrate } from '@/lib/db/migrate';
import { billingSettings, organizations, sites } from '@/lib/db/schema';
import { closeDispatchers } from '@/lib/net';
import { runDueRounds } from '@/lib/uptime/coordinator';
import { createMonitor, PLAIN_HTTP } from '@/lib/uptime/monitors';
import { regionProbers } from '@/lib/uptime/probers';
import { adminQuery, withDatabase } from '../support/db';
import { insertSite } from '../support/fixtures';
import { startServer } from '../support/http-server';
import { addressOfUrl, type NeonWsProxy, startNeonWsProxy } from '../support/neon-ws-proxy';
import { startSyntheticSite } from '../support/test-site';
import { machineLine } from './machine';

process.env.ALLOW_PRIVATE_NETWORK = 'true';
process.env.EMBEDDED_RUNNER = 'false';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const pages = arg('pages', 5_000);
const monitors = arg('monitors', 500);
const runs = arg('runs', 2);

type Phase = { seconds: number; peak?: number; opened?: number };
type Result = {
  driver: string;
  crawl: Phase & { pages: number };
  steps: Phase[];
  finalize: Phase;
  round: Phase;
};

/** Times `work`; on the Neon path, also the proxy's connections held at once and opened meanwhile. */
async function phase<T>(proxy: NeonWsProxy | undefined, work: () => Promise<T>): Promise<[T, Phase]> {
  proxy?.resetPeak();
  const opened = proxy?.stats().total ?? 0;
  const started = performance.now();
  const value = await work();
  const seconds = (performance.now() - started) / 1000;
  if (!proxy) return [value, { seconds }];
  const stats = proxy.stats();
  return [value, { seconds, peak: stats.peak, opened: stats.total - opened }];
}

async function once(driver: 'pg' | 'neon', proxy: NeonWsProxy): Promise<Result> {
  const name = `sw_bench_neon_${randomBytes(5).toString('hex')}`;
  await adminQuery(serverUrl as string, `create database ${name}`);
  const url = withDatabase(serverUrl as string, name);
  const site = await startSyntheticSite({ pages });
  const target = await startServer('127.0.0.1', { '*': { status: 200, body: 'ok' } });
  let handle: DbHandle | undefined;
  try {
    handle = await openDatabase(url, '', driver === 'neon' ? proxy.address : undefined);
    await migrate(handle);
    const { db } = handle;
    const counted = driver === 'neon' ? proxy : undefined;
    const tenantId = `bench-${name}`;
    await db.insert(organizations).values({ id: tenantId, name: 'Bench', slug: tenantId });
    await db
      .insert(billingSettings)
      .values({ tenant_id: tenantId, overage_enabled: 1, updated_at: Date.now() });
    const siteId = await insertSite(db, tenantId, new URL(site.rootUrl).hostname, {
      root_url: site.rootUrl,
      max_pages: pages + 10,
      performance_enabled: 0,
    });
    const [row] = await db.select().from(sites).where(eq(sites.id, siteId));
    if (!row) throw new Error('bench site not created');

    // The crawl: seed, then frontier steps as crawl-run's step.run('work') calls them, then finalize.
    const steps: Phase[] = [];
    const [runId, seed] = await phase(counted, async () => {
      const { run } = await startCrawl(db, row, { trigger: 'manual', chainA11y: false, events: crawlEvents });
      await seedRun(db, run.id);
      return run.id;
    });
    steps.push(seed);
    for (;;) {
      const [outcome, step] = await phase(counted, () => workRun(db, runId));
      steps.push(step);
      if (outcome.status === 'exhausted' || outcome.status === 'stopped') break;
      if (outcome.status === 'wait')
        await new Promise((r) => setTimeout(r, Math.max(10, outcome.untilMs - Date.now())));
    }
    const [, finalize] = await phase(counted, () => finalizeRun(db, runId));
    const finished = await loadRun(db, runId);
    const crawled = finished?.pages_crawled ?? 0;
    if (crawled < site.expected.pages)
      throw new Error(`${driver}: crawled ${crawled} of ${site.expected.pages} pages`);
    const crawlSeconds = steps.reduce((s, p) => s + p.seconds, 0) + finalize.seconds;

    // One uptime round of every monitor, due at once: claim, four regions' probes, completion.
    const principal = { tenantId, via: 'key' as const, siteIds: 'all' as const, canCrawl: true };
    const settings = {
      ...PLAIN_HTTP,
      name: null,
      cadenceSeconds: 60,
      timeoutSeconds: 10,
      alertEmails: [],
      alertWebhooks: [],
    };
    for (let i = 0; i < monitors; i++)
      await createMonitor(db, principal, row.id, {
        ...settings,
        url: `${target.origin}/m/${i}`,
        enabled: true,
      });
    const [finishedRounds, round] = await phase(counted, () =>
      runDueRounds(db, regionProbers(), { now: Date.now() + 1_000 }),
    );
    if (finishedRounds.length !== monitors)
      throw new Error(`${driver}: ${finishedRounds.length} of ${monitors} rounds finished`);
    await db.delete(sites).where(eq(sites.id, row.id));
    return {
      driver,
      crawl: {
        pages: crawled,
        seconds: crawlSeconds,
        ...(counted && {
          peak: Math.max(...steps.map((s) => s.peak ?? 0), finalize.peak ?? 0),
          opened: steps.reduce((s, p) => s + (p.opened ?? 0), 0) + (finalize.opened ?? 0),
        }),
      },
      steps,
      finalize,
      round,
    };
  } finally {
    await handle?.close();
    await site.close();
    await target.close();
    await adminQuery(serverUrl as string, `drop database if exists ${name} with (force)`);
  }
}

async function main(): Promise<void> {
  if (!serverUrl) throw new Error('set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a Postgres server');
  const proxy = await startNeonWsProxy({ allow: [addressOfUrl(serverUrl)] });
  const results: Result[] = [];
  try {
    for (let i = 0; i < runs; i++)
      for (const driver of ['pg', 'neon'] as const) results.push(await once(driver, proxy));
  } finally {
    await proxy.close();
    await closeDispatchers();
  }
  const f = (n: number) => n.toFixed(2);
  console.log(machineLine());
  console.log(`${pages} pages, ${monitors} monitors, ${runs} run(s) per driver, taking turns\n`);
  console.log(
    '| driver | crawl s | pages/s | crawl steps (seed + work) | connections at once / opened (crawl) | finalize s | round s (4 x monitors probes) | connections at once / opened (round) |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const conn = (p: Phase) => (p.peak === undefined ? 'n/a' : `${p.peak} / ${p.opened}`);
    console.log(
      `| ${r.driver} | ${f(r.crawl.seconds)} | ${Math.round(r.crawl.pages / r.crawl.seconds)} | ${r.steps.length} | ${conn(r.crawl)} | ${f(r.finalize.seconds)} | ${f(r.round.seconds)} | ${conn(r.round)} |`,
    );
  }
  // Runs alternate (pg, neon, pg, ...), so each pair saw the same machine; the median pair's ratio.
  const ratios = (of: (r: Result) => number) =>
    results
      .filter((r) => r.driver === 'neon')
      .map((neon, i) => of(neon) / of(results.filter((r) => r.driver === 'pg')[i] as Result))
      .sort((a, b) => a - b);
  const median = (values: number[]) => values[Math.floor(values.length / 2)] ?? Number.NaN;
  const crawlRatios = ratios((r) => r.crawl.seconds);
  const roundRatios = ratios((r) => r.round.seconds);
  console.log(
    `\nneon / pg time, median of pairs: crawl ${f(median(crawlRatios))} (${crawlRatios.map(f).join(', ')}), ` +
      `round ${f(median(roundRatios))} (${roundRatios.map(f).join(', ')})`,
  );
  for (const r of results.filter((x) => x.driver === 'neon')) {
    console.log(
      `neon steps: ${r.steps.map((s) => `${f(s.seconds)} s, ${s.peak} at once`).join('; ')}; finalize ${f(r.finalize.seconds)} s, ${r.finalize.peak} at once`,
    );
  }
}

await main();
