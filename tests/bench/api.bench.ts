/**
 * Read latency of the API under concurrent clients: GET /v1/sites/{id}/report (and the first page of
 * the same report grouped by target, /broken-targets), the first page of /v1/sites/{id}/pages (by URL,
 * the default, and under the other sorts) and the dashboard's site
 * overview (the page's own data, `recentRuns` from lib/dashboard, and GET /v1/sites/{id}/status, which
 * the open page polls), with a stored crawl of 20,000 pages and 5,000 external targets after a previous
 * crawl, 30 older runs in the history.
 *
 * Every request is a real Request with an API key through the route handler, pipeline included
 * (credential, visibility, query parsing, JSON), in one process as the server runs them. 50 clients
 * each send their requests back to back; a request's time is from the call to its body read.
 *
 *   npm run bench:api                          # a fresh Postgres database, then PGlite in memory
 *   npm run bench:api -- --only postgres       # or pglite
 *   npm run bench:api -- --clients 50 --requests 10    # the defaults: requests per client and read
 *
 * Postgres: a database created for the run on BENCH_POSTGRES_URL's server (default
 * postgres://postgres@127.0.0.1:5432/postgres) and dropped after. Prints p50, p99 and the slowest
 * request per read, and requests per second. Figures, not assertions.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { machineLine } from './machine';

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    clients: { type: 'string', default: '50' },
    requests: { type: 'string', default: '10' },
    child: { type: 'string' },
  },
});
const CLIENTS = Number(args.clients);
const REQUESTS = Number(args.requests);
const PAGES = 20_000;
const EXTERNAL = 5_000;
const OLDER_RUNS = 30;

if (args.child) await measure(args.child);
else await orchestrate();

/** Runs the measurement in a child process per database, Postgres on a database made for it. */
async function orchestrate(): Promise<void> {
  console.log(machineLine());
  const self = fileURLToPath(import.meta.url);
  const run = (where: string, env: Record<string, string | undefined>) => {
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        self,
        '--child',
        where,
        '--clients',
        String(CLIENTS),
        '--requests',
        String(REQUESTS),
      ],
      // 50 clients on one key measure latency, not the limits: the key's quota (500 a minute by
      // default) is raised out of the way; each request still pays for its count.
      { stdio: 'inherit', env: { RATE_LIMIT_KEY_PER_MINUTE: '1000000000', ...process.env, ...env } },
    );
    if (child.status !== 0) throw new Error(`${where} run failed (exit ${child.status})`);
  };
  if (args.only !== 'pglite') {
    const admin = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const name = `sitewatch_bench_api_${process.pid}`;
    const client = new pg.Client({ connectionString: admin });
    const reachable = await client.connect().then(
      () => true,
      (error: Error) => {
        console.log(`Postgres at ${admin} is not reachable (${error.message}): measuring PGlite only`);
        return false;
      },
    );
    if (reachable) {
      await client.query(`create database ${name}`);
      try {
        const url = new URL(admin);
        url.pathname = `/${name}`;
        run('postgres', { DATABASE_URL: url.toString(), PGLITE_DIR: undefined });
      } finally {
        await client.query(`drop database if exists ${name} with (force)`);
        await client.end();
      }
    }
  }
  if (args.only !== 'postgres') run('pglite', { DATABASE_URL: undefined, PGLITE_DIR: 'memory://' });
}

async function measure(where: string): Promise<void> {
  const { getDbHandle, closeDb } = await import('@/lib/db/client');
  const { runs } = await import('@/lib/db/schema');
  const { recentRuns } = await import('@/lib/dashboard/site');
  const reportRoute = await import('@/app/api/v1/sites/[id]/report/route');
  const pagesRoute = await import('@/app/api/v1/sites/[id]/pages/route');
  const brokenTargetsRoute = await import('@/app/api/v1/sites/[id]/broken-targets/route');
  const statusRoute = await import('@/app/api/v1/sites/[id]/status/route');
  const { insertApiKey } = await import('../support/http');
  const { benchSite, dropOlderFrontiers, storeCrawl } = await import('./stored-crawl');

  const started = performance.now();
  const { db } = await getDbHandle();
  const site = await benchSite(db);
  const day = 86_400_000;
  const now = Date.now();
  await db.insert(runs).values(
    Array.from({ length: OLDER_RUNS }, (_, i) => ({
      site_id: site.siteId,
      tenant_id: site.tenantId,
      started_at: now - (OLDER_RUNS + 2 - i) * 7 * day,
      finished_at: now - (OLDER_RUNS + 2 - i) * 7 * day + 60_000,
      state: 'completed' as const,
      kind: 'crawl' as const,
      pages_crawled: PAGES,
    })),
  );
  const crawl = { pages: PAGES, external: EXTERNAL };
  await storeCrawl(db, site, { ...crawl, startedAt: now - 7 * day, variant: 0 });
  const { runId } = await storeCrawl(db, site, { ...crawl, startedAt: now - day, variant: 1 });
  await dropOlderFrontiers(db, runId);
  await db.execute(sql`analyze`);
  const apiKey = await insertApiKey(db, site.tenantId, { name: 'bench' });
  const principal = {
    tenantId: site.tenantId,
    via: 'key' as const,
    keyId: 'bench',
    siteIds: 'all' as const,
    canCrawl: true,
  };
  console.log(
    `\n${where}: stored ${PAGES} pages + ${EXTERNAL} external targets (and a previous crawl, ${OLDER_RUNS} older runs) in ${((performance.now() - started) / 1000).toFixed(0)} s; ${CLIENTS} clients x ${REQUESTS} requests per read`,
  );

  type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
  /** One API request as the server would hand it over; answers the body's size. */
  const get = (handler: Handler, path: string) => async () => {
    const res = await handler(
      new Request(`http://localhost:3000/api/v1/sites/${site.siteId}${path}`, {
        headers: { 'x-api-key': apiKey },
      }),
      { params: Promise.resolve({ id: site.siteId }) },
    );
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 200)}`);
    return body.length;
  };

  const reads: [string, () => Promise<number>][] = [
    ['GET /report', get(reportRoute.GET, '/report')],
    ['GET /broken-targets (first page)', get(brokenTargetsRoute.GET, '/broken-targets')],
    ['GET /pages (first 100, by URL)', get(pagesRoute.GET, '/pages')],
    ['GET /pages?sort=status&order=desc', get(pagesRoute.GET, '/pages?sort=status&order=desc')],
    ['GET /pages?sort=inlinks&order=desc', get(pagesRoute.GET, '/pages?sort=inlinks&order=desc')],
    ['GET /pages?sort=responseTime&order=desc', get(pagesRoute.GET, '/pages?sort=responseTime&order=desc')],
    ['GET /pages?sort=depth', get(pagesRoute.GET, '/pages?sort=depth')],
    ['GET /pages?sort=outlinks&order=desc', get(pagesRoute.GET, '/pages?sort=outlinks&order=desc')],
    ['overview: run history (recentRuns)', async () => (await recentRuns(db, principal, site.siteId)).length],
    ['overview: GET /status (polled)', get(statusRoute.GET, '/status')],
  ];

  const summary = (times: number[], seconds: number) => {
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]!;
    const ms = (v: number) => `${v.toFixed(0).padStart(5)} ms`;
    return `p50 ${ms(at(0.5))}  p99 ${ms(at(0.99))}  max ${ms(times.at(-1)!)}  ${(times.length / seconds).toFixed(0).padStart(4)} req/s`;
  };
  /** Each client sends REQUESTS requests, waiting `think()` ms after each answer; every request timed. */
  const load = async (read: () => Promise<number>, think: () => number, stagger = 0) => {
    const times: number[] = [];
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        if (stagger) await new Promise((resolve) => setTimeout(resolve, Math.random() * stagger));
        for (let i = 0; i < REQUESTS; i++) {
          const start = performance.now();
          await read();
          times.push(performance.now() - start);
          const pause = think();
          if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
        }
      }),
    );
    return summary(times, (performance.now() - t0) / 1000);
  };

  console.log(
    `saturated: every client sends its next request as soon as the answer is read; paced: each waits 0.5-1.5 s (1 s on average) between requests, ${CLIENTS} requests/s in all`,
  );
  for (const [label, read] of reads) {
    // Warm-up: every client once, untimed; the size of the answer for the table.
    const sizes = await Promise.all(Array.from({ length: CLIENTS }, () => read()));
    const size = label.startsWith('overview: run')
      ? `${sizes[0]} runs`
      : `${(sizes[0]! / 1024).toFixed(0)} KiB`;
    const saturated = await load(read, () => 0);
    // The paced clients start spread over the first second, as independent users would.
    const paced = await load(read, () => 500 + Math.random() * 1000, 1000);
    console.log(`${where} ${label} (${size})\n  saturated ${saturated}\n  paced     ${paced}`);
  }
  await closeDb();
}
