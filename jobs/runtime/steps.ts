import { durationToMs, type Logger, NonRetriableError, StepError, serializeError } from 'inngest';
import type { Clock } from './clock';

/**
 * `step.run`, `step.sleep` and `step.sendEvent` for one embedded run, with Inngest's semantics where
 * code can observe them:
 * - a step runs once per run: its outcome is memoised by id and replayed when the handler is
 *   re-executed after a failure; reusing an id (a step in a loop) addresses a new step each time;
 * - results go through JSON, as when Inngest stores them (a `Date` comes back as a string);
 * - a failing step is retried in place up to the function's retries, then the handler receives a
 *   `StepError`, which it may catch.
 * Any other tool fails the run with a message saying so.
 */

export type StepMemo = Map<
  string,
  { ok: true; value: unknown } | { ok: false; error: ReturnType<typeof serializeError> }
>;

export type EventToSend = { name: string; data?: unknown; id?: string; ts?: number };

export interface StepDeps {
  memo: StepMemo;
  clock: Clock;
  logger: Logger;
  retries: number;
  retryDelay: (attempt: number) => number;
  sendEvents: (events: EventToSend[]) => Promise<{ ids: string[] }>;
}

export function toJsonValue(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? null : JSON.parse(text);
}

export function wait(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimer(resolve, Math.max(0, ms)));
}

export function createStepTools({ memo, clock, logger, retries, retryDelay, sendEvents }: StepDeps) {
  // Occurrences of each id in this execution of the handler (tools are created per attempt).
  const seen = new Map<string, number>();

  const once = async (id: string, body: () => unknown, retry: boolean): Promise<unknown> => {
    const count = seen.get(id) ?? 0;
    seen.set(id, count + 1);
    const key = count === 0 ? id : `${id}:${count}`;
    const memoised = memo.get(key);
    if (memoised?.ok) return memoised.value;
    if (memoised) throw new StepError(id, memoised.error);

    for (let attempt = 0; ; attempt += 1) {
      try {
        const value = toJsonValue(await body());
        memo.set(key, { ok: true, value });
        return value;
      } catch (error) {
        if (!retry || attempt >= retries || error instanceof NonRetriableError) {
          const serialized = serializeError(error);
          memo.set(key, { ok: false, error: serialized });
          throw new StepError(id, serialized);
        }
        const delay = retryDelay(attempt + 1);
        logger.warn(`step "${id}" failed (attempt ${attempt + 1}), retrying in ${delay}ms:`, error);
        await wait(clock, delay);
      }
    }
  };

  const tools = {
    run: (id: string, fn: () => unknown) => once(id, fn, true),
    // Not retried: a malformed duration fails the same way on every attempt.
    sleep: (id: string, duration: number | string) =>
      once(id, () => wait(clock, durationToMs(duration, { name: 'step.sleep duration' })), false),
    sendEvent: (id: string, payload: EventToSend | EventToSend[]) =>
      once(id, () => sendEvents([payload].flat()), true),
  };
  return new Proxy(tools, {
    get: (target, tool) =>
      Reflect.get(target, tool) ??
      (() => {
        throw new NonRetriableError(
          `step.${String(tool)} is not supported by the embedded runner (jobs/runtime); it only works when Inngest is configured`,
        );
      }),
  });
}
