import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { functions } from '@/jobs/functions';
import { deliveriesResponse, orgNotificationsResponse } from '@/lib/api/schemas/notifications';
import {
  brokenLinkReportResponse,
  crawlTriggerResponse,
  siteResponse,
  siteStatusResponse,
} from '@/lib/api/schemas/resources';
import { monitorLiveResponse, monitorResponse } from '@/lib/api/schemas/uptime';
import { adminQuery, withDatabase } from '../support/db';
import { closedPort, readRequestBody, startServer, type TestServer } from '../support/http-server';
import { type CallInfo, InngestExecutor, type Run, signBody } from '../support/inngest-executor';

/**
 * The hosted path end to end: the production build (`next start`) configured as a deployment is
 * (Inngest keys, a Postgres database migrated by the deploy step, the embedded runner off, the probe
 * regions as routes), driven by a local executor speaking Inngest's HTTP protocol
 * (tests/support/inngest-executor.ts). Nothing of the app runs in this process: every job goes
 * through `/api/inngest` as Inngest would call it.
 *
 * The story: the app registers its functions; a crawl of a loopback site started with
 * `POST /v1/sites/{id}/crawl` reaches the executor's event API, is worked step by step to a
 * completed report and chains the accessibility render pass (Chromium); an uptime round probes from
 * the four regions through their routes and opens an incident; the incident's webhook is delivered.
 * Along the way one step fails once and is retried (the event API is down for the SDK's five
 * tries), and two invocations are cut mid-step and re-run (the crawl's finalization, held on the
 * usage ledger, and the delivery, held by the receiver), with one ledger row and one delivery.
 *
 * `npm test` runs this file after its production build, against the CI Postgres server.
 */

const serverUrl = process.env.TEST_DATABASE_URL;
const require = createRequire(import.meta.url);

/** Seconds since the suite started, on every line it logs: where a slow run spent its time. */
const started = Date.now();
const log = (line: string) => console.log(`+${((Date.now() - started) / 1000).toFixed(1)}s ${line}`);

// The hosted path keeps its state in a Postgres server the app and this test both reach; PGlite is
// one process's database, so without TEST_DATABASE_URL there is nothing to run this against.
describe.skipIf(!serverUrl)('the hosted path through Inngest (production build)', () => {
  const SIGNING_KEY = `signkey-test-${randomBytes(32).toString('hex')}`;
  const EVENT_KEY = randomBytes(16).toString('hex');
  const PROBE_SECRET = randomBytes(24).toString('base64url');
  const OWNER = 'owner@hosted.example';

  let database = '';
  let databaseUrl = '';
  let executor: InngestExecutor;
  let site: TestServer;
  let regions: RecordingProxy;
  let hook: HeldReceiver;
  let app: AppServer;
  let token = '';
  let siteId = '';
  let monitorId = '';
  let uptimeRun: Run;
  let deliveryCut: Promise<CallInfo[]>;

  beforeAll(async () => {
    if (!existsSync('.next/BUILD_ID')) throw new Error('no production build: run `next build` first');
    database = `sw_hosted_${randomBytes(6).toString('hex')}`;
    await adminQuery(serverUrl as string, `create database ${database}`);
    databaseUrl = withDatabase(serverUrl as string, database);
    // The deploy step, before any traffic: migrations are not the server's business.
    const migrated = spawnSync(process.execPath, [require.resolve('tsx/cli'), 'lib/db/migrate-cli.ts'], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      encoding: 'utf8',
    });
    if (migrated.status !== 0) throw new Error(`migrations failed: ${migrated.stderr}`);

    site = await startServer('127.0.0.1', {
      '/': page('<h1>Home</h1><a href="/about">About</a> <a href="/gone">Gone</a> <img src="/logo.png">'),
      '/about': page('<h1>About</h1><a href="/">Home</a>'),
      '/gone': { status: 404, body: 'not here' },
      '/logo.png': { headers: { 'content-type': 'image/png' }, body: Buffer.from([137, 80, 78, 71]) },
      '/down': { status: 503, body: 'down for maintenance' },
    });
    hook = await startHeldReceiver();
    executor = new InngestExecutor({
      signingKey: SIGNING_KEY,
      eventKey: EVENT_KEY,
      retryDelayMs: (attempt) => 200 * attempt,
      log,
    });
    await executor.start();

    const port = await closedPort();
    const appUrl = `http://127.0.0.1:${port}`;
    regions = await startRecordingProxy(appUrl);
    app = await startApp(port, {
      APP_URL: appUrl,
      DATABASE_URL: databaseUrl,
      BETTER_AUTH_SECRET: randomBytes(32).toString('hex'),
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      INNGEST_SIGNING_KEY: SIGNING_KEY,
      INNGEST_EVENT_KEY: EVENT_KEY,
      INNGEST_API_BASE_URL: executor.url,
      INNGEST_EVENT_API_BASE_URL: executor.url,
      EMBEDDED_RUNNER: 'false',
      UPTIME_PROBE_SECRET: PROBE_SECRET,
      // The region routes are reached through a proxy that records the calls.
      UPTIME_REGIONS_URL: regions.url,
      // The loopback site, receiver and regions are the private places this deployment may reach.
      NODE_ENV: 'production',
      PRIVATE_NETWORKS: '127.0.0.0/8',
    });
  }, 180_000);

  afterAll(async () => {
    await executor?.close();
    await app?.stop();
    await Promise.all([site?.close(), hook?.close(), regions?.close()]);
    if (database) await adminQuery(serverUrl as string, `drop database if exists ${database} with (force)`);
  }, 60_000);

  /** A /v1 call as the signed-in owner; the answer is read with the route's own response schema. */
  const api = async <S extends z.ZodType>(schema: S, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${app.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status}: ${text}`);
    return { status: response.status, body: schema.parse(JSON.parse(text)) as z.output<S> };
  };

  const query = async <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return (await client.query<T>(text, values)).rows;
    } finally {
      await client.end();
    }
  };

  it('registers every function with Inngest, and answers only signed calls', async () => {
    const put = await fetch(`${app.url}/api/inngest`, { method: 'PUT' });
    expect(put.status).toBe(200);
    expect(executor.registrations).toEqual([{ authorized: true, functionCount: functions.length }]);
    expect([...executor.functions.keys()].sort()).toEqual(functions.map((f) => `sitewatch-${f.id()}`).sort());

    // Introspection answers a signed request only.
    const signed = await fetch(`${app.url}/api/inngest`, {
      headers: { 'x-inngest-signature': signBody(SIGNING_KEY, '') },
    });
    const inspection = (await signed.json()) as Record<string, unknown>;
    expect(inspection).toMatchObject({
      mode: 'cloud',
      authentication_succeeded: true,
      function_count: functions.length,
    });
    expect((await fetch(`${app.url}/api/inngest`)).status).toBe(401);

    // A call to run a function without a valid signature runs nothing.
    const forged = await fetch(`${app.url}/api/inngest?fnId=sitewatch-crawl-run&stepId=step`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-inngest-signature': signBody('signkey-test-00', '{}'),
      },
      body: JSON.stringify({ event: {}, events: [], steps: {}, ctx: { run_id: 'x', attempt: 0 } }),
    });
    expect(forged.status).toBe(401);
  });

  it('signs in and sets up a site with a monitor, as a customer would', async () => {
    token = await signIn(app, OWNER);
    const created = await api(siteResponse, 'POST', '/v1/sites', {
      rootUrl: site.url('/'),
      a11yEnabled: true,
      maxConcurrency: 2,
    });
    expect(created.status).toBe(201);
    siteId = created.body.site.id;
    const monitor = await api(monitorResponse, 'POST', `/v1/sites/${siteId}/uptime/monitors`, {
      url: site.url('/down'),
      timeoutSeconds: 5,
      alertWebhooks: [{ kind: 'http', url: hook.url }],
    });
    expect(monitor.status).toBe(201);
    monitorId = monitor.body.monitor.id;
    const settings = await api(orgNotificationsResponse, 'GET', '/v1/notifications');
    hook.verifyWith(settings.body.signingSecret);

    // Whichever delivery job sends the incident's webhook: the receiver holds it, the executor
    // drops the job's call meanwhile and runs it again (which must not send a second time), and the
    // receiver answers once that re-run has ended, within the 10 s a webhook gets.
    // Two delivery invocations may run at once: every one in flight is dropped, the sender among them.
    deliveryCut = executor.interrupt(({ run }) => run.fnId === 'sitewatch-notify-deliver', hook.firstArrived);
    void deliveryCut
      .then((calls) => Promise.all(calls.map((call) => call.run.done)))
      .then(() => hook.release());

    // The minute's uptime loop, as Inngest's cron would start it; it runs until the minute ends,
    // alongside the crawl below.
    uptimeRun = executor.fireCron('uptime-rounds');
  });

  it('crawls from POST /crawl to a completed report, with a step retried and a finalization cut mid-step', async () => {
    // A retried step: the event API fails the SDK's five tries to send crawl/finalize, so the
    // crawl's `finalize` step errors once and Inngest runs it again.
    executor.failEvents('crawl/finalize', 5);
    // A cut invocation: the usage ledger is held, so finalization blocks on its ledger row; the
    // executor drops that call mid-step and runs the step again while the first still waits.
    const holder = new pg.Client({ connectionString: databaseUrl });
    await holder.connect();
    await holder.query('begin');
    await holder.query('lock table usage_ledger in share mode');
    const cut = executor.interrupt(
      ({ run }) => run.fnId === 'sitewatch-crawl-finalize',
      waitFor(
        () => lockWaiters(query, 'usage_ledger'),
        (n) => n >= 1,
        60_000,
      ),
    );
    let released = false;
    try {
      const started = await api(crawlTriggerResponse, 'POST', `/v1/sites/${siteId}/crawl`, {});
      expect(started.status).toBe(202);
      const requested = executor.events.find((e) => e.name === 'crawl/requested');
      expect(requested?.data).toMatchObject({ siteId, chainA11y: true });
      const runId = String(requested?.data.runId);

      const [dropped, ...others] = await cut;
      expect(dropped).toBeDefined();
      expect(others).toEqual([]);
      // The re-run reaches the same finalization and waits behind the first one's transaction.
      await waitFor(
        () => lockWaiters(query),
        (n) => n >= 2,
        60_000,
      );
      await holder.query('commit');
      released = true;

      const finalize = await executor.waitForRun((r) => r.id === dropped?.run.id);
      expect(finalize.status, executor.describe(finalize)).toBe('completed');
      expect(finalize.calls.some((c) => c.status === 'dropped')).toBe(true);

      const crawlRun = await executor.waitForRun(
        (r) => r.fnId === 'sitewatch-crawl-run' && r.event.data.runId === runId,
      );
      expect(crawlRun.status, executor.describe(crawlRun)).toBe('completed');
      const failedOnce = crawlRun.calls.findIndex((c) => c.ops.includes('StepError'));
      expect(failedOnce, executor.describe(crawlRun)).toBeGreaterThan(-1);
      expect(crawlRun.calls[failedOnce + 1]).toMatchObject({ attempt: 1, status: 206, ops: ['StepRun'] });
      // The event the retried step sent, once: one finalization run.
      expect(executor.events.filter((e) => e.name === 'crawl/finalize')).toHaveLength(1);
      expect(executor.runsOf('crawl-finalize')).toHaveLength(1);

      const report = await api(brokenLinkReportResponse, 'GET', `/v1/sites/${siteId}/report`);
      expect(report.status).toBe(200);
      expect(report.body.run).toMatchObject({ id: runId, state: 'completed', pages_crawled: 2 });
      expect(report.body.brokenLinks).toEqual([
        expect.objectContaining({
          source_url: site.url('/'),
          target_url: site.url('/gone'),
          status_code: 404,
        }),
      ]);
      const ledger = await query('select pages_crawled from usage_ledger where run_id = $1', [runId]);
      expect(ledger).toEqual([{ pages_crawled: 2 }]);
    } finally {
      if (!released) await holder.query('rollback').catch(() => {});
      await holder.end();
    }
  });

  it('renders the chained accessibility pass in Chromium', async () => {
    const pass = await executor.waitForRun((r) => r.fnId === 'sitewatch-a11y-finalize', 120_000);
    expect(pass.status, executor.describe(pass)).toBe('completed');
    const status = await api(siteStatusResponse, 'GET', `/v1/sites/${siteId}/status`);
    expect(status.body.latestA11yRun).toMatchObject({ state: 'completed' });
    const report = await api(z.unknown(), 'GET', `/v1/sites/${siteId}/a11y-report`);
    expect(report.status).toBe(200);
    expect(JSON.stringify(report.body)).toContain('image-alt');
    // The pass completed the crawl's one ledger row with its pages rendered.
    const ledger = await query('select pages_crawled, pages_rendered from usage_ledger');
    expect(ledger).toEqual([{ pages_crawled: 2, pages_rendered: 2 }]);
  }, 150_000);

  it('probes an uptime round from the four regions through their routes and delivers the alert once', async () => {
    const live = await waitFor(
      () => {
        // The next minute's invocation, as the cron would start it, should this one's minute have
        // ended before its round.
        if (uptimeRun.status === 'completed' || uptimeRun.status === 'failed') {
          log('the minute ended before the round: the next minute takes over');
          uptimeRun = executor.fireCron('uptime-rounds');
        }
        return api(monitorLiveResponse, 'GET', `/v1/sites/${siteId}/uptime/monitors/${monitorId}/live`);
      },
      (r) => r.body.consensus?.status === 'down',
      90_000,
    );
    log('the round is down in the four regions');
    expect(live.body.regions.map((r) => [r.region, r.probe?.statusCode])).toEqual([
      ['na', 503],
      ['eu', 503],
      ['as', 503],
      ['oc', 503],
    ]);
    expect(live.body.openIncident).not.toBeNull();
    for (const region of ['na', 'eu', 'as', 'oc']) {
      expect(regions.calls).toContainEqual({
        method: 'POST',
        path: `/api/uptime/regions/${region}`,
        status: 200,
      });
    }

    // The delivery job, as the minute's cron starts it (unless the crawl summary's already took the
    // incident's event from the outbox).
    executor.fireCron('notify-deliver');
    const dropped = await deliveryCut;
    log(`${dropped.length} delivery invocation(s) cut while the webhook was in flight`);
    expect(dropped.length).toBeGreaterThan(0);
    for (const { run } of dropped) {
      const ended = await run.done;
      expect(ended.status, executor.describe(ended)).toBe('completed');
      expect(ended.calls.some((c) => c.status === 'dropped')).toBe(true);
    }
    log('the cut invocations ran again to the end');
    // The owner is alerted by email from the start (their default), beside the webhook: one
    // delivery each, the webhook's sent once.
    const webhookOf = (r: { body: z.infer<typeof deliveriesResponse> }) =>
      r.body.deliveries.filter((d) => d.receiver.type === 'webhook');
    const deliveries = await waitFor(
      () => api(deliveriesResponse, 'GET', '/v1/notifications/deliveries?kind=uptime-down'),
      (r) => r.status === 200 && webhookOf(r)[0]?.state === 'sent',
      30_000,
    );
    expect(webhookOf(deliveries)).toHaveLength(1);
    expect(webhookOf(deliveries)[0]).toMatchObject({ state: 'sent', attempts: 1 });
    expect(deliveries.body.deliveries.filter((d) => d.receiver.type === 'member')).toHaveLength(1);
    // Sent by the invocation that was cut, held until its re-run had ended: one request.
    expect(hook.releasedBy).toBe('the re-run');
    expect(hook.requests).toBe(1);
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]).toMatchObject({ type: 'uptime.down' });
  }, 150_000);

  // Apart from the round above, whose budget it would otherwise share: the wait is up to a minute by
  // design, however fast the round was.
  it("ends the minute's loop of rounds when its minute ends", async () => {
    log('waiting for the minute of uptime rounds to end');
    const minute = await uptimeRun.done;
    expect(minute.status, executor.describe(minute)).toBe('completed');
    const minuteEnd = Math.floor(minute.event.ts / 60_000) * 60_000 + 60_000;
    expect(minute.endedAt ?? 0, 'it ends with its minute, not before').toBeGreaterThanOrEqual(minuteEnd);
  }, 90_000);
});

interface AppServer {
  url: string;
  output: string[];
  stop(): Promise<void>;
}

/** `next start` on the production build, with only the given environment on top of this one's PATH. */
async function startApp(port: number, env: Record<string, string>): Promise<AppServer> {
  const output: string[] = [];
  const child: ChildProcess = spawn(
    process.execPath,
    [require.resolve('next/dist/bin/next'), 'start', '-p', String(port)],
    {
      env: {
        NODE_ENV: 'production',
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        NEXT_TELEMETRY_DISABLED: '1',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => output.push(...chunk.split('\n').filter(Boolean)));
  }
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const ready = waitFor(
    () =>
      fetch(`${url}/api/inngest`)
        .then((r) => r.status)
        .catch(() => 0),
    // Any answer: unsigned, /api/inngest is a 401 in cloud mode.
    (status) => status > 0,
    120_000,
  );
  const first = await Promise.race([ready.then(() => 'ready'), exited.then((code) => `exited ${code}`)]);
  if (first !== 'ready') throw new Error(`the app ${first}:\n${output.join('\n')}`);
  return {
    url,
    output,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Signs in with the emailed code, read from the local outbox's log line, as a self-hoster would. */
async function signIn(app: AppServer, email: string): Promise<string> {
  const post = (path: string, body: unknown) =>
    fetch(`${app.url}/api/auth${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app.url },
      body: JSON.stringify(body),
    });
  const sent = await post('/email-otp/send-verification-otp', { email, type: 'sign-in' });
  expect(sent.status).toBe(200);
  const pattern = new RegExp(
    `mail to=${email.replace(/[.+]/g, '\\$&')} subject="(\\d{6}) is your Sitewatch sign-in code"`,
  );
  const code = await waitFor(
    async () => app.output.map((line) => pattern.exec(line)?.[1]).findLast(Boolean),
    Boolean,
    10_000,
  );
  const signedIn = await post('/sign-in/email-otp', { email, otp: code });
  expect(signedIn.status).toBe(200);
  return signedIn.headers.get('set-auth-token') ?? '';
}

interface HeldReceiver {
  url: string;
  /** Verified payloads, once per `webhook-id`. */
  received: Record<string, unknown>[];
  requests: number;
  firstArrived: Promise<void>;
  /** What let the held request go: `release()`, or the 8 s guard (a webhook gets 10 s). */
  releasedBy?: 'the re-run' | 'the guard';
  verifyWith(secret: string): void;
  release(): void;
  close(): Promise<void>;
}

/**
 * An http webhook receiver that verifies the Standard Webhooks signature and holds its first request
 * until `release()`, so a delivery is known to be in flight.
 */
async function startHeldReceiver(): Promise<HeldReceiver> {
  let verifier: Webhook | undefined;
  let arrived: () => void = () => {};
  let release: () => void = () => {};
  const firstArrived = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const seen = new Set<string>();
  const received: Record<string, unknown>[] = [];
  let requests = 0;
  const server = await startServer('127.0.0.1', {
    'POST /hook': async (req: IncomingMessage, res: ServerResponse) => {
      const raw = await readRequestBody(req);
      requests++;
      if (requests === 1) {
        arrived();
        const guard = new Promise<'the guard'>((resolve) => setTimeout(resolve, 8_000, 'the guard'));
        held.releasedBy = await Promise.race([released.then(() => 'the re-run' as const), guard]);
      }
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const payload = verifier?.verify(raw, headers) as Record<string, unknown>;
      const id = headers['webhook-id'] ?? '';
      if (!seen.has(id)) {
        seen.add(id);
        received.push(payload);
      }
      res.end('ok');
    },
  });
  const held: HeldReceiver = {
    url: server.url('/hook'),
    received,
    get requests() {
      return requests;
    },
    firstArrived,
    verifyWith: (secret) => {
      verifier = new Webhook(secret);
    },
    release,
    close: () => server.close(),
  };
  return held;
}

interface RecordingProxy {
  url: string;
  calls: { method: string; path: string; status: number }[];
  close(): Promise<void>;
}

/** Forwards every request to `target` and records it: where the coordinator reaches the regions. */
async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const calls: RecordingProxy['calls'] = [];
  const server = http.createServer((req, res) => {
    const upstream = http.request(
      new URL(req.url ?? '/', target),
      { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
      (answer) => {
        calls.push({ method: req.method ?? '', path: req.url ?? '', status: answer.statusCode ?? 0 });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function page(body: string) {
  return {
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hosted test</title></head><body>${body}</body></html>`,
  };
}

/** Backends of this database waiting for a lock, optionally only those whose statement names `table`. */
async function lockWaiters(
  query: (text: string, values?: unknown[]) => Promise<Record<string, unknown>[]>,
  table?: string,
): Promise<number> {
  const [row] = await query(
    `select count(*)::int as n from pg_stat_activity
     where datname = current_database() and wait_event_type = 'Lock' and ($1::text is null or query ilike '%' || $1 || '%')`,
    [table ?? null],
  );
  return Number(row?.n ?? 0);
}

/** Polls `read` until `done` holds for its value; resolves with that value. */
async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => unknown,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(
        `still waiting after ${timeoutMs} ms; last value: ${JSON.stringify(value)?.slice(0, 500)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
