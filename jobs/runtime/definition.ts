import { Cron } from 'croner';
import type { InngestFunction } from 'inngest';
import { inngest } from '@/jobs/client';

/**
 * One function definition, two runtimes. `createFunction` is `inngest.createFunction` (hosted
 * Inngest serves its result from /api/inngest) that also keeps the options and the handler it was
 * given, so the embedded runner reads them from here rather than from the SDK object's private
 * fields, which an SDK upgrade may move.
 */

export type FunctionHandler = (ctx: Record<string, unknown>) => unknown;

/** What the embedded runner needs from a function, read from the options given to `createFunction`. */
export interface FunctionDefinition {
  id: string;
  /** Names of the events that trigger the function. */
  events: string[];
  crons: { expression: string; schedule: Cron }[];
  /** 0 means unlimited (Inngest's meaning); `key` returns the slot a run takes. */
  concurrency: { limit: number; key: (event: { data: Record<string, unknown> }) => string }[];
  /** Retries after the first attempt. */
  retries: number;
  handler: FunctionHandler;
}

/** Inngest's default when a function sets no `retries`. */
export const DEFAULT_RETRIES = 3;

/**
 * Options the runner does not reproduce. Accepting them silently would make local runs differ from
 * hosted ones unnoticed, so a function using one is refused when the runner starts; whoever needs
 * one adds it to the runner with its test.
 */
const UNSUPPORTED_OPTIONS = [
  'batchEvents',
  'cancelOn',
  'debounce',
  'idempotency',
  'onFailure',
  'priority',
  'rateLimit',
  'singleton',
  'throttle',
  'timeouts',
] as const;

const registered = new WeakMap<InngestFunction.Any, { options: RawOptions; handler: FunctionHandler }>();

export const createFunction: typeof inngest.createFunction = (options, handler) => {
  const fn = inngest.createFunction(options, handler);
  registered.set(fn, { options: options as unknown as RawOptions, handler: handler as FunctionHandler });
  return fn;
};

interface RawTrigger {
  event?: string | { name: string };
  cron?: string;
  if?: string;
}
interface RawConcurrency {
  limit: number;
  key?: string;
  scope?: string;
}
interface RawOptions extends Record<string, unknown> {
  id: string;
  triggers?: RawTrigger | RawTrigger[];
  concurrency?: number | RawConcurrency | RawConcurrency[];
  retries?: number;
}

/** Cron schedules run in UTC, as Inngest's do without a `TZ=` prefix (which no function uses). */
function schedule(fnId: string, expression: string): Cron {
  try {
    return new Cron(expression, { timezone: 'UTC', mode: '5-part' });
  } catch (error) {
    throw new Error(
      `function "${fnId}": cron "${expression}": ${error instanceof Error ? error.message : error}`,
    );
  }
}

/** Keys are limited to `event.data.<path>`: the only form the functions use. */
function keyReader(fnId: string, key: string | undefined): FunctionDefinition['concurrency'][number]['key'] {
  if (key === undefined) return () => '';
  const path = /^event\.data((?:\.[A-Za-z_$][\w$]*)+)$/.exec(key.trim())?.[1]?.slice(1).split('.');
  if (!path)
    throw new Error(
      `function "${fnId}": cannot evaluate expression "${key}"; keys must read event.data.<path>`,
    );
  return (event) => {
    let value: unknown = event.data;
    for (const part of path)
      value = value && typeof value === 'object' ? Reflect.get(value, part) : undefined;
    return value === undefined || value === null ? '' : String(value);
  };
}

/** Reads a function made by `createFunction` into what the embedded runner uses, refusing what it cannot run. */
export function describeFunction(fn: InngestFunction.Any): FunctionDefinition {
  const entry = registered.get(fn);
  if (!entry)
    throw new Error(
      `function "${fn.id()}": create it with createFunction from @/jobs/runtime so the embedded runner can run it`,
    );
  const { options: opts, handler } = entry;
  for (const option of UNSUPPORTED_OPTIONS) {
    if (opts[option] !== undefined)
      throw new Error(`function "${opts.id}": option "${option}" is not supported by the embedded runner`);
  }

  const definition: FunctionDefinition = {
    id: opts.id,
    events: [],
    crons: [],
    concurrency: [],
    retries: opts.retries ?? DEFAULT_RETRIES,
    handler,
  };
  for (const trigger of [opts.triggers ?? []].flat()) {
    if (trigger.if) throw new Error(`function "${opts.id}": trigger "if" filters are not supported`);
    if (trigger.cron)
      definition.crons.push({ expression: trigger.cron, schedule: schedule(opts.id, trigger.cron) });
    // An eventType() declaration used as the trigger exposes its name as `event` too.
    else if (trigger.event)
      definition.events.push(typeof trigger.event === 'string' ? trigger.event : trigger.event.name);
    else throw new Error(`function "${opts.id}": unrecognised trigger ${JSON.stringify(trigger)}`);
  }
  for (const rule of [opts.concurrency ?? []].flat()) {
    const { limit, key, scope = 'fn' } = typeof rule === 'number' ? { limit: rule } : rule;
    if (scope !== 'fn')
      throw new Error(`function "${opts.id}": concurrency scope "${scope}" is not supported`);
    definition.concurrency.push({ limit, key: keyReader(opts.id, key) });
  }
  return definition;
}
