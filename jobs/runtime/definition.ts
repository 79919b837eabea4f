import { Cron } from 'croner';
import type { InngestFunction } from 'inngest';
import { inngest } from '@/jobs/client';

/**
 * One function definition, two runtimes. `createFunction` is `inngest.createFunction` (hosted
 * Inngest serves its result from /api/inngest) that also keeps the options and handler it was
 * given, so the embedded runner reads its own arguments back instead of the SDK object's private
 * fields, which an SDK upgrade may move.
 */

type EventKey = (event: { data: Record<string, unknown> }) => string;

/** What the embedded runner needs from a function. */
export interface FunctionDefinition {
  id: string;
  /** Names of the events that trigger the function. */
  events: string[];
  crons: { expression: string; schedule: Cron }[];
  /**
   * Each rule: at most `limit` runs at a time per value of its `key` (no key: per function). A run
   * starts when every rule has room, as Inngest does with up to two rules (a per-run and a per-tenant
   * key). Empty (or limits of 0) is unlimited.
   */
  concurrency: { limit: number; key: EventKey }[];
  /** Retries after the first attempt (Inngest's default is 3). */
  retries: number;
  handler: Handler;
}

type Handler = (ctx: Record<string, unknown>) => unknown;

/**
 * The options the runner reproduces. It refuses a function using any other (throttle, idempotency,
 * onFailure…): accepting one silently would make local runs differ from hosted ones unnoticed. The
 * first function that needs one adds it here, with its test.
 */
const SUPPORTED_OPTIONS = new Set(['id', 'name', 'description', 'triggers', 'concurrency', 'retries']);

type RawTrigger = { event?: string | { name: string }; cron?: string; if?: string };
type RawConcurrency = { limit: number; key?: string; scope?: string };
/** The options as `createFunction` received them, in the shapes the runner reads. */
type RawOptions = {
  id: string;
  triggers?: RawTrigger | RawTrigger[];
  concurrency?: number | RawConcurrency | RawConcurrency[];
  retries?: number;
};

// On globalThis, like the runtime's state (./index.ts): should Next evaluate this module twice, a
// function made through one copy is still found by the runner started from the other.
const REGISTRY = Symbol.for('sitewatch.jobs.definitions');
const holder = globalThis as typeof globalThis & {
  [REGISTRY]?: WeakMap<object, { opts: RawOptions; handler: Handler }>;
};
holder[REGISTRY] ??= new WeakMap();
const registered = holder[REGISTRY];

export const createFunction: typeof inngest.createFunction = (options, handler) => {
  const fn = inngest.createFunction(options, handler);
  registered.set(fn, { opts: options as unknown as RawOptions, handler: handler as Handler });
  return fn;
};

/** Cron schedules run in UTC, as Inngest's do without a `TZ=` prefix (which no function uses). */
function schedule(fnId: string, expression: string): Cron {
  try {
    return new Cron(expression, { timezone: 'UTC', mode: '5-part' });
  } catch (error) {
    throw new Error(`function "${fnId}": cron "${expression}": ${(error as Error).message}`);
  }
}

/** Keys are limited to `event.data.<path>`: the only form the functions use. */
function keyReader(fnId: string, key: string): EventKey {
  const path = /^event\.data((?:\.[A-Za-z_$][\w$]*)+)$/.exec(key.trim())?.[1]?.slice(1).split('.');
  if (!path)
    throw new Error(
      `function "${fnId}": cannot evaluate expression "${key}"; keys must be event.data.<path>`,
    );
  const read = (value: unknown, part: string) =>
    value instanceof Object ? Reflect.get(value, part) : undefined;
  return (event) => String(path.reduce(read, event.data) ?? '');
}

/** Reads a function made by `createFunction` into what the embedded runner uses, refusing what it cannot run. */
export function describeFunction(fn: InngestFunction.Any): FunctionDefinition {
  const { opts, handler } = registered.get(fn) ?? {};
  if (!opts || !handler)
    throw new Error(`function "${fn.id()}": create it with createFunction from @/jobs/runtime`);
  const refuse = (what: string) =>
    new Error(`function "${opts.id}": ${what} is not supported by the embedded runner`);
  const unsupported = Object.keys(opts).find((option) => !SUPPORTED_OPTIONS.has(option));
  if (unsupported) throw refuse(`option "${unsupported}"`);

  const definition: FunctionDefinition = {
    id: opts.id,
    events: [],
    crons: [],
    retries: opts.retries ?? 3,
    concurrency: [],
    handler,
  };
  for (const trigger of [opts.triggers ?? []].flat()) {
    if (trigger.if) throw refuse('a trigger "if" filter');
    if (trigger.cron)
      definition.crons.push({ expression: trigger.cron, schedule: schedule(opts.id, trigger.cron) });
    // An eventType() declaration used as the trigger exposes its name as `event` too.
    else if (trigger.event)
      definition.events.push(typeof trigger.event === 'string' ? trigger.event : trigger.event.name);
    else throw refuse(`the trigger ${JSON.stringify(trigger)}`);
  }
  const rules = [opts.concurrency ?? []].flat();
  // Inngest's own bound: a function takes at most two concurrency rules.
  if (rules.length > 2) throw refuse('more than two concurrency rules');
  for (const rule of rules) {
    const { limit, key, scope = 'fn' } = typeof rule === 'number' ? { limit: rule } : rule;
    if (scope !== 'fn') throw refuse(`concurrency scope "${scope}"`);
    if (limit > 0) definition.concurrency.push({ limit, key: key ? keyReader(opts.id, key) : () => '' });
  }
  return definition;
}
