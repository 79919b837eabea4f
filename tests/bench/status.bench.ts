/**
 * GET /status/{slug} under 200 concurrent visitors (issue 26 item 8): the public page's route
 * handler in this process, as the server runs it (rate limit counted per visitor address, the
 * page's fingerprint read from Postgres, the rendered page from the memo when the fingerprint is
 * unchanged), against a Postgres database made for the run. The page lists 5 monitors with 90 days
 * of incidents. 200 clients, each from an address of its own, send their requests back to back; a
 * request's time is from the call to its body read. The first request (the render) is timed apart.
 *
 *   npm run bench:status
 *   npm run bench:status -- --clients 200 --requests 20
 *
 * BENCH_POSTGRES_URL: the server (default postgres://postgres@127.0.0.1:5432/postgres). Prints the
 * machine (CPU model, cores, load), p50 and p99. Target: p99 under 50 ms. Figures, not assertions.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';

const { values: args } = parseArgs({
  options: {
    clients: { type: 'string', default: '200' },
    requests: { type: 'string', default: '20' },
    child: { type: 'boolean', default: false },
  },
});
const CLIENTS = Number(args.clients);
const REQUESTS = Number(args.requests);
const SLUG = 'bench-status';
const DAY_MS = 86_400_000;

if (args.child) await measure();
else await orchestrate();

async function orchestrate(): Promise<void> {
  const admin = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `sitewatch_bench_status_${process.pid}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}`);
  try {
    const url = new URL(admin);
    url.pathname = `/${name}`;
    const self = fileURLToPath(import.meta.url);
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', self, '--child', '--clients', String(CLIENTS), '--requests', String(REQUESTS)],
      { stdio: 'inherit', env: { ...process.env, DATABASE_URL: url.toString(), PGLITE_DIR: undefined } },
    );
    if (child.status !== 0) throw new Error(`run failed (exit ${child.status})`);
  } finally {
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  }
}

async function measure(): Promise<void> {
  const { getDbHandle, closeDb } = await import('@/lib/db/client');
  const schema = await import('@/lib/db/schema');
  const pageRoute = await import('@/app/status/[slug]/route');
  const { db } = await getDbHandle();
  const now = Date.now();
  await db.insert(schema.organizations).values({ id: 'bench-org', name: 'Bench', slug: 'bench' });
  const [site] = await db
    .insert(schema.sites)
    .values({
      tenant_id: 'bench-org',
      hostname: 'bench.example',
      root_url: 'https://bench.example/',
      cadence_minutes: 10080,
      max_pages: 5000,
      max_concurrency: 100,
      enabled: 1,
      created_at: now,
      scanner_enabled: 0,
      a11y_enabled: 0,
      performance_enabled: 0,
      uptime_enabled: 1,
      seo_enabled: 0,
    })
    .returning();
  const monitorIds: string[] = [];
  for (let m = 0; m < 5; m++) {
    const [monitor] = await db
      .insert(schema.uptimeMonitors)
      .values({
        tenant_id: 'bench-org',
        site_id: site!.id,
        url: `https://bench.example/service-${m}`,
        name: `Service ${m + 1}`,
        enabled: 0,
        status: 'up',
        status_since: now - DAY_MS,
        created_at: now - 120 * DAY_MS,
        updated_at: now,
      })
      .returning();
    monitorIds.push(monitor!.id);
    // An incident every few days over the 90 days, 5 to 60 minutes each.
    await db.insert(schema.uptimeIncidents).values(
      Array.from({ length: 25 }, (_, i) => {
        const downAt = now - (i * 3.5 + m) * DAY_MS;
        return {
          tenant_id: 'bench-org',
          monitor_id: monitor!.id,
          down_at: downAt,
          recovered_at: downAt + (5 + ((i * 7) % 55)) * 60_000,
          cause: 'timeout' as const,
          created_at: downAt,
          closed_by: 'recovery' as const,
        };
      }),
    );
  }
  const [page] = await db
    .insert(schema.statusPages)
    .values({
      tenant_id: 'bench-org',
      slug: SLUG,
      title: 'Bench status',
      published: 1,
      show_a11y_score: 0,
      show_broken_links: 0,
      show_monitor_urls: 0,
      created_at: now,
      updated_at: now,
    })
    .returning();
  await db.insert(schema.statusPageMonitors).values(
    monitorIds.map((id, position) => ({
      status_page_id: page!.id,
      monitor_id: id,
      tenant_id: 'bench-org',
      position,
    })),
  );

  let bytes = 0;
  const get = async (client: number) => {
    const started = performance.now();
    const res = await pageRoute.GET(
      new Request(`http://localhost:3000/status/${SLUG}`, {
        // What every browser sends; the handler answers unencoded bytes (the host compresses).
        headers: {
          'x-forwarded-for': `198.18.${client >> 8}.${client & 255}`,
          'accept-encoding': 'gzip, deflate, br, zstd',
        },
      }),
      { params: Promise.resolve({ slug: SLUG }) },
    );
    if (res.status !== 200) throw new Error(`status ${res.status}: ${(await res.text()).slice(0, 200)}`);
    // The bytes read chunk by chunk, as the server hands them to its socket (not gathered into one
    // buffer: arrayBuffer() copied the page twice more, a cost of this client, not of serving).
    const reader = res.body!.getReader();
    let read = 0;
    for (let r = await reader.read(); !r.done; r = await reader.read()) read += r.value.byteLength;
    bytes = read;
    return performance.now() - started;
  };
  const first = await get(0);
  // Warm the pool and the JIT with a few rounds, then measure.
  await Promise.all(Array.from({ length: CLIENTS }, (_, c) => get(c)));
  const times: number[] = [];
  const load = os.loadavg();
  const cpuBefore = process.cpuUsage();
  const began = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      for (let r = 0; r < REQUESTS; r++) times.push(await get(c));
    }),
  );
  const seconds = (performance.now() - began) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuPerRequestMs = (cpu.user + cpu.system) / 1000 / times.length;
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]!;
  const cpus = os.cpus();
  console.log(
    `machine: ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, load ${load.map((l) => l.toFixed(2)).join(' ')} (1, 5, 15 min) at the start`,
  );
  console.log(
    `GET /status/{slug}, route handler in process, Postgres, ${CLIENTS} concurrent clients x ${REQUESTS} requests`,
  );
  console.log(`first request (render): ${first.toFixed(1)} ms; page ${(bytes / 1024).toFixed(1)} KB`);
  console.log(
    `CPU per request (this process: the handler, and the client's Request and reading the bytes): ${cpuPerRequestMs.toFixed(3)} ms; CPU ${(((cpu.user + cpu.system) / 1e6 / seconds) * 100).toFixed(0)}% of one core over the run`,
  );
  console.log(
    `p50 ${at(0.5).toFixed(1)} ms  p99 ${at(0.99).toFixed(1)} ms  max ${times.at(-1)!.toFixed(1)} ms  ${(times.length / seconds).toFixed(0)} req/s  (target: p99 < 50 ms)`,
  );
  await closeDb();
}
