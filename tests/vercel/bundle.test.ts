import { spawnSync } from 'node:child_process';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functions as jobFunctions } from '@/jobs/functions';
import { type ProbeBatch, readBatchAnswer } from '@/lib/uptime/batch';
import { SIGNATURE_HEADER, signBatch } from '@/lib/uptime/signing';
import { REGIONS, type Region } from '@/lib/uptime/types';
import {
  assembleFunction,
  functionFor,
  megabytes,
  type OutputFunction,
  outputFunctions,
  type RunningFunction,
  startFunction,
  writeServeScript,
} from './vercel-output';

/**
 * The hosted deployment as Vercel runs it (issue 22). The Vercel CLI's own build (offline, with a
 * hand-made .vercel/project.json) runs vercel.json's buildCommand, migrations included, against a
 * fresh Postgres database; then every function of .vercel/output is assembled from its own `.func`
 * folder and `filePathMap` alone, made read-only, started as `nobody` with only the variables a
 * deployment sets, and must answer a real request: the auth handler signs a person in (the code read
 * from the function's own log, the local outbox), a /v1 route creates and lists a site, a dashboard
 * page renders it, the monthly report function prints a PDF with its Chromium, /api/inngest answers
 * Inngest's signed introspection, each region probes a batch, the proxy (middleware) answers.
 * A function no probe covers fails the run. Sizes and cold starts are printed as the README's table.
 *
 * VERCEL_BUNDLE_REUSE=1 skips the build when .vercel/output exists (iterating on the checks only).
 */

const root = process.cwd();
const outputDir = path.join(root, '.vercel/output');
const serverUrl = process.env.TEST_DATABASE_URL;

/** The deployment's public host: what Vercel's edge puts in Host when it calls a function. */
const HOST = 'sitewatch-ci.vercel.app';
const ORIGIN = `https://${HOST}`;
const SIGNING_KEY = `signkey-prod-${randomBytes(32).toString('hex')}`;
const PROBE_SECRET = randomBytes(24).toString('base64url');
// One deployment's secrets, the same in every function (a session signed by one is read by another).
const AUTH_SECRET = randomBytes(32).toString('base64url');
const ENCRYPTION_KEY = randomBytes(32).toString('base64');
const REGION_OF: Record<Region, string> = { na: 'iad1', eu: 'fra1', as: 'hnd1', oc: 'syd1' };

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** performance.now() when the response's headers arrived. */
  at: number;
}

/**
 * One request as Vercel's edge sends it to a function: the public Host and protocol, the client's
 * address in x-vercel-forwarded-for, and x-matched-path naming the route (Next's minimal mode routes
 * by it). Until the function listens the connection is refused, and the call tries again.
 */
async function call(
  fn: RunningFunction,
  route: string,
  pathAndQuery: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const deadline = performance.now() + 60_000;
  for (;;) {
    try {
      return await once();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ECONNREFUSED' || performance.now() > deadline) {
        throw new Error(`${route}: ${(error as Error).message}\n${fn.output()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  function once(): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        `${fn.url}${pathAndQuery}`,
        {
          method: init.method ?? 'GET',
          headers: {
            host: HOST,
            'x-forwarded-host': HOST,
            'x-forwarded-proto': 'https',
            'x-vercel-forwarded-for': '203.0.113.7',
            'x-matched-path': route,
            ...init.headers,
          },
          timeout: 120_000,
        },
        (res) => {
          const at = performance.now();
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), at }),
          );
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error('no answer within 120 s')));
      req.on('error', reject);
      req.end(init.body);
    });
  }
}

const json = (answer: Answer) => JSON.parse(answer.body.toString('utf8'));
const describeAnswer = (answer: Answer) =>
  `HTTP ${answer.status} ${answer.body.toString('utf8').slice(0, 500)}`;

/** Inngest's request signature: HMAC-SHA256 of the body then the timestamp, keyed by the key sans prefix. */
function inngestSignature(body: string): string {
  const t = Math.floor(Date.now() / 1000).toString();
  const key = SIGNING_KEY.replace(/^signkey-\w+-/, '');
  return `t=${t}&s=${createHmac('sha256', key)
    .update(body + t)
    .digest('hex')}`;
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * Stands in for Inngest's event API, which the SDK posts events to (INNGEST_EVENT_API_BASE_URL):
 * answers as Inngest documents and keeps what it was sent.
 */
async function startEventApi(): Promise<{
  url: string;
  events: { name: string }[];
  close: () => Promise<void>;
}> {
  const events: { name: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const sent = [JSON.parse(Buffer.concat(chunks).toString('utf8') || '[]')].flat() as { name: string }[];
      events.push(...sent);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ ids: sent.map(() => randomUUID()), status: 200 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    events,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface Measured {
  fn: OutputFunction;
  bytes: number;
  coldStartMs: number;
  firstRequestMs: number;
  checked: string;
}

const suite = serverUrl ? describe : describe.skip;
// Vercel runs on a real Postgres database (Neon): there is nothing to deploy against without
// TEST_DATABASE_URL (CI sets it).
suite('the Vercel build output, every function booted from its own traced files', () => {
  const dbName = `sw_hosted_${randomBytes(6).toString('hex')}`;
  let databaseUrl: string;
  let work: string;
  let serveScript: string;
  let eventApi: Awaited<ReturnType<typeof startEventApi>>;
  let functions: OutputFunction[];
  const measured: Measured[] = [];
  const session: { email?: string; token?: string; cookie?: string; siteId?: string } = {};

  beforeAll(async () => {
    const u = new URL(serverUrl!);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
    await adminQuery(serverUrl!, `create database ${dbName}`);
    eventApi = await startEventApi();
    // A build machine's environment: none of this test process's settings (NODE_ENV=test,
    // ALLOW_PRIVATE_NETWORK, ...) reach the build.
    const buildProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      CI: '1',
      NODE_ENV: 'production' as const,
      ...buildEnv(databaseUrl),
    };
    if (process.env.VERCEL_BUNDLE_REUSE === '1' && existsSync(outputDir)) {
      // The build would have migrated the database; the reused output's build migrated another.
      const migrate = spawnSync('npm', ['run', 'db:migrate'], {
        cwd: root,
        stdio: 'inherit',
        env: buildProcessEnv,
      });
      if (migrate.status !== 0) throw new Error(`db:migrate exited with ${migrate.status}`);
    } else {
      // What `vercel link` would write; the CLI's build needs no more to run offline. The install
      // step is skipped: node_modules is installed already.
      mkdirSync(path.join(root, '.vercel'), { recursive: true });
      writeFileSync(
        path.join(root, '.vercel/project.json'),
        JSON.stringify({
          projectId: 'prj_sitewatch_ci',
          orgId: 'team_sitewatch_ci',
          settings: { framework: 'nextjs', installCommand: '' },
        }),
      );
      const build = spawnSync(path.join(root, 'node_modules/.bin/vercel'), ['build', '--yes'], {
        cwd: root,
        stdio: 'inherit',
        env: buildProcessEnv,
      });
      if (build.status !== 0) throw new Error(`vercel build exited with ${build.status}`);
    }
    functions = outputFunctions(outputDir);
    work = mkdtempSync(path.join(tmpdir(), 'sitewatch-hosted-'));
    // mkdtemp makes it 0700: `nobody` must be able to reach the functions inside.
    spawnSync('chmod', ['755', work]);
    serveScript = writeServeScript(work);
  }, 40 * 60_000);

  afterAll(async () => {
    if (measured.length > 0) {
      const rows = measured.map(
        (m) =>
          `| \`${m.fn.name}\` | ${m.fn.routes.length} | ${megabytes(m.bytes)} | ${m.coldStartMs.toFixed(0)} | ${m.firstRequestMs.toFixed(0)} | ${m.fn.config.regions?.join(', ') ?? 'default'} | ${m.checked} |`,
      );
      const table = [
        '| function | routes | size (MB) | cold start (ms) | first request (ms) | region | answered |',
        '| --- | --- | --- | --- | --- | --- | --- |',
        ...rows,
      ].join('\n');
      // Printed past the reporter's quiet mode, and kept beside the output for the README's table.
      process.stdout.write(`\n${table}\n`);
      writeFileSync(path.join(outputDir, 'functions.md'), `${table}\n`);
    }
    await eventApi?.close();
    if (work) {
      spawnSync('chmod', ['-R', 'u+w', work]);
      rmSync(work, { recursive: true, force: true });
    }
    await adminQuery(serverUrl!, `drop database if exists ${dbName} with (force)`);
  });

  /** The variables a production deployment's function has (Vercel's own and the project's). */
  function deploymentEnv(tmp: string, region = 'iad1'): Record<string, string> {
    return {
      PATH: '/usr/local/bin:/usr/bin:/bin',
      LANG: 'C.UTF-8',
      TZ: 'UTC',
      // Each function instance has a /tmp of its own (Chromium unpacks there).
      HOME: tmp,
      TMPDIR: tmp,
      NODE_ENV: 'production',
      VERCEL: '1',
      VERCEL_ENV: 'production',
      VERCEL_REGION: region,
      VERCEL_URL: 'sitewatch-ci-abc123.vercel.app',
      VERCEL_PROJECT_PRODUCTION_URL: HOST,
      ...projectEnv(databaseUrl),
    };
  }

  function projectEnv(url: string): Record<string, string> {
    return {
      DATABASE_URL: url,
      APP_URL: ORIGIN,
      BETTER_AUTH_SECRET: AUTH_SECRET,
      ENCRYPTION_KEY,
      INNGEST_SIGNING_KEY: SIGNING_KEY,
      INNGEST_EVENT_KEY: 'sitewatch-ci-event-key',
      INNGEST_EVENT_API_BASE_URL: eventApi.url,
      INNGEST_API_BASE_URL: eventApi.url,
      UPTIME_PROBE_SECRET: PROBE_SECRET,
      TRUSTED_PROXY: 'vercel',
    };
  }

  function buildEnv(url: string): Record<string, string> {
    return { VERCEL: '1', VERCEL_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', ...projectEnv(url) };
  }

  /** Assembles, starts and measures one function; `probe` makes the first request (the cold start). */
  async function boot(
    route: string,
    probe: (fn: RunningFunction) => Promise<{ first: Answer; sentAt: number; checked: string }>,
  ): Promise<RunningFunction> {
    const fn = functionFor(functions, route);
    if (!fn) throw new Error(`no function serves ${route}`);
    const dir = path.join(work, fn.name.replace(/[^\w.-]+/g, '_'));
    const bytes = assembleFunction(fn, root, dir);
    const region = fn.config.regions?.[0];
    const tmp = `${dir}.tmp`;
    mkdirSync(tmp);
    chmodSync(tmp, 0o1777);
    const running = await startFunction(dir, fn.config, serveScript, deploymentEnv(tmp, region));
    try {
      const { first, sentAt, checked } = await probe(running);
      measured.push({
        fn,
        bytes,
        coldStartMs: first.at - running.spawnedAt,
        firstRequestMs: first.at - sentAt,
        checked,
      });
    } catch (error) {
      await running.stop();
      // What the function printed is where a deployment's failure shows (Vercel's function log).
      if (error instanceof Error)
        error.message += `\n--- ${fn.name} printed:\n${running.output().slice(-4000)}`;
      throw error;
    }
    return running;
  }

  it('pins each probe region to its own function in its own Vercel region', () => {
    const inngest = functionFor(functions, '/api/inngest');
    const pinned = REGIONS.map((region) => {
      const fn = functionFor(functions, `/api/uptime/regions/${region}`);
      expect(fn, `no function serves /api/uptime/regions/${region}`).toBeDefined();
      expect(fn!.config.regions, `region route ${region} names no region`).toEqual([REGION_OF[region]]);
      expect(fn!.dir, `region route ${region} is an alias of /api/inngest`).not.toBe(inngest?.dir);
      return fn!.dir;
    });
    expect(new Set(pinned).size, 'two regions share a function').toBe(REGIONS.length);
  });

  it('ships Chromium only with the functions that launch it', () => {
    const carriesChromium = (fn: OutputFunction) =>
      Object.values(fn.config.filePathMap ?? {}).some((file) =>
        file.startsWith('node_modules/@sparticuz/chromium/bin/'),
      );
    const withChromium = functions.filter(carriesChromium).map((fn) => fn.name);
    const browserFunctions = ['/api/inngest', '/api/v1/sites/[id]/reports/monthly'].map(
      (route) => functionFor(functions, route)?.name,
    );
    expect(withChromium.sort()).toEqual(browserFunctions.sort());
    for (const fn of functions) {
      if (withChromium.includes(fn.name)) continue;
      const heavy = Object.values(fn.config.filePathMap ?? {}).filter((file) =>
        /^node_modules\/(playwright-core|@electric-sql\/pglite)\//.test(file),
      );
      expect(heavy.slice(0, 3), `${fn.name} ships playwright-core or PGlite`).toEqual([]);
    }
  });

  it('the auth handler signs a person in and a /v1 route answers with that session', async () => {
    const email = `owner-${randomBytes(4).toString('hex')}@example.com`;
    session.email = email;
    let sentAt = 0;
    const api = await boot('/api/auth/[...all]', async (fn) => {
      sentAt = performance.now();
      const first = await call(fn, '/api/auth/[...all]', '/api/auth/email-otp/send-verification-otp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN },
        body: JSON.stringify({ email, type: 'sign-in' }),
      });
      expect(first.status, describeAnswer(first)).toBe(200);
      return { first, sentAt, checked: 'sign-in code, sign-in, POST + GET /v1/sites' };
    });
    try {
      // The local outbox prints the code to the function's log: a deployment without Resend reads it there.
      const code = api.output().match(/subject="(\d{6}) is your Sitewatch sign-in code"/)?.[1];
      expect(code, api.output()).toBeDefined();
      const signedIn = await call(api, '/api/auth/[...all]', '/api/auth/sign-in/email-otp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN },
        body: JSON.stringify({ email, otp: code }),
      });
      expect(signedIn.status, describeAnswer(signedIn)).toBe(200);
      session.token = String(signedIn.headers['set-auth-token']);
      session.cookie = [signedIn.headers['set-cookie'] ?? []]
        .flat()
        .map((c) => c.split(';')[0])
        .join('; ');
      expect(session.token.length).toBeGreaterThan(10);

      const auth = { authorization: `Bearer ${session.token}` };
      const created = await call(api, '/api/v1/sites', '/api/v1/sites', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ rootUrl: 'https://hosted-check.example.org/' }),
      });
      expect(created.status, describeAnswer(created)).toBe(201);
      session.siteId = json(created).site.id;
      const listed = await call(api, '/api/v1/sites', '/api/v1/sites', { headers: auth });
      expect(listed.status, describeAnswer(listed)).toBe(200);
      expect(JSON.stringify(json(listed))).toContain('hosted-check.example.org');
    } finally {
      await api.stop();
    }
  });

  it('a dashboard page renders the signed-in organization', async () => {
    expect(session.cookie, 'the sign-in test runs first').toBeTruthy();
    const page = await boot('/sites', async (fn) => {
      const sentAt = performance.now();
      const first = await call(fn, '/sites', '/sites', { headers: { cookie: session.cookie! } });
      expect(
        first.status,
        `${describeAnswer(first)} location ${first.headers.location} cookie ${session.cookie}`,
      ).toBe(200);
      expect(String(first.headers['content-type'])).toContain('text/html');
      // The header names who is signed in (the display name, else the email).
      expect(first.body.toString('utf8')).toContain(session.email);
      return { first, sentAt, checked: 'GET /sites (the sites list, signed in)' };
    });
    await page.stop();
  });

  it('the monthly report function prints a PDF with its own Chromium', async () => {
    expect(session.siteId, 'the sign-in test runs first').toBeTruthy();
    const month = new Date().toISOString().slice(0, 7);
    const route = '/api/v1/sites/[id]/reports/monthly';
    const report = await boot(route, async (fn) => {
      const sentAt = performance.now();
      const first = await call(fn, route, `/api/v1/sites/${session.siteId}/reports/monthly?month=${month}`, {
        headers: { authorization: `Bearer ${session.token}` },
      });
      expect(first.status, describeAnswer(first)).toBe(200);
      expect(first.headers['content-type']).toBe('application/pdf');
      expect(first.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      return {
        first,
        sentAt,
        checked: `GET monthly report PDF (${(first.body.length / 1024).toFixed(0)} KB)`,
      };
    });
    await report.stop();
  }, 180_000);

  it('/api/inngest answers Inngest signed introspection with every function', async () => {
    const inngest = await boot('/api/inngest', async (fn) => {
      const sentAt = performance.now();
      const first = await call(fn, '/api/inngest', '/api/inngest', {
        headers: { 'x-inngest-signature': inngestSignature('') },
      });
      expect(first.status, describeAnswer(first)).toBe(200);
      const body = json(first);
      expect(body).toMatchObject({
        authentication_succeeded: true,
        mode: 'cloud',
        has_signing_key: true,
        has_event_key: true,
        function_count: jobFunctions.length,
      });
      return { first, sentAt, checked: `signed introspection (${body.function_count} functions)` };
    });
    try {
      const unsigned = await call(inngest, '/api/inngest', '/api/inngest');
      expect(json(unsigned).authentication_succeeded).not.toBe(true);
    } finally {
      await inngest.stop();
    }
  });

  for (const region of REGIONS) {
    it(`region ${region} (${REGION_OF[region]}) probes a signed batch`, async () => {
      const route = `/api/uptime/regions/${region}`;
      const batch: ProbeBatch = {
        round: randomUUID(),
        region,
        // A loopback target: production refuses private addresses, so the answer is a `network` failure
        // after the probe's retry, which is still the region's probe code answering.
        targets: [{ monitorId: randomUUID(), url: 'http://127.0.0.1:9/', timeoutSeconds: 5 }],
      };
      const body = JSON.stringify(batch);
      const running = await boot(route, async (fn) => {
        const sentAt = performance.now();
        const first = await call(fn, route, route, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            [SIGNATURE_HEADER]: signBatch(PROBE_SECRET, body, Date.now()),
          },
          body,
        });
        expect(first.status, describeAnswer(first)).toBe(200);
        const [result] = readBatchAnswer(batch, json(first));
        expect(result).toMatchObject({ ok: false, cause: 'network' });
        return { first, sentAt, checked: 'signed probe batch (loopback target refused: network)' };
      });
      await running.stop();
    }, 120_000);
  }

  it('the not-found and bot pages answer from their function', async () => {
    const pages = await boot('/bot', async (fn) => {
      const sentAt = performance.now();
      const first = await call(fn, '/bot', '/bot');
      expect(first.status, describeAnswer(first)).toBe(200);
      expect(first.body.toString('utf8')).toContain('SitewatchBot');
      return { first, sentAt, checked: 'GET /bot' };
    });
    await pages.stop();
  });

  it('the proxy (middleware) answers an unrouted method with {error}', async () => {
    const proxy = await boot('/_middleware', async (fn) => {
      const sentAt = performance.now();
      const first = await call(fn, '/_middleware', '/v1/sites', { method: 'PROPFIND' });
      expect(first.status, describeAnswer(first)).toBe(501);
      expect(json(first).error).toMatch(/PROPFIND/);
      return { first, sentAt, checked: 'PROPFIND /v1/sites: 501 {error}' };
    });
    await proxy.stop();
  });

  it('every function of the output was started and answered', () => {
    const answered = new Set(measured.map((m) => m.fn.name));
    const missed = functions
      .filter((fn) => !answered.has(fn.name))
      .map((fn) => `${fn.name} (${fn.routes.slice(0, 4).join(', ')})`);
    expect(missed, 'functions no check started').toEqual([]);
  });
});
