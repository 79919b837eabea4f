/**
 * The uptime scheduler under load (issue 14, item 9): 1,000 monitors at a 60-second cadence,
 * probed from the four embedded regions against a local target for five minutes. Prints how late
 * each probe started against its round's scheduled time (p50, p99, max), the server process's CPU
 * (all its threads: the round loop, the probes, embedded Postgres) and its peak memory.
 *
 *   npm run bench:uptime [-- --minutes 5] [--monitors 1000] [--one-by-one]
 *   BENCH_DATABASE_URL=postgres://... npm run bench:uptime     (Postgres instead of PGlite on disk)
 *
 * Three processes, as in production: the target (a plain HTTP server with a deep backlog), this
 * one (the conductor), and the server under test, which runs the product's path: the database
 * opened and migrated as `npm start` does, with the server's Node flags, the monitors created with
 * the monitors service, and the round loop the embedded runner starts (RoundLoop, embedded probers).
 * The monitors are created through the monitors service, paused, then enabled in the same instant:
 * a thousand first rounds due at once (the spec fires a first round immediately), the hardest
 * start, after which each monitor settles on its phase of the minute. `--one-by-one` creates them
 * enabled, one after another while the loop runs, as API calls would.
 * Lateness is read from the stored results: `checked_at - round_at` of every first attempt (a
 * retried probe starts its counted attempt 5 s later by design); the first rounds are reported
 * apart from the steady state.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { serverEnv, serverNodeArgs } from '../../scripts/node-flags.mjs';
import { compileBench } from './compile';
import { machineLine } from './machine';

const self = fileURLToPath(import.meta.url);
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
};

interface ServerResult {
  database: string;
  monitors: number;
  seconds: number;
  /** RSS when the loop started (the database open and the monitors created). */
  rssAtStartMb: number;
  roundsFired: number;
  probes: number;
  failedProbes: number;
  retried: number;
  /** Lateness of first attempts, ms: the first rounds (all due at once) and every later round. */
  firstRounds: Stats;
  steady: Stats;
  cpuMs: number;
  peakRssMb: number;
  /** RSS once the first rounds are done, and at the end: memory must not grow with time. */
  rssAfterFirstMb: number;
  rssEndMb: number;
}
interface Stats {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

function stats(values: number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
  return { n: sorted.length, p50: rank(50), p99: rank(99), max: sorted.at(-1) ?? 0 };
}

/** The server under test (a child process): create the monitors, run the loop, read the results. */
async function serve(
  targetUrl: string,
  monitors: number,
  minutes: number,
  burst: boolean,
): Promise<ServerResult> {
  const { getDbHandle } = await import('@/lib/db/client');
  const { organizations, probeResults, sites, billingSettings, uptimeMonitors } = await import(
    '@/lib/db/schema'
  );
  const { createMonitor, PLAIN_HTTP } = await import('@/lib/uptime/monitors');
  const { RoundLoop } = await import('@/lib/uptime/coordinator');
  const { regionProbers } = await import('@/lib/uptime/probers');
  const { eq, sql } = await import('drizzle-orm');

  const handle = await getDbHandle();
  const { db } = handle;
  const tenantId = `bench-${Date.now()}`;
  await db.insert(organizations).values({ id: tenantId, name: 'Bench', slug: tenantId });
  // Overage on: 1,000 monitors on one site are past the pooled allowance.
  await db
    .insert(billingSettings)
    .values({ tenant_id: tenantId, overage_enabled: 1, updated_at: Date.now() });
  const [site] = await db
    .insert(sites)
    .values({
      tenant_id: tenantId,
      hostname: 'bench.example',
      root_url: 'https://bench.example/',
      cadence_minutes: 10_080,
      max_pages: 10,
      max_concurrency: 2,
      enabled: 1,
      created_at: Date.now(),
      scanner_enabled: 0,
      a11y_enabled: 0,
      performance_enabled: 0,
      uptime_enabled: 1,
      seo_enabled: 0,
    })
    .returning();
  const principal = { tenantId, via: 'key' as const, siteIds: 'all' as const, canCrawl: true };
  const settings = {
    ...PLAIN_HTTP,
    name: null,
    cadenceSeconds: 60,
    timeoutSeconds: 10,
    alertEmails: [],
    alertWebhooks: [],
  };
  const create = (i: number, enabled: boolean) =>
    createMonitor(db, principal, site!.id, { ...settings, url: `${targetUrl}/m/${i}`, enabled });
  if (burst) {
    // Created paused, then enabled together: every first round due in the same instant.
    for (let i = 0; i < monitors; i++) await create(i, false);
  }

  // Measured from here: the setup (a new embedded data folder's initdb, the inserts) is not the load.
  const setupPeakRss = process.memoryUsage().rss;
  const cpuStart = process.cpuUsage();
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 250);
  const started = Date.now();
  if (burst) {
    await db
      .update(uptimeMonitors)
      .set({ enabled: 1, next_probe_at: started })
      .where(eq(uptimeMonitors.site_id, site!.id));
  }
  let rssAfterFirst = 0;
  let firstDone = 0;
  const loop = new RoundLoop(async () => db, {
    probers: regionProbers(),
    onRound: () => {
      firstDone += 1;
      if (firstDone === monitors) rssAfterFirst = process.memoryUsage().rss;
    },
  });
  const ended = started + minutes * 60_000;
  const running = loop.run(ended);
  // Otherwise created one after another while the loop runs, as API calls would: each first round due at its creation.
  if (!burst) for (let i = 0; i < monitors; i++) await create(i, true);
  const { rounds } = await running;
  const rssEnd = process.memoryUsage().rss;
  const cpu = process.cpuUsage(cpuStart);
  const loopSeconds = (Date.now() - started) / 1000;
  clearInterval(sampler);

  const rows = await db
    .select({
      lateness: sql<number>`${probeResults.checked_at} - ${probeResults.round_at}`.mapWith(Number),
      roundAt: probeResults.round_at,
      monitorId: probeResults.monitor_id,
      ok: probeResults.ok,
      attempts: probeResults.attempts,
    })
    .from(probeResults)
    .where(eq(probeResults.tenant_id, tenantId));
  // A monitor's first round is the earliest round_at of its results.
  const firstRoundOf = new Map<string, number>();
  for (const r of rows)
    firstRoundOf.set(r.monitorId, Math.min(firstRoundOf.get(r.monitorId) ?? r.roundAt, r.roundAt));
  const isFirst = (r: (typeof rows)[number]) => firstRoundOf.get(r.monitorId) === r.roundAt;
  const first = rows.filter((r) => r.attempts === 1 && isFirst(r)).map((r) => r.lateness);
  const steady = rows.filter((r) => r.attempts === 1 && !isFirst(r)).map((r) => r.lateness);
  await db.delete(sites).where(eq(sites.id, site!.id));
  await handle.close();
  return {
    database: handle.driver,
    monitors,
    seconds: loopSeconds,
    rssAtStartMb: Math.round(setupPeakRss / 1024 / 1024),
    roundsFired: rounds,
    probes: rows.length,
    failedProbes: rows.filter((r) => r.ok === 0).length,
    retried: rows.filter((r) => r.attempts === 2).length,
    firstRounds: stats(first),
    steady: stats(steady),
    cpuMs: (cpu.user + cpu.system) / 1000,
    peakRssMb: Math.round(peakRss / 1024 / 1024),
    rssAfterFirstMb: Math.round(rssAfterFirst / 1024 / 1024),
    rssEndMb: Math.round(rssEnd / 1024 / 1024),
  };
}

/** CPU seconds a process has used so far (user + system, from /proc). */
function processCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function main(): Promise<void> {
  if (arg('child') === 'server') {
    const result = await serve(
      arg('target') as string,
      Number(arg('monitors')),
      Number(arg('minutes')),
      !process.argv.includes('--one-by-one'),
    );
    process.stdout.write(`\n${JSON.stringify(result)}\n`);
    process.exit(0);
  }
  const minutes = Number(arg('minutes') ?? 5);
  const monitors = Number(arg('monitors') ?? 1000);
  const burst = !process.argv.includes('--one-by-one');

  const target = spawn(
    process.execPath,
    [
      '-e',
      `const s = require('node:http').createServer((q, r) => r.end('ok'));
       s.keepAliveTimeout = 1000;
       s.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => console.log(s.address().port));`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [portLine] = (await once(target.stdout, 'data')) as [Buffer];
  const targetUrl = `http://127.0.0.1:${Number(portLine.toString().trim())}`;
  const targetCpuBefore = processCpuSeconds(target.pid as number);

  const entry = await compileBench(self, 'uptime.bench');
  const dataDir = mkdtempSync(`${tmpdir()}/sitewatch-bench-uptime-`);
  console.log(machineLine());
  console.log(
    `${monitors} monitors at a 60 s cadence, ${burst ? 'all enabled in the same instant' : 'created one after another'}, ${minutes} min, database ${process.env.BENCH_DATABASE_URL ? 'Postgres' : 'PGlite on disk'}`,
  );
  const server = spawn(
    process.execPath,
    [
      ...serverNodeArgs(process.env.NODE_OPTIONS),
      entry,
      '--child',
      'server',
      '--target',
      targetUrl,
      '--monitors',
      String(monitors),
      '--minutes',
      String(minutes),
      ...(burst ? [] : ['--one-by-one']),
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...serverEnv(),
        ALLOW_PRIVATE_NETWORK: 'true',
        EMBEDDED_RUNNER: 'false',
        PGLITE_DIR: `${dataDir}/pglite`,
        ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
      },
    },
  );
  let out = '';
  server.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const [code] = (await once(server, 'exit')) as [number];
  const targetCpu = processCpuSeconds(target.pid as number) - targetCpuBefore;
  target.kill();
  rmSync(dataDir, { recursive: true, force: true });
  if (code !== 0) throw new Error(`server exited with ${code}: ${out}`);
  const r = JSON.parse(out.trim().split('\n').pop() as string) as ServerResult;

  const fmt = (s: Stats) => `p50 ${s.p50} ms, p99 ${s.p99} ms, max ${s.max} ms (${s.n} probes)`;
  console.log(
    `rounds fired ${r.roundsFired} in ${r.seconds.toFixed(0)} s: ${r.monitors} first rounds, then ${r.roundsFired - r.monitors} on the monitors' phases (${(((r.roundsFired - r.monitors) / (r.seconds - 30)) * 60).toFixed(0)} a minute); probes stored ${r.probes}, failed ${r.failedProbes}, retried ${r.retried}`,
  );
  console.log(`probe start lateness, first rounds (due at creation): ${fmt(r.firstRounds)}`);
  console.log(`probe start lateness, every later round:            ${fmt(r.steady)}`);
  console.log(
    `server CPU while probing ${(r.cpuMs / 1000).toFixed(1)} s over ${r.seconds.toFixed(0)} s = ${((r.cpuMs / 1000 / r.seconds) * 100).toFixed(1)}% of one core (all threads); target CPU ${((targetCpu / r.seconds) * 100).toFixed(1)}% of one core`,
  );
  console.log(
    `server RSS when the loop started ${r.rssAtStartMb} MB, peak while probing ${r.peakRssMb} MB, after the first rounds ${r.rssAfterFirstMb} MB, at the end ${r.rssEndMb} MB`,
  );
}

await main();
