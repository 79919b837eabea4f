import { randomUUID } from 'node:crypto';
import { type InngestFunction, type Logger, NonRetriableError, StepError } from 'inngest';
import { type Clock, systemClock } from './clock';
import { describeFunction, type FunctionDefinition } from './definition';
import { createStepTools, type EventToSend, type StepMemo, toJsonValue, wait } from './steps';

/**
 * Runs the app's function definitions inside this process, for machines without Inngest: triggered
 * by events sent in-process and by a minute-resolution cron tick, with per-key concurrency, retries
 * and memoised steps. It keeps nothing durable: work survives a crash because domain state lives in
 * Postgres, and boot hooks (`onBoot` in ./index.ts) send the events that resume it.
 */

export interface EmbeddedRunnerOptions {
  clock?: Clock;
  logger?: Logger;
  /** Milliseconds to wait before retry number `attempt` (1-based). Default: exponential, 1s to 1min. */
  retryDelay?: (attempt: number) => number;
  /** Checks each event once, before it is accepted (the app passes jobs/events.ts's validator). */
  validateEvent?: (event: EventToSend) => Promise<void> | void;
  /** Observes every finished run: what the handler returned, or the error that ended it. */
  onRunFinished?: (outcome: RunOutcome) => void;
}

export type RunOutcome = { functionId: string; runId: string; event: ReceivedEvent } & (
  | { status: 'completed'; result: unknown }
  | { status: 'failed'; error: unknown }
);

/** An event as functions receive it. */
export type ReceivedEvent = { name: string; data: Record<string, unknown>; id: string; ts: number };

/**
 * A queued run; each of its `slots` names its function, one concurrency rule and that rule's key,
 * paired with the rule's limit. The run holds all of them while it runs.
 */
type Run = { definition: FunctionDefinition; event: ReceivedEvent; slots: { name: string; limit: number }[] };

/** The event Inngest sends to cron-triggered functions. */
export const CRON_EVENT = 'inngest/scheduled.timer';
/** Inngest ignores an event whose id it has seen within the last 24 hours; so does the runner. */
const DEDUPLICATION_WINDOW_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60_000;

export class EmbeddedRunner {
  readonly definitions: readonly FunctionDefinition[];
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly options: EmbeddedRunnerOptions;
  /** Runs waiting for a concurrency slot, oldest first. */
  private readonly queue: Run[] = [];
  /** Active runs per slot; empty when no run with a concurrency rule runs. */
  private readonly slotUsage = new Map<string, number>();
  /** Active runs, whatever their rules. */
  private running = 0;
  /** Sends still validating; `idle()` must not resolve before their runs are queued. */
  private accepting = 0;
  private readonly idleWaiters: (() => void)[] = [];
  private readonly seenEventIds = new Map<string, number>();
  private cronTimer: unknown;
  private lastCronMinute = -1;
  private stopped = false;

  constructor(functions: readonly InngestFunction.Any[], options: EmbeddedRunnerOptions = {}) {
    this.definitions = functions.map(describeFunction);
    const ids = this.definitions.map((d) => d.id);
    const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
    if (duplicate) throw new Error(`embedded runner: two functions share the id "${duplicate}"`);
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? console;
    this.options = options;
  }

  /** Starts the cron tick. Events are accepted from construction on. */
  start(): void {
    if (this.stopped) throw new Error('embedded runner: cannot restart a stopped runner');
    if (this.cronTimer !== undefined || !this.definitions.some((d) => d.crons.length > 0)) return;
    // The minute we start in has begun already; its schedule was due at its first second.
    this.lastCronMinute = Math.floor(this.clock.now() / MINUTE_MS);
    this.armCron();
  }

  /**
   * Accepts events and queues a run of every function they trigger; resolves once queued (use
   * `idle()` to wait for the runs). An event whose `id` was seen in the last 24 hours triggers nothing.
   */
  send(payload: EventToSend | EventToSend[]): Promise<{ ids: string[] }> {
    if (this.stopped) return Promise.reject(new Error('embedded runner: stopped, not accepting events'));
    return this.accept([payload].flat());
  }

  private async accept(events: EventToSend[]): Promise<{ ids: string[] }> {
    this.accepting += 1;
    try {
      for (const event of events) await this.options.validateEvent?.(event);
      // Functions receive what Inngest would deliver: the JSON form of the event.
      const received = events.map(({ name, data, id, ts }) => ({
        name,
        data: toJsonValue(data ?? {}) as Record<string, unknown>,
        id: id ?? randomUUID(),
        ts: ts ?? this.clock.now(),
      }));
      // Once stopping, follow-up work is not started; boot hooks resume it on the next start.
      if (this.stopped)
        this.logger.warn(`embedded runner: stopping, not running ${events.map((e) => e.name)}`);
      else for (const event of received) this.dispatch(event);
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
        if (!cron.schedule.match(new Date(minuteStart))) continue;
        const data = { cron: cron.expression };
        this.enqueue(definition, { name: CRON_EVENT, data, id: randomUUID(), ts: minuteStart });
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

  /** Stops the cron tick, refuses new events, and waits for queued and running work to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.cronTimer !== undefined) this.clock.clearTimer(this.cronTimer);
    this.cronTimer = undefined;
    await this.idle();
  }

  private dispatch(event: ReceivedEvent): void {
    const now = this.clock.now();
    const seenAt = this.seenEventIds.get(event.id);
    if (seenAt !== undefined && now - seenAt < DEDUPLICATION_WINDOW_MS) return;
    // Ids are kept in arrival order, so expired ones are at the front.
    for (const [id, at] of this.seenEventIds) {
      if (now - at < DEDUPLICATION_WINDOW_MS) break;
      this.seenEventIds.delete(id);
    }
    this.seenEventIds.set(event.id, now);
    for (const definition of this.definitions) {
      if (definition.events.includes(event.name)) this.enqueue(definition, event);
    }
  }

  private enqueue(definition: FunctionDefinition, event: ReceivedEvent): void {
    this.queue.push({
      definition,
      event,
      slots: definition.concurrency.map((rule, i) => ({
        name: `${definition.id}:${i}:${rule.key(event)}`,
        limit: rule.limit,
      })),
    });
    this.pump();
  }

  /**
   * Starts every queued run whose slots all have room, in queue order, so each key stays FIFO: a
   * tenant at its limit waits while another tenant's runs, queued after it, start.
   */
  private pump(): void {
    for (let i = 0; i < this.queue.length; ) {
      const run = this.queue[i] as Run;
      if (run.slots.some((slot) => (this.slotUsage.get(slot.name) ?? 0) >= slot.limit)) {
        i += 1;
        continue;
      }
      this.queue.splice(i, 1);
      for (const slot of run.slots) this.slotUsage.set(slot.name, (this.slotUsage.get(slot.name) ?? 0) + 1);
      this.running += 1;
      void this.execute(run).finally(() => {
        this.running -= 1;
        for (const slot of run.slots) {
          const left = (this.slotUsage.get(slot.name) ?? 1) - 1;
          if (left > 0) this.slotUsage.set(slot.name, left);
          else this.slotUsage.delete(slot.name);
        }
        this.pump();
        this.settleIdle();
      });
    }
  }

  private settleIdle(): void {
    if (this.running > 0 || this.queue.length > 0 || this.accepting > 0) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  /**
   * One run: the handler is re-executed after a failure outside a step, up to the function's
   * retries. Step outcomes persist across attempts, so finished steps are not repeated. A step that
   * used up its retries (StepError) or a NonRetriableError ends the run at once.
   */
  private async execute({ definition, event }: Run): Promise<void> {
    const { clock, logger } = this;
    const { retries } = definition;
    const runId = randomUUID();
    const memo: StepMemo = new Map();
    // Exponential from 1 s, capped at a minute: a retry soon after a blip, rarely during an outage.
    const retryDelay = this.options.retryDelay ?? ((n: number) => Math.min(1000 * 2 ** (n - 1), MINUTE_MS));
    const sendEvents = (events: EventToSend[]) => this.accept(events);
    let outcome: RunOutcome | undefined;
    for (let attempt = 0; !outcome; attempt += 1) {
      const step = createStepTools({ memo, clock, logger, retries, retryDelay, sendEvents });
      const ctx = { event, events: [event], runId, attempt, maxAttempts: retries + 1, logger, step };
      try {
        const result = toJsonValue(await definition.handler(ctx));
        outcome = { functionId: definition.id, runId, event, status: 'completed', result };
      } catch (error) {
        if (attempt >= retries || error instanceof StepError || error instanceof NonRetriableError) {
          logger.error(`${definition.id}: failed after ${attempt + 1} attempt(s):`, error);
          outcome = { functionId: definition.id, runId, event, status: 'failed', error };
        } else {
          logger.warn(`${definition.id}: attempt ${attempt + 1} of ${retries + 1} failed, retrying:`, error);
          await wait(clock, retryDelay(attempt + 1));
        }
      }
    }
    this.options.onRunFinished?.(outcome);
  }

  /** Fires each minute's schedules once, at the start of the minute as the clock sees it. */
  private armCron(): void {
    const fire = () => {
      const minute = Math.floor(this.clock.now() / MINUTE_MS);
      // A timer may wake a little early; each minute fires once. Missed minutes are not caught up,
      // matching Inngest, which does not backfill schedules.
      if (minute > this.lastCronMinute) {
        this.lastCronMinute = minute;
        this.fireCron(new Date(minute * MINUTE_MS));
      }
      this.armCron();
    };
    this.cronTimer = this.clock.setTimer(fire, MINUTE_MS - (this.clock.now() % MINUTE_MS), {
      background: true,
    });
  }
}
