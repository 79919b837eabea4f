import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import canonicalize from 'canonicalize';
import { readRequestBody } from './http-server';

/**
 * A local stand-in for Inngest: it plays the executor's side of the SDK's HTTP protocol against a
 * running app's `/api/inngest`, so the hosted path (the serve handler, signatures, step memoization,
 * retries) runs for real in a test, with no Inngest server (which cannot be installed here:
 * shared/design/verified.md).
 *
 * What it speaks, as the `inngest` SDK (v4, node_modules/inngest/components/InngestCommHandler.js
 * and execution/engine.js) expects it:
 *
 * - **Registration.** `PUT /api/inngest` makes the SDK POST its function configs to
 *   `${INNGEST_API_BASE_URL}/fn/register` with `Authorization: Bearer <hashed signing key>`; the
 *   executor checks the hash and keeps each function's triggers, retries, concurrency and step URL.
 * - **Events.** `inngest.send` and `step.sendEvent` POST an array of events to
 *   `${INNGEST_EVENT_API_BASE_URL}/e/<event key>`; the key must be the configured one. An event whose
 *   `id` was seen before is accepted and dropped (Inngest deduplicates on it). Each event starts one
 *   run of every function it triggers. Crons fire on demand (`fireCron`), with the
 *   `inngest/scheduled.timer` event Inngest sends.
 * - **Calls.** A run is a series of signed POSTs (`X-Inngest-Signature: t=<s>&s=<HMAC-SHA256 of the
 *   canonical JSON body and t, keyed by the signing key without its prefix>`) to the function's URL
 *   with `fnId` and `stepId` (`step` to discover, a step's hashed id to run a planned one). The body
 *   carries `event`, `events`, the memoized `steps` (`{type: 'data', data}` or `{type: 'error',
 *   error}` by hashed id), `ctx` (`run_id`, `attempt`, `max_attempts`, `stack`) and the execution
 *   `version` the SDK chose on the run's first reply. Replies are checked against their signature.
 * - **Replies.** 200: the run completed with that output. 206: a list of ops. `StepRun` memoizes the
 *   step's data; `StepError` retries that step (stepId = its id, `attempt` + 1) after a backoff
 *   while the function's retries last; `StepFailed` memoizes the error, which the handler receives
 *   as a `StepError`; `StepPlanned` is run by id; `Sleep` waits (up to `maxSleepMs`, so a test is not
 *   held by a long sleep) and memoizes null. Anything else (`WaitForEvent`, `InvokeFunction`...) fails
 *   the run saying so: no function uses them. 500 (or a dropped connection) retries the same call
 *   with `attempt` + 1; 400 or `x-inngest-no-retry: true` fails the run.
 * - **Concurrency.** A function's `concurrency` (`limit`, optional `key` of the form
 *   `event.data.<path>`) holds runs beyond the limit until one ends, as Inngest queues them.
 *
 * Checkpointing (the SDK's `AsyncCheckpointing` mode) is not offered: `ctx.fn_id` is left out, so
 * the SDK runs in its plain async mode and reports every step in its reply.
 *
 * Fault injection for tests: `failEvents` makes the event API answer 500 to the next posts of an
 * event (the SDK's own retries included), and `interrupt` drops a call while its step is running.
 */

export interface ExecutorOptions {
  /** `signkey-<env>-<hex>`, as Inngest issues them (the SDK hashes the hex part). */
  signingKey: string;
  eventKey: string;
  host?: string;
  /** Delay before retry number `attempt` (1-based). Inngest backs off over seconds to hours. */
  retryDelayMs?: (attempt: number) => number;
  /** Sleeps longer than this are cut to it. */
  maxSleepMs?: number;
  /** A call with no reply after this long counts as a dropped connection. */
  callTimeoutMs?: number;
  log?: (line: string) => void;
}

type StepState = { type: 'data'; data: unknown } | { type: 'error'; error: unknown };

interface Op {
  id: string;
  op: string;
  name?: string;
  displayName?: string;
  data?: unknown;
  error?: unknown;
}

export interface ExecutorEvent {
  id: string;
  name: string;
  data: Record<string, unknown>;
  ts: number;
}

export interface RegisteredFunction {
  id: string;
  url: string;
  events: string[];
  crons: string[];
  /** Retries after the first attempt (Inngest's default is 3). */
  retries: number;
  concurrency: { limit: number; key?: string }[];
}

export interface CallRecord {
  stepId: string;
  attempt: number;
  status: number | 'dropped';
  ops: string[];
}

export interface Run {
  id: string;
  fnId: string;
  event: ExecutorEvent;
  status: 'queued' | 'running' | 'completed' | 'failed';
  output?: unknown;
  error?: string;
  /** Memoized steps by hashed id, in completion order. */
  steps: Record<string, StepState>;
  stack: string[];
  /** Display names of the steps that completed, in order (hashed ids mean nothing to a reader). */
  stepNames: string[];
  calls: CallRecord[];
  /** When the run completed or failed (ms since the epoch). */
  endedAt?: number;
  done: Promise<Run>;
}

export interface CallInfo {
  run: Run;
  stepId: string;
  attempt: number;
}

interface Interruption {
  when: (call: CallInfo) => boolean;
  /** The matching calls in flight, each with the way to drop it. */
  inFlight: Map<CallInfo, AbortController>;
  spent: boolean;
}

const DEFAULT_RETRY_DELAY = (attempt: number) => Math.min(4_000, 250 * 2 ** (attempt - 1));
const SUPPORTED_CONFIG = new Set(['id', 'name', 'triggers', 'steps', 'concurrency']);

export function signaturePrefixRemoved(signingKey: string): string {
  return signingKey.replace(/^signkey-\w+-/, '');
}

/** The bearer token the SDK sends to Inngest's API: the key's prefix, then SHA-256 of its hex part. */
export function hashedSigningKey(signingKey: string): string {
  const prefix = /^signkey-\w+-/.exec(signingKey)?.[0] ?? '';
  return `${prefix}${createHash('sha256')
    .update(Buffer.from(signaturePrefixRemoved(signingKey), 'hex'))
    .digest('hex')}`;
}

/** `t=<unix seconds>&s=<hex HMAC-SHA256 of body + t>`, the X-Inngest-Signature both sides send. */
export function signBody(signingKey: string, body: string, nowMs = Date.now()): string {
  const t = Math.round(nowMs / 1000).toString();
  const s = createHmac('sha256', signaturePrefixRemoved(signingKey)).update(body).update(t).digest('hex');
  return `t=${t}&s=${s}`;
}

function signatureMatches(signingKey: string, body: string, header: string | null): boolean {
  const params = new URLSearchParams(header ?? '');
  const t = params.get('t');
  const s = params.get('s');
  if (!t || !s) return false;
  const expected = createHmac('sha256', signaturePrefixRemoved(signingKey)).update(body).update(t).digest();
  const given = Buffer.from(s, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A reply's JSON, or its text when it is none (an error page written by something other than the SDK). */
function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** `"1s"`, `"1500ms"`, `"2m"`... as the SDK's timeStr writes them, or an ISO date (sleepUntil). */
export function sleepMs(name: string, nowMs = Date.now()): number {
  const units: Record<string, number> = {
    ms: 1,
    s: 1_000,
    m: 60_000,
    h: 3_600_000,
    d: 86_400_000,
    w: 604_800_000,
  };
  const parts = [...name.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g)];
  if (parts.length > 0 && parts.map((p) => p[0]).join('') === name) {
    return parts.reduce((sum, [, n, unit]) => sum + Number(n) * (units[unit as string] ?? 0), 0);
  }
  const at = Date.parse(name);
  if (Number.isFinite(at)) return at - nowMs;
  throw new Error(`cannot read the sleep duration "${name}"`);
}

/** Reads `event.data.<path>`, the only key form the app's functions use. */
function concurrencyKey(fnId: string, key: string, event: ExecutorEvent): string {
  const path = /^event\.data((?:\.[A-Za-z_$][\w$]*)+)$/.exec(key.trim())?.[1]?.slice(1).split('.');
  if (!path) throw new Error(`function "${fnId}": the executor cannot evaluate the concurrency key "${key}"`);
  let value: unknown = event.data;
  for (const part of path) value = value instanceof Object ? Reflect.get(value, part) : undefined;
  return String(value ?? '');
}

export class InngestExecutor {
  readonly functions = new Map<string, RegisteredFunction>();
  readonly events: ExecutorEvent[] = [];
  readonly runs: Run[] = [];
  /** Every register call, accepted or not. */
  readonly registrations: { authorized: boolean; functionCount: number }[] = [];

  private readonly options: Required<Omit<ExecutorOptions, 'host'>> & { host: string };
  private server?: http.Server;
  private closed = false;
  private baseUrl = '';
  private readonly seenEventIds = new Set<string>();
  private readonly eventFaults = new Map<string, number>();
  private readonly interruptions: Interruption[] = [];
  /** Runs in flight per concurrency slot (`fnId`, rule index, key value). */
  private readonly slots = new Map<string, number>();
  private readonly waiting: { run: Run; start: () => boolean }[] = [];

  constructor(options: ExecutorOptions) {
    if (
      !/^signkey-\w+-[0-9a-f]+$/i.test(options.signingKey) ||
      signaturePrefixRemoved(options.signingKey).length % 2
    ) {
      throw new Error('the signing key must look like Inngest\'s: "signkey-<env>-<hex>"');
    }
    this.options = {
      host: '127.0.0.1',
      retryDelayMs: DEFAULT_RETRY_DELAY,
      maxSleepMs: 1_000,
      callTimeoutMs: 120_000,
      log: () => {},
      ...options,
    };
  }

  /** The base URL for INNGEST_API_BASE_URL and INNGEST_EVENT_API_BASE_URL. */
  get url(): string {
    if (!this.baseUrl) throw new Error('the executor is not started');
    return this.baseUrl;
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        this.options.log(`executor: ${req.method} ${req.url} failed: ${String(error)}`);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: String(error), status: 500 }));
      });
    });
    await new Promise<void>((resolve, reject) => {
      this.server?.once('error', reject);
      this.server?.listen(0, this.options.host, () => resolve());
    });
    const { port } = this.server.address() as AddressInfo;
    this.baseUrl = `http://${this.options.host}:${port}`;
  }

  /** Stops the event and register endpoints; runs end at their next call. */
  async close(): Promise<void> {
    this.closed = true;
    const server = this.server;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  /** The next `times` event posts holding an event called `name` answer 500. */
  failEvents(name: string, times: number): void {
    this.eventFaults.set(name, (this.eventFaults.get(name) ?? 0) + times);
  }

  /**
   * When `moment` resolves, drops every call matching `when` that is then in flight: the connection
   * is destroyed mid-step, as a crashed function or a broken network leaves it, and the executor
   * retries each call. Resolves with the calls it dropped (none if no matching call was in flight).
   */
  interrupt(when: (call: CallInfo) => boolean, moment: Promise<unknown>): Promise<CallInfo[]> {
    const interruption: Interruption = { when, inFlight: new Map(), spent: false };
    this.interruptions.push(interruption);
    return moment.then(() => {
      interruption.spent = true;
      const dropped = [...interruption.inFlight];
      for (const [, abort] of dropped) {
        abort.abort(new Error('interrupted by the test: the connection was dropped mid-step'));
      }
      return dropped.map(([call]) => call);
    });
  }

  /** Starts one run of a cron-triggered function, as its schedule would at `ts`. */
  fireCron(fnId: string, ts = Date.now()): Run {
    const fn = this.fn(fnId);
    const cron = fn.crons[0];
    if (!cron) throw new Error(`function "${fnId}" has no cron trigger`);
    const event: ExecutorEvent = { id: randomUUID(), name: 'inngest/scheduled.timer', data: { cron }, ts };
    this.events.push(event);
    return this.startRun(fn, event);
  }

  /** The registered function whose id ends with `-<id>` (the SDK prefixes the app id) or is `id`. */
  fn(id: string): RegisteredFunction {
    const found = [...this.functions.values()].find((f) => f.id === id || f.id.endsWith(`-${id}`));
    if (!found)
      throw new Error(
        `no registered function "${id}" (registered: ${[...this.functions.keys()].join(', ')})`,
      );
    return found;
  }

  runsOf(id: string): Run[] {
    const fnId = this.fn(id).id;
    return this.runs.filter((r) => r.fnId === fnId);
  }

  /** Resolves when no run is queued or running (runs started meanwhile included). */
  async idle(): Promise<void> {
    for (;;) {
      const open = this.runs.filter((r) => r.status === 'queued' || r.status === 'running');
      if (open.length === 0) return;
      await Promise.all(open.map((r) => r.done));
    }
  }

  /** Waits for a run matching `match` to exist and end; resolves with it. */
  async waitForRun(match: (run: Run) => boolean, timeoutMs = 60_000): Promise<Run> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const run = this.runs.find(match);
      if (run)
        return Promise.race([
          run.done,
          wait(deadline - Date.now()).then(() =>
            Promise.reject(
              new Error(`run ${run.id} of ${run.fnId} did not end in ${timeoutMs} ms: ${this.describe(run)}`),
            ),
          ),
        ]);
      if (Date.now() > deadline)
        throw new Error(
          `no matching run in ${timeoutMs} ms; runs: ${this.runs.map((r) => `${r.fnId}:${r.status}`).join(', ')}`,
        );
      await wait(50);
    }
  }

  /** One line per call of a run, for failure messages. */
  describe(run: Run): string {
    const calls = run.calls.map(
      (c) => `${c.stepId}#${c.attempt}→${c.status}${c.ops.length ? `[${c.ops.join(',')}]` : ''}`,
    );
    return `${run.fnId} ${run.status}${run.error ? ` (${run.error})` : ''}: steps ${run.stepNames.join(' > ')}; calls ${calls.join(' ')}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.baseUrl);
    const body = await readRequestBody(req);
    const reply = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (req.method === 'POST' && url.pathname === '/fn/register') {
      const authorized = req.headers.authorization === `Bearer ${hashedSigningKey(this.options.signingKey)}`;
      const parsed = JSON.parse(body) as { functions?: Record<string, unknown>[] };
      this.registrations.push({ authorized, functionCount: parsed.functions?.length ?? 0 });
      if (!authorized) return reply(401, { error: 'unauthorized', status: 401 });
      for (const config of parsed.functions ?? []) this.register(config);
      return reply(200, { status: 200, modified: true });
    }
    const eventPath = /^\/e\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'POST' && eventPath) {
      if (decodeURIComponent(eventPath[1] ?? '') !== this.options.eventKey) {
        return reply(401, { error: 'event key not found', status: 401 });
      }
      const sent = [JSON.parse(body) as unknown].flat() as Partial<ExecutorEvent>[];
      const faulty = sent.find((e) => (this.eventFaults.get(e.name ?? '') ?? 0) > 0);
      if (faulty?.name) {
        this.eventFaults.set(faulty.name, (this.eventFaults.get(faulty.name) ?? 1) - 1);
        return reply(500, { error: 'injected fault: the event API is unavailable', status: 500 });
      }
      return reply(200, { ids: sent.map((e) => this.receive(e)), status: 200 });
    }
    reply(404, { error: `no route ${req.method} ${url.pathname}` });
  }

  private register(config: Record<string, unknown>): void {
    const id = String(config.id);
    const refused = Object.keys(config).filter((k) => !SUPPORTED_CONFIG.has(k) && config[k] != null);
    if (refused.length)
      throw new Error(`function "${id}": the executor does not implement ${refused.join(', ')}`);
    const triggers = (config.triggers ?? []) as { event?: string; cron?: string; expression?: string }[];
    if (triggers.some((t) => t.expression))
      throw new Error(`function "${id}": trigger expressions are not implemented`);
    const step = (
      config.steps as Record<string, { runtime: { url: string }; retries?: { attempts?: number } }>
    ).step;
    if (!step) throw new Error(`function "${id}": no step`);
    const concurrency = [config.concurrency ?? []].flat() as {
      limit: number;
      key?: string;
      scope?: string;
    }[];
    if (concurrency.some((c) => c.scope && c.scope !== 'fn'))
      throw new Error(`function "${id}": only fn-scoped concurrency`);
    this.functions.set(id, {
      id,
      url: step.runtime.url,
      events: triggers.flatMap((t) => (t.event ? [t.event] : [])),
      crons: triggers.flatMap((t) => (t.cron ? [t.cron] : [])),
      retries: step.retries?.attempts ?? 3,
      concurrency: concurrency.filter((c) => c.limit > 0).map(({ limit, key }) => ({ limit, key })),
    });
  }

  private receive(sent: Partial<ExecutorEvent>): string {
    const id = sent.id ?? randomUUID();
    if (this.seenEventIds.has(id)) {
      this.options.log(`executor: event ${sent.name} ${id} seen before, dropped`);
      return id;
    }
    this.seenEventIds.add(id);
    const event: ExecutorEvent = {
      id,
      name: String(sent.name),
      data: (sent.data ?? {}) as Record<string, unknown>,
      ts: sent.ts ?? Date.now(),
    };
    this.events.push(event);
    for (const fn of this.functions.values()) if (fn.events.includes(event.name)) this.startRun(fn, event);
    return id;
  }

  private startRun(fn: RegisteredFunction, event: ExecutorEvent): Run {
    let settle: (run: Run) => void = () => {};
    const run: Run = {
      id: randomUUID(),
      fnId: fn.id,
      event,
      status: 'queued',
      steps: {},
      stack: [],
      stepNames: [],
      calls: [],
      done: new Promise<Run>((resolve) => {
        settle = resolve;
      }),
    };
    this.runs.push(run);
    const slots = fn.concurrency.map((rule, i) => ({
      limit: rule.limit,
      key: `${fn.id}#${i}#${rule.key ? concurrencyKey(fn.id, rule.key, event) : ''}`,
    }));
    const start = () => {
      if (slots.some(({ key, limit }) => (this.slots.get(key) ?? 0) >= limit)) return false;
      for (const { key } of slots) this.slots.set(key, (this.slots.get(key) ?? 0) + 1);
      run.status = 'running';
      this.execute(fn, run)
        .catch((error: unknown) => {
          run.status = 'failed';
          run.error = `executor error: ${String(error)}`;
        })
        .finally(() => {
          for (const { key } of slots) this.slots.set(key, (this.slots.get(key) ?? 1) - 1);
          run.endedAt = Date.now();
          this.options.log(`executor: ${this.describe(run)}`);
          settle(run);
          this.startWaiting();
        });
      return true;
    };
    this.waiting.push({ run, start });
    this.startWaiting();
    return run;
  }

  /** Starts the queued runs whose concurrency slots are free, oldest first. */
  private startWaiting(): void {
    for (const queued of [...this.waiting]) {
      if (queued.start()) this.waiting.splice(this.waiting.indexOf(queued), 1);
    }
  }

  /** Calls the SDK until the run completes or fails, as Inngest's executor schedules it. */
  private async execute(fn: RegisteredFunction, run: Run): Promise<void> {
    const maxAttempts = fn.retries + 1;
    let version: number | undefined;
    let next: { stepId: string; attempt: number } = { stepId: 'step', attempt: 0 };
    for (;;) {
      if (this.closed) throw new Error('the executor was closed');
      const { stepId, attempt } = next;
      const reply = await this.call(fn, run, stepId, attempt, version);
      if (reply.version !== undefined) version = reply.version;
      const record: CallRecord = {
        stepId: stepId === 'step' ? 'step' : stepId.slice(0, 8),
        attempt,
        status: reply.status,
        ops: [],
      };
      run.calls.push(record);
      const retryOrFail = async (why: string) => {
        if (attempt + 1 >= maxAttempts) {
          run.status = 'failed';
          run.error = why;
          return false;
        }
        await wait(this.options.retryDelayMs(attempt + 1));
        next = { stepId, attempt: attempt + 1 };
        return true;
      };
      if (reply.status === 'dropped') {
        if (await retryOrFail(`the call was dropped: ${reply.error}`)) continue;
        return;
      }
      if (reply.status === 200) {
        run.status = 'completed';
        run.output = reply.body;
        return;
      }
      if (reply.status !== 206) {
        const why = `HTTP ${reply.status}: ${JSON.stringify(reply.body)}`;
        if (reply.status >= 500 && !reply.noRetry && (await retryOrFail(why))) continue;
        run.status = 'failed';
        run.error ??= why;
        return;
      }
      const ops = reply.body as Op[];
      record.ops = ops.map((op) => op.op);
      next = { stepId: 'step', attempt: 0 };
      const planned: Op[] = [];
      for (const op of ops) {
        const name = op.displayName ?? op.name ?? op.id;
        if (op.op === 'StepRun') this.memoize(run, op.id, name, { type: 'data', data: op.data ?? null });
        else if (op.op === 'StepFailed') this.memoize(run, op.id, name, { type: 'error', error: op.error });
        else if (op.op === 'StepError') {
          // Retried in place: the same step, one attempt later, while the function's retries last.
          // The SDK saw this call's attempt; it reports StepFailed instead on the last one.
          const ranAttempt = attempt;
          if (ranAttempt + 1 >= maxAttempts)
            this.memoize(run, op.id, name, { type: 'error', error: op.error });
          else {
            await wait(this.options.retryDelayMs(ranAttempt + 1));
            next = { stepId: op.id, attempt: ranAttempt + 1 };
          }
        } else if (op.op === 'StepPlanned') planned.push(op);
        else if (op.op === 'Sleep') {
          await wait(Math.min(this.options.maxSleepMs, sleepMs(op.name ?? '0ms')));
          this.memoize(run, op.id, name, { type: 'data', data: null });
        } else {
          run.status = 'failed';
          run.error = `the executor does not implement the op ${op.op} (step "${name}")`;
          return;
        }
      }
      // Planned steps (parallel ones, or any the SDK did not run at once) are run one by one by id.
      if (next.stepId === 'step' && planned.length > 0) next = { stepId: (planned[0] as Op).id, attempt: 0 };
    }
  }

  private memoize(run: Run, id: string, name: string, state: StepState): void {
    if (!(id in run.steps)) {
      run.stack.push(id);
      run.stepNames.push(state.type === 'error' ? `${name}(failed)` : name);
    }
    run.steps[id] = state;
  }

  private async call(
    fn: RegisteredFunction,
    run: Run,
    stepId: string,
    attempt: number,
    version: number | undefined,
  ): Promise<
    | { status: number; body: unknown; noRetry: boolean; version?: number }
    | { status: 'dropped'; error: string; version?: undefined }
  > {
    const url = new URL(fn.url);
    url.searchParams.set('fnId', fn.id);
    url.searchParams.set('stepId', stepId);
    const payload = {
      version: version ?? -1,
      event: run.event,
      events: [run.event],
      steps: run.steps,
      ctx: {
        run_id: run.id,
        attempt,
        max_attempts: fn.retries + 1,
        disable_immediate_execution: false,
        use_api: false,
        stack: { stack: run.stack, current: run.stack.length },
      },
    };
    // The SDK verifies the HMAC over the canonical form (RFC 8785) of the JSON it parsed.
    const body = canonicalize(payload) as string;
    const abort = new AbortController();
    const timer = setTimeout(
      () => abort.abort(new Error(`no reply in ${this.options.callTimeoutMs} ms`)),
      this.options.callTimeoutMs,
    );
    const info: CallInfo = { run, stepId, attempt };
    const watching = this.interruptions.filter((i) => !i.spent && i.when(info));
    for (const interruption of watching) interruption.inFlight.set(info, abort);
    try {
      const response = await fetch(url, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'x-inngest-signature': signBody(this.options.signingKey, body),
          'x-inngest-server-kind': 'cloud',
          'x-run-id': run.id,
        },
        signal: abort.signal,
      });
      const text = await response.text();
      // A reply that carries results must come from the app holding the key; an error reply (which a
      // proxy or the platform may write) is retried or fails the run either way.
      if (
        (response.status === 200 || response.status === 206) &&
        !signatureMatches(this.options.signingKey, text, response.headers.get('x-inngest-signature'))
      ) {
        throw new Error(
          `the reply (HTTP ${response.status}) is not signed with the signing key: ${text.slice(0, 200)}`,
        );
      }
      const replyVersion = Number(response.headers.get('x-inngest-req-version'));
      return {
        status: response.status,
        body: parseJson(text),
        noRetry: response.headers.get('x-inngest-no-retry') === 'true',
        version: Number.isInteger(replyVersion) && replyVersion > 0 ? replyVersion : undefined,
      };
    } catch (error) {
      if (abort.signal.aborted) return { status: 'dropped', error: String(abort.signal.reason) };
      if (error instanceof TypeError) return { status: 'dropped', error: String(error.cause ?? error) };
      throw error;
    } finally {
      clearTimeout(timer);
      for (const interruption of watching) interruption.inFlight.delete(info);
    }
  }
}
