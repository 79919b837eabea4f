import { randomUUID } from 'node:crypto';
import { type InngestFunction, type Logger, NonRetriableError, StepError, serializeError } from 'inngest';
import { type Clock, systemClock } from './clock';
import { describeFunction, type FunctionDefinition, type FunctionHandler } from './function-definition';
import {
  createGroupTools,
  createStepTools,
  type EventToSend,
  retryDelayFor,
  type StepMemo,
  toJsonValue,
  wait,
} from './step-tools';

/**
 * Runs Inngest function definitions inside this process, for machines without Inngest: the same
 * `createFunction` objects that /api/inngest serves, triggered by events sent in-process and by a
 * minute-resolution cron scheduler, with concurrency keys, retries and `step.*` memoisation.
 *
 * The runner keeps nothing durable. Work survives a crash because the domain state lives in
 * Postgres: on start, boot hooks (see `onBoot` in ./index.ts) look for interrupted work and send
 * the events that resume it, the way Inngest's own retries would.
 */

export interface EmbeddedRunnerOptions {
  clock?: Clock;
  logger?: Logger;
  /** Milliseconds to wait before retry number `attempt` (1-based). Default: exponential, 1s to 1min. */
  retryDelay?: (attempt: number) => number;
  /** Checks each event before it is accepted (the app passes jobs/events.ts's validator). */
  validateEvent?: (event: EventToSend) => Promise<void> | void;
  /** Observes every finished run: what the handler returned, or the error that ended it. */
  onRunFinished?: (outcome: RunOutcome) => void;
}

export type RunOutcome = { functionId: string; runId: string; event: ReceivedEvent } & (
  | { status: 'completed'; result: unknown }
  | { status: 'failed'; error: unknown }
);

/** An event as functions receive it. */
export interface ReceivedEvent {
  name: string;
  data: Record<string, unknown>;
  id: string;
  ts: number;
}

interface Run {
  runId: string;
  definition: FunctionDefinition;
  event: ReceivedEvent;
  /** Concurrency slots the run holds while active: slot id and its limit. */
  slots: { id: string; limit: number }[];
}

/** The event Inngest sends to cron-triggered functions. */
export const CRON_EVENT = 'inngest/scheduled.timer';
const FAILURE_EVENT = 'inngest/function.failed';
const DEDUPLICATION_WINDOW_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60_000;

/** Console output without the per-run debug lines, which would repeat every minute for crons. */
const consoleLogger: Logger = {
  info: (...args) => console.info(...args),
  warn: (...args) => console.warn(...args),
  error: (...args) => console.error(...args),
  debug: () => {},
};

const defaultRetryDelay = (attempt: number): number => Math.min(1000 * 2 ** (attempt - 1), MINUTE_MS);

export class EmbeddedRunner {
  readonly definitions: readonly FunctionDefinition[];
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly retryDelay: (attempt: number) => number;
  private readonly validateEvent?: (event: EventToSend) => Promise<void> | void;
  private readonly onRunFinished?: (outcome: RunOutcome) => void;

  /** Runs waiting for a concurrency slot, oldest first. */
  private readonly queue: Run[] = [];
  private readonly slotUsage = new Map<string, number>();
  private active = 0;
  /** Sends still validating; `idle()` must not resolve before their runs are queued. */
  private accepting = 0;
  private readonly idleWaiters: (() => void)[] = [];
  private readonly seenEventIds = new Map<string, number>();
  private readonly seenIdempotencyKeys = new Map<string, number>();

  private cronTimer: unknown;
  private lastCronMinute = -1;
  private started = false;
  private stopped = false;

  constructor(functions: readonly InngestFunction.Any[], options: EmbeddedRunnerOptions = {}) {
    this.definitions = functions.map(describeFunction);
    const ids = new Set<string>();
    for (const { id } of this.definitions) {
      if (ids.has(id)) throw new Error(`embedded runner: two functions share the id "${id}"`);
      ids.add(id);
    }
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? consoleLogger;
    this.retryDelay = options.retryDelay ?? defaultRetryDelay;
    if (options.validateEvent) this.validateEvent = options.validateEvent;
    if (options.onRunFinished) this.onRunFinished = options.onRunFinished;
  }

  /** Starts the cron scheduler. Events are accepted from construction on. */
  start(): void {
    if (this.started) return;
    if (this.stopped) throw new Error('embedded runner: cannot restart a stopped runner');
    this.started = true;
    if (this.definitions.some((d) => d.crons.length > 0)) {
      // The minute we start in has begun already; its schedule was due at its first second.
      this.lastCronMinute = Math.floor(this.clock.now() / MINUTE_MS);
      this.scheduleCronTick();
    }
  }

  /**
   * Accepts events and queues a run of every function they trigger; resolves once queued (not when
   * the runs finish; use `idle()` for that). Returns the event ids, like `inngest.send`.
   * An event whose `id` was already seen in the last 24 hours triggers nothing, as on Inngest.
   */
  send(payload: EventToSend | EventToSend[]): Promise<{ ids: string[] }> {
    if (this.stopped) return Promise.reject(new Error('embedded runner: stopped, not accepting events'));
    return this.accept(Array.isArray(payload) ? payload : [payload], 'outside');
  }

  private async accept(events: EventToSend[], from: 'outside' | 'run'): Promise<{ ids: string[] }> {
    this.accepting += 1;
    try {
      const received = events.map((e) => this.receive(e));
      for (const [i, event] of received.entries()) {
        await this.validateEvent?.(events[i] as EventToSend);
        await this.validateAgainstTriggers(event);
      }
      if (this.stopped && from === 'run') {
        // Shutting down: follow-up work is not started. It is recoverable because domain state lives
        // in Postgres and boot hooks resume it on the next start.
        this.logger.warn(
          `embedded runner: stopping, not starting runs for ${received.map((e) => e.name).join(', ')}`,
        );
      } else {
        for (const event of received) this.dispatch(event);
      }
      return { ids: received.map((e) => e.id) };
    } finally {
      this.accepting -= 1;
      this.settleIdle();
    }
  }

  /** Queues the runs of every cron schedule matching the minute containing `at`. */
  fireCron(at: Date): void {
    const minuteStart = Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS;
    for (const definition of this.definitions) {
      for (const cron of definition.crons) {
        if (!cron.schedule.matches(at)) continue;
        this.enqueue(definition, {
          name: CRON_EVENT,
          data: { cron: cron.expression },
          id: randomUUID(),
          ts: minuteStart,
        });
      }
    }
  }

  /** Resolves when no run is active, queued, or about to be queued. */
  idle(): Promise<void> {
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.settleIdle();
    });
  }

  /** Stops the scheduler, refuses new events, and waits for queued and running work to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.cronTimer !== undefined) this.clock.clearTimer(this.cronTimer);
    this.cronTimer = undefined;
    await this.idle();
  }

  private receive(event: EventToSend): ReceivedEvent {
    if (typeof event?.name !== 'string' || !event.name)
      throw new Error('embedded runner: an event needs a name');
    const data = event.data ?? {};
    if (typeof data !== 'object' || Array.isArray(data))
      throw new Error(`event "${event.name}": data must be an object`);
    // Functions receive what Inngest would deliver: the JSON form of the event.
    return {
      name: event.name,
      data: JSON.parse(JSON.stringify(data)) as Record<string, unknown>,
      id: event.id ?? randomUUID(),
      ts: event.ts ?? this.clock.now(),
    };
  }

  private async validateAgainstTriggers(event: ReceivedEvent): Promise<void> {
    for (const definition of this.definitions) {
      for (const trigger of definition.events) {
        if (trigger.event !== event.name || !trigger.schema) continue;
        const check = await trigger.schema['~standard'].validate(event.data);
        if (check.issues) {
          throw new Error(
            `invalid "${event.name}" event for function "${definition.id}": ${check.issues.map((i) => i.message).join('; ')}`,
          );
        }
      }
    }
  }

  private dispatch(event: ReceivedEvent): void {
    if (this.alreadySeen(this.seenEventIds, event.id)) return;
    const scope = { event };
    for (const definition of this.definitions) {
      const triggered = definition.events.some(
        (t) => t.event === event.name && (!t.condition || Boolean(t.condition(scope))),
      );
      if (!triggered) continue;
      if (definition.idempotency) {
        const key = `${definition.id}\u0000${String(definition.idempotency(scope) ?? '')}`;
        if (this.alreadySeen(this.seenIdempotencyKeys, key)) continue;
      }
      this.enqueue(definition, event);
    }
  }

  /** Records `key`; true when it was recorded within the deduplication window already. */
  private alreadySeen(seen: Map<string, number>, key: string): boolean {
    const now = this.clock.now();
    const previous = seen.get(key);
    if (previous !== undefined && now - previous < DEDUPLICATION_WINDOW_MS) return true;
    seen.set(key, now);
    if (seen.size > 10_000) {
      for (const [k, at] of seen) if (now - at >= DEDUPLICATION_WINDOW_MS) seen.delete(k);
    }
    return false;
  }

  private enqueue(definition: FunctionDefinition, event: ReceivedEvent): void {
    const scope = { event };
    const slots = definition.concurrency
      .filter((rule) => rule.limit > 0)
      .map((rule, index) => {
        const keyValue = rule.key ? String(rule.key(scope) ?? '') : '';
        // Function-scoped limits are per function; env/account scopes share the key across functions.
        const id =
          rule.scope === 'fn'
            ? `fn:${definition.id}:${index}:${keyValue}`
            : `${rule.scope}:${rule.keySource ?? ''}:${keyValue}`;
        return { id, limit: rule.limit };
      });
    this.queue.push({ runId: randomUUID(), definition, event, slots });
    this.pump();
  }

  /** Starts every queued run whose slots have room, in queue order, so each key stays FIFO. */
  private pump(): void {
    for (let i = 0; i < this.queue.length; ) {
      const run = this.queue[i] as Run;
      if (run.slots.every((slot) => (this.slotUsage.get(slot.id) ?? 0) < slot.limit)) {
        this.queue.splice(i, 1);
        for (const slot of run.slots) this.slotUsage.set(slot.id, (this.slotUsage.get(slot.id) ?? 0) + 1);
        this.active += 1;
        void this.execute(run).finally(() => this.finish(run));
      } else {
        i += 1;
      }
    }
  }

  private finish(run: Run): void {
    for (const slot of run.slots) {
      const left = (this.slotUsage.get(slot.id) ?? 1) - 1;
      if (left > 0) this.slotUsage.set(slot.id, left);
      else this.slotUsage.delete(slot.id);
    }
    this.active -= 1;
    this.pump();
    this.settleIdle();
  }

  private settleIdle(): void {
    if (this.active > 0 || this.queue.length > 0 || this.accepting > 0) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private runLogger(definition: FunctionDefinition, runId: string): Logger {
    const prefix = `[${definition.id} ${runId.slice(0, 8)}]`;
    return {
      info: (...args) => this.logger.info(prefix, ...args),
      warn: (...args) => this.logger.warn(prefix, ...args),
      error: (...args) => this.logger.error(prefix, ...args),
      debug: (...args) => this.logger.debug(prefix, ...args),
    };
  }

  private context(
    run: Run,
    memo: StepMemo,
    logger: Logger,
    attempt: number,
    extra: Record<string, unknown> = {},
  ) {
    const { definition, event } = run;
    return {
      event,
      events: [event],
      runId: run.runId,
      attempt,
      maxAttempts: definition.retries + 1,
      logger,
      step: createStepTools({
        functionId: definition.id,
        memo,
        clock: this.clock,
        logger,
        retries: definition.retries,
        retryDelay: this.retryDelay,
        sendEvents: (events) => this.accept(events, 'run'),
      }),
      group: createGroupTools(),
      ...extra,
    };
  }

  /**
   * One run: the handler is executed, and re-executed after a failure outside a step, up to the
   * function's retries. Step outcomes persist across attempts, so finished steps are not repeated.
   * A step that used up its own retries (StepError) or a NonRetriableError ends the run at once.
   */
  private async execute(run: Run): Promise<void> {
    const { definition } = run;
    const logger = this.runLogger(definition, run.runId);
    const memo: StepMemo = new Map();
    logger.debug(`started by ${run.event.name}`);
    const outcome = { functionId: definition.id, runId: run.runId, event: run.event };
    for (let attempt = 0; ; attempt += 1) {
      try {
        const result = toJsonValue(await definition.handler(this.context(run, memo, logger, attempt)));
        logger.debug('completed');
        this.report({ ...outcome, status: 'completed', result }, logger);
        return;
      } catch (error) {
        const final =
          attempt >= definition.retries || error instanceof StepError || error instanceof NonRetriableError;
        if (final) {
          logger.error(`failed after ${attempt + 1} attempt(s):`, error);
          await this.runFailureHandler(run, error, logger);
          this.report({ ...outcome, status: 'failed', error }, logger);
          return;
        }
        const delay = retryDelayFor(error, attempt + 1, this.clock, this.retryDelay);
        logger.warn(
          `attempt ${attempt + 1} of ${definition.retries + 1} failed, retrying in ${delay}ms:`,
          error,
        );
        await wait(this.clock, delay);
      }
    }
  }

  private report(outcome: RunOutcome, logger: Logger): void {
    try {
      this.onRunFinished?.(outcome);
    } catch (error) {
      logger.error('onRunFinished observer failed:', error);
    }
  }

  /** `onFailure` receives Inngest's `inngest/function.failed` event and the final error. */
  private async runFailureHandler(run: Run, error: unknown, logger: Logger): Promise<void> {
    const onFailure: FunctionHandler | undefined = run.definition.onFailure;
    if (!onFailure) return;
    const failureEvent = {
      name: FAILURE_EVENT,
      data: {
        function_id: run.definition.id,
        run_id: run.runId,
        error: serializeError(error),
        event: run.event,
      },
      id: randomUUID(),
      ts: this.clock.now(),
    };
    const failed = error instanceof Error ? error : new Error(String(error));
    try {
      await onFailure(this.context({ ...run, event: failureEvent }, new Map(), logger, 0, { error: failed }));
    } catch (failureError) {
      logger.error('onFailure handler failed:', failureError);
    }
  }

  private scheduleCronTick(): void {
    if (this.stopped) return;
    const now = this.clock.now();
    const nextMinute = (Math.floor(now / MINUTE_MS) + 1) * MINUTE_MS;
    this.cronTimer = this.clock.setTimer(() => this.cronTick(), nextMinute - now, { background: true });
  }

  private cronTick(): void {
    this.cronTimer = undefined;
    if (this.stopped) return;
    const minute = Math.floor(this.clock.now() / MINUTE_MS);
    // A timer may wake a little early; each minute fires once. Missed minutes are not caught up,
    // matching Inngest, which does not backfill schedules.
    if (minute > this.lastCronMinute) {
      this.lastCronMinute = minute;
      try {
        this.fireCron(new Date(minute * MINUTE_MS));
      } catch (error) {
        this.logger.error('embedded runner: cron dispatch failed:', error);
      }
    }
    this.scheduleCronTick();
  }
}
