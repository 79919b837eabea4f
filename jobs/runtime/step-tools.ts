import {
  durationToMs,
  type Logger,
  NonRetriableError,
  RetryAfterError,
  StepError,
  serializeError,
} from 'inngest';
import type { Clock } from './clock';

/**
 * `step.*` for one embedded run. The semantics follow Inngest's where code can observe them:
 *
 * - A step runs once per run: its outcome is memoised by id and replayed when the handler is
 *   re-executed after a failure, so finished steps are not repeated by retries.
 * - Reusing an id (a step inside a loop) addresses a new step each time, as Inngest does by
 *   suffixing the hashed id, so loops of `step.run('batch', …)` work.
 * - Results go through JSON, as they do when Inngest stores them: a `Date` comes back as a string
 *   and `undefined` as `null`. Code that passes locally therefore sees the same shapes hosted.
 * - A failing `step.run` is retried in place up to the function's retries; once they are used up
 *   the handler receives a `StepError`, which it may catch.
 */

export type StepOutcome =
  | { ok: true; value: unknown }
  | { ok: false; error: { name: string; message: string; stack?: string } };

/** Step outcomes of one run; survives the run's attempts. */
export type StepMemo = Map<string, StepOutcome>;

export interface EventToSend {
  name: string;
  data?: unknown;
  id?: string;
  ts?: number;
}

export interface StepToolsDeps {
  functionId: string;
  memo: StepMemo;
  clock: Clock;
  logger: Logger;
  retries: number;
  retryDelay: (attempt: number) => number;
  sendEvents: (events: EventToSend[]) => Promise<{ ids: string[] }>;
}

export function toJsonValue(value: unknown): unknown {
  if (value === undefined) return null;
  const text = JSON.stringify(value);
  return text === undefined ? null : JSON.parse(text);
}

/** Node's timers overflow past about 24.8 days (and then fire at once), so longer waits are chained. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export async function wait(clock: Clock, ms: number): Promise<void> {
  let left = Math.max(0, ms);
  do {
    const chunk = Math.min(left, MAX_TIMER_MS);
    await new Promise<void>((resolve) => clock.setTimer(resolve, chunk));
    left -= chunk;
  } while (left > 0);
}

/** How long to wait before retrying after `error`: a `RetryAfterError` decides for itself. */
export function retryDelayFor(
  error: unknown,
  attempt: number,
  clock: Clock,
  retryDelay: (attempt: number) => number,
): number {
  if (error instanceof RetryAfterError) {
    const seconds = Number(error.retryAfter);
    return Number.isFinite(seconds) ? seconds * 1000 : Date.parse(error.retryAfter) - clock.now();
  }
  return retryDelay(attempt);
}

function stepId(idOrOptions: unknown): string {
  if (typeof idOrOptions === 'string') return idOrOptions;
  if (
    idOrOptions &&
    typeof idOrOptions === 'object' &&
    typeof (idOrOptions as { id?: unknown }).id === 'string'
  ) {
    return (idOrOptions as { id: string }).id;
  }
  throw new NonRetriableError('a step needs an id: step.run("id", fn) or step.run({ id }, fn)');
}

function durationMs(duration: unknown): number {
  try {
    return durationToMs(duration, { name: 'step.sleep duration' });
  } catch (error) {
    // A malformed duration fails the same way on every attempt; retrying would only delay the news.
    throw new NonRetriableError(error instanceof Error ? error.message : String(error));
  }
}

function notSupported(tool: string): () => never {
  return () => {
    throw new NonRetriableError(
      `step.${tool} is not supported by the embedded runner (jobs/runtime/embedded.ts); it only works when Inngest is configured`,
    );
  };
}

export function createStepTools(deps: StepToolsDeps) {
  const { memo, clock, logger } = deps;
  // Occurrences of each id in this execution of the handler; reset by creating new tools per attempt.
  const seen = new Map<string, number>();

  const memoKey = (id: string): string => {
    const count = seen.get(id) ?? 0;
    seen.set(id, count + 1);
    return count === 0 ? id : `${id}:${count}`;
  };

  const replay = (key: string, id: string): { hit: true; value: unknown } | { hit: false } => {
    const outcome = memo.get(key);
    if (!outcome) return { hit: false };
    if (outcome.ok) return { hit: true, value: outcome.value };
    throw new StepError(id, outcome.error);
  };

  /** Runs `body` once per run under `key`, retrying in place; failures become a memoised StepError. */
  const once = async (idOrOptions: unknown, body: () => unknown, retry: boolean): Promise<unknown> => {
    const id = stepId(idOrOptions);
    const key = memoKey(id);
    const memoised = replay(key, id);
    if (memoised.hit) return memoised.value;

    for (let attempt = 0; ; attempt += 1) {
      try {
        const value = toJsonValue(await body());
        memo.set(key, { ok: true, value });
        return value;
      } catch (error) {
        const final = !retry || attempt >= deps.retries || error instanceof NonRetriableError;
        if (final) {
          const serialized = serializeError(error);
          memo.set(key, { ok: false, error: serialized });
          throw new StepError(id, serialized);
        }
        const delay = retryDelayFor(error, attempt + 1, clock, deps.retryDelay);
        logger.warn(
          `[${deps.functionId}] step "${id}" failed (attempt ${attempt + 1} of ${deps.retries + 1}), retrying in ${delay}ms:`,
          error,
        );
        await wait(clock, delay);
      }
    }
  };

  return {
    run: <T>(idOrOptions: unknown, fn: (...args: unknown[]) => T, ...input: unknown[]) =>
      once(idOrOptions, () => fn(...input), true),

    sleep: async (idOrOptions: unknown, duration: unknown): Promise<void> => {
      const ms = durationMs(duration);
      await once(idOrOptions, () => wait(clock, ms), false);
    },

    sleepUntil: async (idOrOptions: unknown, time: unknown): Promise<void> => {
      const until = time instanceof Date ? time.getTime() : Date.parse(String(time));
      if (Number.isNaN(until))
        throw new NonRetriableError(`step.sleepUntil: cannot read a time from ${String(time)}`);
      await once(idOrOptions, () => wait(clock, until - clock.now()), false);
    },

    sendEvent: (idOrOptions: unknown, payload: EventToSend | EventToSend[]) =>
      once(idOrOptions, () => deps.sendEvents(Array.isArray(payload) ? payload : [payload]), true),

    waitForEvent: notSupported('waitForEvent'),
    waitForSignal: notSupported('waitForSignal'),
    sendSignal: notSupported('sendSignal'),
    invoke: notSupported('invoke'),
    fetch: notSupported('fetch'),
    realtime: { publish: notSupported('realtime.publish') },
    ai: { infer: notSupported('ai.infer'), wrap: notSupported('ai.wrap') },
  };
}

/** `group.*`: steps already run as they are called, so `parallel` only has to call its callback. */
export function createGroupTools() {
  return {
    parallel: <T>(optionsOrCallback: unknown, maybeCallback?: () => Promise<T>): Promise<T> => {
      const callback =
        typeof optionsOrCallback === 'function' ? (optionsOrCallback as () => Promise<T>) : maybeCallback;
      if (!callback) throw new NonRetriableError('group.parallel needs a callback');
      return callback();
    },
    experiment: notSupported('group.experiment'),
  };
}
