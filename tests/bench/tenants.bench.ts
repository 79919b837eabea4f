/**
 * Noisy neighbours (issue 23, item 7): 20 tenants on one server, each with a crawl, a render pass,
 * 50 uptime monitors (one of which goes down and comes back) and a webhook receiver, while its API
 * client reads its site's status once a second. Run twice in one go: once with all 20 behaving,
 * once with tenant 20 hostile:
 *
 *   - its 50 monitors point at a tarpit (accepts, never answers: every probe runs to its 30 s timeout,
 *     then its retry does too), so all 50 open incidents;
 *   - each of those monitors alerts 5 tarpit webhook receivers (250 deliveries that never answer);
 *   - its site has hostile pages for the render pass (an infinite loop, an endless download);
 *   - its API key sends a burst: 30 clients back to back for the whole run.
 *
 * Printed for the other 19 tenants, both runs side by side: alert delivery latency (incident to
 * receiver, p50/p99, down and recovery alerts), their API p99, probe lateness (a first attempt's
 * start after its round's time), crawl and render pass durations, and that no alert was lost or
 * duplicated. Target: the hostile tenant changes none of the others' figures by more than 20%
 * (latencies under a second are compared with a 250 ms floor: noise at that scale is not harm).
 *
 *   npm run bench:tenants [-- --minutes 3] [--tenants 20] [--monitors 50] [--pages 10] [--only calm|hostile]
 *                         [--profile <dir>]   (the server's CPU profile of each run, --cpu-prof, into <dir>)
 *   BENCH_DATABASE_URL=postgres://... npm run bench:tenants     (Postgres instead of PGlite on disk:
 *                                                                a database of its own per run, on that server)
 *
 * Processes: this one (the conductor: the tenants' sites, monitor targets, tarpits, webhook
 * receivers and API clients, all on 127.0.0.1), and the server under test, which runs the product's
 * path: the database opened and migrated as `npm start` does, with the server's Node flags, the
 * embedded job runner with every function (crawls, render passes, the uptime round loop, delivery),
 * and the /v1 route handlers behind a plain HTTP server. Figures, not assertions.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { serverEnv, serverNodeArgs } from '../../scripts/node-flags.mjs';
import { compileBench } from './compile';
import { machineLine } from './machine';

const self = fileURLToPath(import.meta.url);
const { values: args } = parseArgs({
  options: {
    child: { type: 'string' },
    minutes: { type: 'string', default: '3' },
    tenants: { type: 'string', default: '20' },
    monitors: { type: 'string', default: '50' },
    pages: { type: 'string', default: '10' },
    only: { type: 'string' },
    setup: { type: 'string' },
    profile: { type: 'string' },
  },
});

/** What the conductor hands the server: where each tenant's things live. */
interface Setup {
  tenants: number;
  monitors: number;
  pages: number;
  hostile: boolean;
  siteBase: string;
  targetBase: string;
  tarpitBase: string;
  receiverBase: string;
}
/** What the server answers once seeded. */
interface Seeded {
  port: number;
  tenants: { tenantId: string; siteId: string; apiKey: string; hostile: boolean }[];
}
/** The server's own reads at the end. */
interface ServerFigures {
  database: string;
  /** Lateness of first attempts (checked_at - round_at), ms, of the calm tenants' monitors. */
  lateness: number[];
  /** The calm tenants' incidents on their flapping monitor: [tenantId, openedAt, resolvedAt]. */
  incidents: { tenantId: string; openedAt: number; resolvedAt: number | null }[];
  /** The calm tenants' crawls, each with its chained render pass (one run: the pass is its last phase). */
  crawls: {
    tenantId: string;
    seconds: number | null;
    passSeconds: number | null;
    state: string;
    pages: number;
    rendered: number;
  }[];
  /** The calm tenants' render pass pages by outcome: `scanned`, `pending`, or the not-scanned reason. */
  renderOutcomes: Record<string, number>;
  /**
   * Where the calm tenants' webhook alerts waited, ms: queued to resolved into deliveries
   * (`dispatch`), resolved to claimed by a worker for the first attempt (`claim`), that attempt's
   * send (`send`).
   */
  alertStages: { dispatch: number[]; claim: number[]; send: number[] };
  /** The server's event loop delay over the run, ms. */
  loopDelayMs: LoopDelay;
  peakRssMb: number;
  cpuSeconds: number;
}

/** How long the server waits, once the run is over, for the calm tenants' render passes to end. */
const PASS_GRACE_MS = 180_000;

// ---------------------------------------------------------------------------------------------
// The server under test (child process)
// ---------------------------------------------------------------------------------------------

async function serve(setup: Setup): Promise<void> {
  const { getDbHandle } = await import('@/lib/db/client');
  const schema = await import('@/lib/db/schema');
  const { createMonitor } = await import('@/lib/uptime/monitors');
  const { createSite } = await import('@/lib/sites/service');
  const { createSiteBody } = await import('@/lib/api/schemas/sites');
  const { createMonitorBody } = await import('@/lib/api/schemas/uptime');
  const { functions } = await import('@/jobs/functions');
  const { startJobRuntime, stopJobRuntime } = await import('@/jobs/runtime');
  const { insertApiKey } = await import('../support/http');
  const { and, eq, inArray, sql } = await import('drizzle-orm');
  const statusRoute = await import('@/app/api/v1/sites/[id]/status/route');
  const crawlRoute = await import('@/app/api/v1/sites/[id]/crawl/route');
  const monitorsRoute = await import('@/app/api/v1/sites/[id]/uptime/monitors/route');

  const handle = await getDbHandle();
  const { db } = handle;
  const now = Date.now();
  const seeded: Seeded['tenants'] = [];
  for (let t = 0; t < setup.tenants; t++) {
    const hostile = setup.hostile && t === setup.tenants - 1;
    const tenantId = `bench-t${t}-${now}`;
    await db.insert(schema.organizations).values({ id: tenantId, name: `Tenant ${t}`, slug: tenantId });
    // Overage on: 50 monitors are past the pooled allowance of one site.
    await db
      .insert(schema.billingSettings)
      .values({ tenant_id: tenantId, overage_enabled: 1, updated_at: now });
    const principal = { tenantId, via: 'key' as const, siteIds: 'all' as const, canCrawl: true };
    const site = await createSite(
      db,
      principal,
      await createSiteBody.parseAsync({
        rootUrl: `${setup.siteBase}/t${t}/`,
        maxPages: setup.pages + 5,
        a11yEnabled: true,
        performanceEnabled: false,
      }),
    );
    for (let m = 0; m < setup.monitors; m++) {
      const url = hostile ? `${setup.tarpitBase}/m/${t}/${m}` : `${setup.targetBase}/m/${t}/${m}`;
      const alertWebhooks = hostile
        ? Array.from({ length: 5 }, (_, k) => ({
            kind: 'http' as const,
            url: `${setup.tarpitBase}/hook/${t}/${m}/${k}`,
          }))
        : m === 0
          ? [{ kind: 'http' as const, url: `${setup.receiverBase}/hook/${t}` }]
          : [];
      const body = await createMonitorBody.parseAsync({
        url,
        timeoutSeconds: 30,
        enabled: false,
        alertWebhooks,
      });
      await createMonitor(db, principal, site.id, body);
    }
    const apiKey = await insertApiKey(db, tenantId, { name: 'bench' });
    seeded.push({ tenantId, siteId: site.id, apiKey, hostile });
  }
  // Every monitor resumed at once, each on its own phase of the minute (as monitors created over
  // time are), so rounds arrive spread out rather than as one burst each minute.
  const started = Date.now();
  await db.execute(sql`
    update ${schema.uptimeMonitors}
       set enabled = 1,
           next_probe_at = ${started}::bigint + (abs(hashtext(${schema.uptimeMonitors.id}::text)) % 60000)
     where ${inArray(
       schema.uptimeMonitors.tenant_id,
       seeded.map((s) => s.tenantId),
     )}`);
  await db.execute(sql`delete from ${schema.uptimePauses}`);

  type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
  const routes: [RegExp, string, Handler][] = [
    [/^\/v1\/sites\/([^/]+)\/status$/, 'GET', statusRoute.GET as Handler],
    [/^\/v1\/sites\/([^/]+)\/crawl$/, 'POST', crawlRoute.POST as Handler],
    [/^\/v1\/sites\/([^/]+)\/uptime\/monitors$/, 'GET', monitorsRoute.GET as Handler],
  ];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost:3000');
    const route = routes.find(([re, method]) => method === req.method && re.test(url.pathname));
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    const id = route[0].exec(url.pathname)?.[1] ?? '';
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    try {
      const answer = await route[2](
        new Request(`http://localhost:3000/api${url.pathname}${url.search}`, {
          method: req.method,
          headers,
          body: chunks.length ? Buffer.concat(chunks) : undefined,
        }),
        { params: Promise.resolve({ id }) },
      );
      const body = Buffer.from(await answer.arrayBuffer());
      res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(body);
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');

  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 500);
  const cpuStart = process.cpuUsage();
  const loopDelay = monitorEventLoopDelay({ resolution: 20 });
  loopDelay.enable();
  await startJobRuntime({ functions, force: true });
  process.send?.({ ready: { port: (server.address() as AddressInfo).port, tenants: seeded } });

  await new Promise<void>((resolve) => process.once('message', () => resolve()));
  const stoppedAt = Date.now();
  const cpu = process.cpuUsage(cpuStart);
  loopDelay.disable();
  clearInterval(sampler);
  server.close();
  const calm = seeded.filter((s) => !s.hostile).map((s) => s.tenantId);
  // The calm tenants' render passes get up to PASS_GRACE_MS more to end, so that their length is
  // measured rather than cut at the run's end (the other figures are of the run's window only).
  const passesLeft = async () =>
    (
      await db
        .select({ id: schema.runs.id })
        .from(schema.runs)
        .where(
          and(
            inArray(schema.runs.tenant_id, calm),
            eq(schema.runs.kind, 'crawl'),
            sql`${schema.runs.a11y_phase} <> 'done'`,
          ),
        )
    ).length;
  while (Date.now() - stoppedAt < PASS_GRACE_MS && (await passesLeft()) > 0)
    await new Promise((r) => setTimeout(r, 2000));
  const lateRows = await db
    .select({
      lateness: sql<number>`${schema.probeResults.checked_at} - ${schema.probeResults.round_at}`.mapWith(
        Number,
      ),
    })
    .from(schema.probeResults)
    .where(
      and(
        inArray(schema.probeResults.tenant_id, calm),
        eq(schema.probeResults.attempts, 1),
        sql`${schema.probeResults.round_at} <= ${stoppedAt}::bigint`,
      ),
    );
  const incidents = await db
    .select({
      tenantId: schema.uptimeIncidents.tenant_id,
      openedAt: schema.uptimeIncidents.down_at,
      resolvedAt: schema.uptimeIncidents.recovered_at,
    })
    .from(schema.uptimeIncidents)
    .where(inArray(schema.uptimeIncidents.tenant_id, calm));
  const runRows = await db
    .select({
      tenantId: schema.runs.tenant_id,
      state: schema.runs.state,
      startedAt: schema.runs.started_at,
      finishedAt: schema.runs.finished_at,
      pages: schema.runs.pages_crawled,
      rendered: schema.runs.a11y_pages_scanned,
      phase: schema.runs.a11y_phase,
      // A chained crawl is finished when its crawl is; its pass ends with its last page stored.
      passEndedAt: sql<number | null>`(select max(${schema.a11yPages.created_at}) from ${schema.a11yPages}
        where ${schema.a11yPages.run_id} = ${schema.runs.id} and ${schema.a11yPages.status} <> 'pending')`.mapWith(
        (v) => (v === null ? null : Number(v)),
      ),
    })
    .from(schema.runs)
    .where(and(inArray(schema.runs.tenant_id, calm), eq(schema.runs.kind, 'crawl')));

  const stageRows = await db
    .select({
      queuedAt: schema.notificationOutbox.created_at,
      dispatchedAt: schema.notificationOutbox.sent_at,
      claimedAt: schema.notificationAttempts.started_at,
      finishedAt: schema.notificationAttempts.finished_at,
    })
    .from(schema.notificationDeliveries)
    .innerJoin(
      schema.notificationOutbox,
      eq(schema.notificationOutbox.id, schema.notificationDeliveries.event_id),
    )
    .innerJoin(
      schema.notificationAttempts,
      and(
        eq(schema.notificationAttempts.delivery_id, schema.notificationDeliveries.id),
        eq(schema.notificationAttempts.attempt, 1),
      ),
    )
    .where(
      and(
        inArray(schema.notificationDeliveries.tenant_id, calm),
        eq(schema.notificationDeliveries.channel, 'http'),
      ),
    );
  const alertStages = {
    dispatch: stageRows.map((r) => (r.dispatchedAt ?? r.queuedAt) - r.queuedAt),
    claim: stageRows.map((r) => r.claimedAt - (r.dispatchedAt ?? r.queuedAt)),
    send: stageRows.map((r) => (r.finishedAt ?? r.claimedAt) - r.claimedAt),
  };

  const outcomeRows = await db
    .select({
      status: schema.a11yPages.status,
      reason: schema.a11yPages.reason,
      n: sql<number>`count(*)`.mapWith(Number),
    })
    .from(schema.a11yPages)
    .where(inArray(schema.a11yPages.tenant_id, calm))
    .groupBy(schema.a11yPages.status, schema.a11yPages.reason);
  const renderOutcomes: Record<string, number> = {};
  for (const r of outcomeRows) {
    // Reasons name the page's URL: grouped by their wording without it.
    const key =
      r.status === 'not-scanned'
        ? `not scanned: ${(r.reason ?? '').replace(/https?:\/\/\S+/g, '<url>')}`
        : r.status;
    renderOutcomes[key] = (renderOutcomes[key] ?? 0) + r.n;
  }

  const figures: ServerFigures = {
    database: handle.driver,
    lateness: lateRows.map((r) => r.lateness),
    incidents: incidents.map((i) => ({
      tenantId: i.tenantId,
      openedAt: i.openedAt,
      resolvedAt: i.resolvedAt,
    })),
    crawls: runRows.map((r) => ({
      tenantId: r.tenantId,
      state: r.state,
      pages: r.pages ?? 0,
      rendered: r.rendered ?? 0,
      seconds: r.finishedAt ? (r.finishedAt - r.startedAt) / 1000 : null,
      // Through its render pass: null while the pass had not ended when the run stopped.
      passSeconds: r.phase === 'done' && r.passEndedAt ? (r.passEndedAt - r.startedAt) / 1000 : null,
    })),
    renderOutcomes,
    alertStages,
    loopDelayMs: delayFigures(loopDelay),
    peakRssMb: Math.round(peakRss / 1024 / 1024),
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
  process.send?.({ figures });
  // The runner's in-flight work (a tarpit delivery waiting out its timeout) is not waited for.
  void stopJobRuntime();
  setTimeout(() => process.exit(0), 500);
}

// ---------------------------------------------------------------------------------------------
// The conductor
// ---------------------------------------------------------------------------------------------

const listen = async (server: Server, host = '127.0.0.1'): Promise<string> => {
  server.listen(0, host);
  await once(server, 'listening');
  return `http://${host}:${(server.address() as AddressInfo).port}`;
};

/** Each tenant's small site: `pages` pages in a ring, one broken link; the hostile one adds traps. */
function siteServer(pages: number, hostileTenant: number | null): Server {
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const m = /^\/t(\d+)\/(.*)$/.exec(req.url ?? '');
    if (!m) return void res.writeHead(404).end();
    const tenant = Number(m[1]);
    const path = m[2] ?? '';
    const hostile = tenant === hostileTenant;
    if (hostile && path === 'loop') {
      return void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          '<!doctype html><html lang="en"><title>Loop</title><main><h1>Loop</h1><script>for(;;){}</script></main></html>',
        );
    }
    if (hostile && path === 'download') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024);
      const pump = () => {
        while (res.write(chunk)) {}
      };
      res.on('drain', pump);
      held.push(res);
      return void pump();
    }
    if (hostile && path === 'fetcher') {
      return void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          '<!doctype html><html lang="en"><title>Fetcher</title><main><h1>Fetcher</h1><a href="download" download>get</a><script>for(let i=0;i<50;i++){const a=document.createElement("a");a.href="download";a.download="x"+i;document.body.append(a);a.click()}</script></main></html>',
        );
    }
    const i = path === '' ? 0 : Number(/^p(\d+)$/.exec(path)?.[1] ?? -1);
    if (!(i >= 0 && i < pages)) return void res.writeHead(404).end('not found');
    const traps = hostile && i === 0 ? '<a href="loop">loop</a> <a href="fetcher">fetcher</a>' : '';
    res.writeHead(200, { 'content-type': 'text/html' }).end(
      `<!doctype html><html lang="en"><head><title>Page ${i} of tenant ${tenant}</title><meta name="description" content="Page ${i}"></head>
       <body><main><h1>Page ${i}</h1><p>Some text for page ${i}.</p>
       <a href="p${(i + 1) % pages}">next</a> <a href="p${(i + 2) % pages}">skip</a> ${i === 0 ? '<a href="missing">broken</a>' : ''} ${traps}
       </main></body></html>`,
    );
  });
  server.on('close', () => {
    for (const res of held) res.destroy();
  });
  return server;
}

interface Receipt {
  tenant: number;
  type: string;
  eventId: string;
  messageId: string;
  occurredAt: number;
  receivedAt: number;
}

async function measureOnce(options: {
  hostile: boolean;
  tenants: number;
  monitors: number;
  pages: number;
  minutes: number;
  entry: string;
}) {
  const { tenants, monitors, pages, minutes } = options;
  const hostileTenant = options.hostile ? tenants - 1 : null;
  const runStarted = Date.now();
  // The run's clock: reset when the server is ready (seeding is not part of the run).
  let clock0 = runStarted;
  // The flapping monitors (monitor 0 of each calm tenant) are down in this window of the run.
  const downFrom = 30_000;
  const downUntil = Math.min(minutes * 60_000 - 75_000, 110_000);

  const site = siteServer(pages, hostileTenant);
  const target = createServer((req, res) => {
    const m = /^\/m\/(\d+)\/(\d+)$/.exec(req.url ?? '');
    const elapsed = Date.now() - clock0;
    if (m && m[2] === '0' && elapsed >= downFrom && elapsed < downUntil)
      return void res.writeHead(503).end('down');
    res.writeHead(200).end('ok');
  });
  target.keepAliveTimeout = 1000;
  const tarpitSockets = new Set<import('node:net').Socket>();
  const tarpit = createServer(() => {
    // Accepts and reads, never answers.
  });
  tarpit.on('connection', (socket) => {
    tarpitSockets.add(socket);
    socket.on('close', () => tarpitSockets.delete(socket));
  });
  const receipts: Receipt[] = [];
  const receiver = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const m = /^\/hook\/(\d+)$/.exec(req.url ?? '');
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as {
        type: string;
        id: string;
        timestamp: number;
      };
      receipts.push({
        tenant: Number(m?.[1]),
        type: body.type,
        eventId: body.id,
        messageId: String(req.headers['webhook-id']),
        occurredAt: body.timestamp,
        receivedAt: Date.now(),
      });
    } catch {
      // a malformed delivery is counted as nothing received
    }
    res.writeHead(204).end();
  });
  const siteBase = await listen(site, '127.0.0.2');
  const targetBase = await listen(target, '127.0.0.3');
  const tarpitBase = await listen(tarpit, '127.0.0.4');
  const receiverBase = await listen(receiver, '127.0.0.5');

  const dataDir = mkdtempSync(`${tmpdir()}/sitewatch-bench-tenants-`);
  // On Postgres each run gets a database of its own, so the calm run's monitors are gone by the next.
  const database = process.env.BENCH_DATABASE_URL
    ? await createRunDatabase(process.env.BENCH_DATABASE_URL)
    : null;
  const setup: Setup = {
    tenants,
    monitors,
    pages,
    hostile: options.hostile,
    siteBase,
    targetBase,
    tarpitBase,
    receiverBase,
  };
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...serverNodeArgs(process.env.NODE_OPTIONS),
      ...(args.profile ? ['--cpu-prof', `--cpu-prof-dir=${args.profile}`] : []),
      options.entry,
      '--child',
      'server',
      '--setup',
      JSON.stringify(setup),
    ],
    {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      env: {
        ...serverEnv(),
        ALLOW_PRIVATE_NETWORK: 'true',
        EMBEDDED_RUNNER: 'true',
        PGLITE_DIR: `${dataDir}/pglite`,
        ...(database ? { DATABASE_URL: database.url } : {}),
      },
    },
  );
  const [message] = (await once(child, 'message')) as [{ ready: Seeded }];
  const seeded = message.ready;
  const api = `http://127.0.0.1:${seeded.port}`;
  const seedSeconds = (Date.now() - runStarted) / 1000;
  clock0 = Date.now();
  const ends = clock0 + minutes * 60_000;

  // Each tenant's crawl (its render pass follows it) starts at once.
  await Promise.all(
    seeded.tenants.map((t) =>
      fetch(`${api}/v1/sites/${t.siteId}/crawl`, { method: 'POST', headers: { 'x-api-key': t.apiKey } }).then(
        (r) => r.arrayBuffer(),
      ),
    ),
  );

  // The conductor's own event loop: the calm clients, sites and receivers time on it.
  const conductorDelay = monitorEventLoopDelay({ resolution: 20 });
  conductorDelay.enable();
  const calmApi: number[] = [];
  const calmStatus = new Map<number, number>();
  let hostileRequests = 0;
  const hostileStatus = new Map<number, number>();
  const clients = seeded.tenants.flatMap((t) => {
    if (!t.hostile) {
      // One dashboard open per calm tenant: its site's status once a second.
      return [
        (async () => {
          await new Promise((r) => setTimeout(r, Math.random() * 1000));
          while (Date.now() < ends) {
            const start = performance.now();
            const res = await fetch(`${api}/v1/sites/${t.siteId}/status`, {
              headers: { 'x-api-key': t.apiKey },
            });
            await res.arrayBuffer();
            calmApi.push(performance.now() - start);
            calmStatus.set(res.status, (calmStatus.get(res.status) ?? 0) + 1);
            await new Promise((r) => setTimeout(r, 500 + Math.random() * 1000));
          }
        })(),
      ];
    }
    // The hostile tenant's burst, from a process of its own as an attacker's clients would be: in
    // this one, its loop of refused requests took the event loop the calm clients, the sites and
    // the receivers answer and time on, and the figures measured the conductor, not the server.
    return [
      (async () => {
        const burst = spawn(
          process.execPath,
          [
            options.entry,
            '--child',
            'burst',
            '--setup',
            JSON.stringify({ api, siteId: t.siteId, apiKey: t.apiKey, ends }),
          ],
          { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] },
        );
        const [tally] = (await once(burst, 'message')) as [
          { requests: number; statuses: Record<string, number> },
        ];
        hostileRequests += tally.requests;
        for (const [status, n] of Object.entries(tally.statuses))
          hostileStatus.set(Number(status), (hostileStatus.get(Number(status)) ?? 0) + n);
        await once(burst, 'exit');
      })(),
    ];
  });
  await Promise.all(clients);
  conductorDelay.disable();
  // Deliveries still under way get a little time to land (the recovery alerts of late incidents).
  await new Promise((r) => setTimeout(r, 20_000));
  child.send('stop');
  const [result] = (await once(child, 'message')) as [{ figures: ServerFigures }];
  await once(child, 'exit');
  for (const s of tarpitSockets) s.destroy();
  await Promise.all([site, target, tarpit, receiver].map((s) => new Promise((r) => s.close(r))));
  rmSync(dataDir, { recursive: true, force: true });
  await database?.drop();

  const calmTenants = seeded.tenants.filter((t) => !t.hostile);
  const figures = result.figures;
  const down = receipts.filter((r) => r.type === 'uptime.down').map((r) => r.receivedAt - r.occurredAt);
  const up = receipts.filter((r) => r.type === 'uptime.recovered').map((r) => r.receivedAt - r.occurredAt);
  const seen = new Map<string, number>();
  for (const r of receipts) seen.set(r.messageId, (seen.get(r.messageId) ?? 0) + 1);
  const duplicated = [...seen.values()].filter((n) => n > 1).length;
  // Every incident opened on a calm tenant expects one down alert, and one recovery alert once resolved.
  const expected = figures.incidents.reduce((n, i) => n + 1 + (i.resolvedAt ? 1 : 0), 0);
  const receivedEvents = new Set(receipts.map((r) => `${r.eventId}`)).size;
  const lost = Math.max(0, expected - receivedEvents);
  return {
    hostile: options.hostile,
    database: figures.database,
    seedSeconds,
    alertDown: stats(down),
    alertRecovered: stats(up),
    alertStages: {
      dispatch: stats(figures.alertStages.dispatch),
      claim: stats(figures.alertStages.claim),
      send: stats(figures.alertStages.send),
    },
    api: stats(calmApi),
    apiStatuses: Object.fromEntries(calmStatus),
    lateness: stats(figures.lateness),
    crawl: stats(figures.crawls.filter((c) => c.seconds !== null).map((c) => c.seconds! * 1000)),
    pass: stats(figures.crawls.filter((c) => c.passSeconds !== null).map((c) => c.passSeconds! * 1000)),
    passesEnded: `${figures.crawls.filter((c) => c.passSeconds !== null).length}/${calmTenants.length}`,
    crawlsCompleted: `${figures.crawls.filter((c) => c.state === 'completed').length}/${calmTenants.length}`,
    pagesCrawled: figures.crawls.reduce((n, c) => n + c.pages, 0),
    pagesRendered: figures.crawls.reduce((n, c) => n + c.rendered, 0),
    renderOutcomes: figures.renderOutcomes,
    incidents: figures.incidents.length,
    expectedAlerts: expected,
    receivedAlerts: receivedEvents,
    lost,
    duplicated,
    hostileRequests,
    hostileStatuses: Object.fromEntries(hostileStatus),
    serverLoopDelayMs: figures.loopDelayMs,
    conductorLoopDelayMs: delayFigures(conductorDelay),
    serverCpuSeconds: figures.cpuSeconds,
    serverPeakRssMb: figures.peakRssMb,
  };
}

/** A fresh database on BENCH_DATABASE_URL's server for one run, dropped after it. */
async function createRunDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const { default: pg } = await import('pg');
  const name = `sitewatch_bench_tenants_${process.pid}_${Date.now()}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

type LoopDelay = { p50: number; p99: number; max: number };
/** An event loop delay histogram (nanoseconds) as milliseconds. */
function delayFigures(h: ReturnType<typeof monitorEventLoopDelay>): LoopDelay {
  const ms = (ns: number) => Math.round(ns / 1e6);
  return { p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max) };
}

interface Stats {
  n: number;
  p50: number;
  p99: number;
}
function stats(values: number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
  return { n: sorted.length, p50: Math.round(rank(50)), p99: Math.round(rank(99)) };
}

/** The hostile tenant's burst (a child process): 30 clients back to back on its heaviest read. */
async function burst(setup: { api: string; siteId: string; apiKey: string; ends: number }): Promise<void> {
  let requests = 0;
  const statuses: Record<string, number> = {};
  await Promise.all(
    Array.from({ length: 30 }, async () => {
      while (Date.now() < setup.ends) {
        const res = await fetch(`${setup.api}/v1/sites/${setup.siteId}/uptime/monitors`, {
          headers: { 'x-api-key': setup.apiKey },
        });
        await res.arrayBuffer();
        requests += 1;
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        // A 429 says when to come back; a hostile client does not listen, but yields a tick.
        if (res.status === 429) await new Promise((r) => setTimeout(r, 10));
      }
    }),
  );
  process.send?.({ requests, statuses });
  process.disconnect?.();
}

async function main(): Promise<void> {
  if (args.child === 'burst') {
    await burst(JSON.parse(args.setup as string));
    return;
  }
  if (args.child === 'server') {
    await serve(JSON.parse(args.setup as string) as Setup);
    return;
  }
  const tenants = Number(args.tenants);
  const monitors = Number(args.monitors);
  const pages = Number(args.pages);
  const minutes = Number(args.minutes);
  const entry = await compileBench(self, 'tenants.bench');
  console.log(`${machineLine()}; database ${process.env.BENCH_DATABASE_URL ? 'Postgres' : 'PGlite on disk'}`);
  console.log(
    `${tenants} tenants x (${monitors} monitors at 60 s, a ${pages}-page crawl and its render pass, one webhook), ${minutes} min each run`,
  );
  const runs = [];
  for (const hostile of [false, true]) {
    if (args.only === 'calm' && hostile) continue;
    if (args.only === 'hostile' && !hostile) continue;
    const r = await measureOnce({ hostile, tenants, monitors, pages, minutes, entry });
    console.log(`\n${hostile ? 'with the hostile tenant' : 'all tenants calm'}: ${JSON.stringify(r)}`);
    runs.push(r);
  }
  if (runs.length !== 2) return;
  const [calm, noisy] = runs as [
    Awaited<ReturnType<typeof measureOnce>>,
    Awaited<ReturnType<typeof measureOnce>>,
  ];
  const FLOOR = 250;
  const change = (a: number, b: number) => (Math.max(b, FLOOR) - Math.max(a, FLOOR)) / Math.max(a, FLOOR);
  const rows: [string, number, number][] = [
    ['alert latency, down, p50 (ms)', calm.alertDown.p50, noisy.alertDown.p50],
    ['alert latency, down, p99 (ms)', calm.alertDown.p99, noisy.alertDown.p99],
    ['alert latency, recovery, p50 (ms)', calm.alertRecovered.p50, noisy.alertRecovered.p50],
    ['alert latency, recovery, p99 (ms)', calm.alertRecovered.p99, noisy.alertRecovered.p99],
    ['API p50 (ms)', calm.api.p50, noisy.api.p50],
    ['API p99 (ms)', calm.api.p99, noisy.api.p99],
    ['probe lateness p50 (ms)', calm.lateness.p50, noisy.lateness.p50],
    ['probe lateness p99 (ms)', calm.lateness.p99, noisy.lateness.p99],
    ['crawl, p50 (ms)', calm.crawl.p50, noisy.crawl.p50],
    ['crawl, p99 (ms)', calm.crawl.p99, noisy.crawl.p99],
  ];
  // A pass that had not ended is left out of its run's figures: compared only when all ended.
  const allEnded = (r: typeof calm) => r.pass.n === r.crawl.n;
  if (allEnded(calm) && allEnded(noisy)) {
    rows.push(['crawl and its render pass, p50 (ms)', calm.pass.p50, noisy.pass.p50]);
    rows.push(['crawl and its render pass, p99 (ms)', calm.pass.p99, noisy.pass.p99]);
  }
  console.log(`\nThe ${tenants - 1} calm tenants, without and with the hostile tenant:`);
  console.log('| figure | all calm | with hostile | change |');
  console.log('|---|---|---|---|');
  let worst = 0;
  for (const [label, a, b] of rows) {
    const c = change(a, b);
    worst = Math.max(worst, c);
    console.log(`| ${label} | ${a} | ${b} | ${c >= 0 ? '+' : ''}${(c * 100).toFixed(0)}% |`);
  }
  console.log(
    `| alerts expected / received / lost / duplicated | ${calm.expectedAlerts} / ${calm.receivedAlerts} / ${calm.lost} / ${calm.duplicated} | ${noisy.expectedAlerts} / ${noisy.receivedAlerts} / ${noisy.lost} / ${noisy.duplicated} | |`,
  );
  console.log(
    `| crawls completed (pages crawled / rendered) | ${calm.crawlsCompleted} (${calm.pagesCrawled} / ${calm.pagesRendered}) | ${noisy.crawlsCompleted} (${noisy.pagesCrawled} / ${noisy.pagesRendered}) | |`,
  );
  console.log(
    `| render passes ended (within ${PASS_GRACE_MS / 1000} s of the run's end) | ${calm.passesEnded} | ${noisy.passesEnded} | |`,
  );
  const delay = (d: LoopDelay) => `${d.p50} / ${d.p99} / ${d.max}`;
  console.log(
    `| event loop delay p50 / p99 / max (ms): server | ${delay(calm.serverLoopDelayMs)} | ${delay(noisy.serverLoopDelayMs)} | |`,
  );
  console.log(
    `| event loop delay p50 / p99 / max (ms): conductor | ${delay(calm.conductorLoopDelayMs)} | ${delay(noisy.conductorLoopDelayMs)} | |`,
  );
  const stages = (r: typeof calm) =>
    (['dispatch', 'claim', 'send'] as const)
      .map((k) => `${k} ${r.alertStages[k].p50} / ${r.alertStages[k].p99}`)
      .join(', ');
  console.log(
    `| where alerts waited p50 / p99 (ms): queued to dispatched, to claimed, the send | ${stages(calm)} | ${stages(noisy)} | |`,
  );
  console.log(
    `render outcomes of the calm tenants' pages: all calm ${JSON.stringify(calm.renderOutcomes)}; with hostile ${JSON.stringify(noisy.renderOutcomes)}`,
  );
  console.log(
    `hostile tenant's burst: ${noisy.hostileRequests} requests, statuses ${JSON.stringify(noisy.hostileStatuses)}`,
  );
  const intact = noisy.lost === 0 && noisy.duplicated === 0 && calm.lost === 0 && calm.duplicated === 0;
  console.log(
    `target (no calm tenant's figure worse by more than 20%, nothing lost or duplicated): ${worst <= 0.2 && intact ? 'met' : 'NOT met'} (worst change +${(worst * 100).toFixed(0)}%)`,
  );
}

await main();
