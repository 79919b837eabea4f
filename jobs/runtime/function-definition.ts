import { type InngestFunction, isInngestFunction } from 'inngest';
import { type CronSchedule, parseCron } from './cron';
import { compileExpression, type Expression } from './expression';

/**
 * What the embedded runner needs from an Inngest function, read out of the v4 function object.
 *
 * This module is the only place that knows the object's layout (inngest 4.x):
 *   - `fn.opts` (public) holds the options given to `createFunction`, with `triggers` normalised
 *     to an array of `{ event, if? }`, `{ cron }`, or `eventType()` instances (which expose
 *     `event` and `schema`);
 *   - `fn.id()` returns the function id;
 *   - the handler and the `onFailure` handler live in the private fields `fn` and `onFailureFn`.
 * When an SDK upgrade moves any of these, `describeFunction` throws at startup, naming the field.
 */

/** The context handed to a handler. Typed loosely: handlers declare their own precise types. */
export type HandlerContext = Record<string, unknown>;
export type FunctionHandler = (ctx: HandlerContext) => unknown;

/** A standard-schema validator (zod, valibot, …) as attached to an `eventType()` trigger. */
export interface EventSchema {
  '~standard': {
    validate: (
      value: unknown,
    ) =>
      | { issues?: ReadonlyArray<{ message: string }> }
      | PromiseLike<{ issues?: ReadonlyArray<{ message: string }> }>;
  };
}

export interface EventTrigger {
  event: string;
  /** The `if` filter, compiled; the run starts only when it is truthy for the event. */
  condition?: Expression;
  schema?: EventSchema;
}

export interface CronTrigger {
  expression: string;
  schedule: CronSchedule;
}

export interface ConcurrencyRule {
  /** 0 means unlimited (Inngest's meaning). */
  limit: number;
  key?: Expression;
  keySource?: string;
  scope: 'fn' | 'env' | 'account';
}

export interface FunctionDefinition {
  id: string;
  name: string;
  events: EventTrigger[];
  crons: CronTrigger[];
  concurrency: ConcurrencyRule[];
  /** Retries after the first attempt; Inngest's default is 3. */
  retries: number;
  idempotency?: Expression;
  handler: FunctionHandler;
  onFailure?: FunctionHandler;
}

export const DEFAULT_RETRIES = 3;

/**
 * Options whose behaviour the embedded runner does not reproduce. Accepting them silently would make
 * local runs differ from hosted ones in ways nobody would notice, so registration refuses them.
 */
const UNSUPPORTED_OPTIONS = [
  'batchEvents',
  'debounce',
  'rateLimit',
  'throttle',
  'cancelOn',
  'singleton',
] as const;

interface RawTrigger {
  event?: unknown;
  if?: unknown;
  cron?: unknown;
  schema?: unknown;
}

interface RawConcurrency {
  limit: number;
  key?: string;
  scope?: 'fn' | 'env' | 'account';
}

function schemaOf(candidate: unknown): EventSchema | undefined {
  return candidate && typeof candidate === 'object' && '~standard' in candidate
    ? (candidate as EventSchema)
    : undefined;
}

/**
 * An event trigger comes in three shapes: `{ event: 'name', if? }`; an `eventType()` declaration
 * used as the trigger (it exposes `event`, its name, and `schema`); or `{ event: declaration, if? }`.
 */
function eventTrigger(raw: RawTrigger, fnId: string): EventTrigger {
  const declaration =
    raw.event && typeof raw.event === 'object' ? (raw.event as RawTrigger & { name?: unknown }) : undefined;
  const name = declaration ? declaration.name : raw.event;
  if (typeof name !== 'string' || !name) {
    throw new Error(`function "${fnId}": unrecognised trigger ${JSON.stringify(raw)}`);
  }
  const trigger: EventTrigger = { event: name };
  if (typeof raw.if === 'string' && raw.if.trim()) trigger.condition = compileExpression(raw.if);
  const schema = schemaOf(declaration ? declaration.schema : raw.schema);
  if (schema) trigger.schema = schema;
  return trigger;
}

function concurrencyRules(raw: unknown, fnId: string): ConcurrencyRule[] {
  if (raw === undefined || raw === null) return [];
  const list: (number | RawConcurrency)[] = Array.isArray(raw) ? raw : [raw as number | RawConcurrency];
  return list.map((entry) => {
    if (typeof entry === 'number') return { limit: entry, scope: 'fn' as const };
    if (typeof entry?.limit !== 'number')
      throw new Error(`function "${fnId}": concurrency needs a numeric limit`);
    const rule: ConcurrencyRule = { limit: entry.limit, scope: entry.scope ?? 'fn' };
    if (entry.key) {
      rule.key = compileExpression(entry.key);
      rule.keySource = entry.key;
    }
    return rule;
  });
}

function privateHandler(fn: InngestFunction.Any, field: 'fn' | 'onFailureFn'): FunctionHandler | undefined {
  const value = (fn as unknown as Record<string, unknown>)[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'function')
    throw new Error(
      `function "${fn.id()}": expected the handler in field "${field}" (inngest SDK layout changed?)`,
    );
  return value as FunctionHandler;
}

/** Reads a function object created by `inngest.createFunction` into what the runner uses. */
export function describeFunction(fn: InngestFunction.Any): FunctionDefinition {
  if (!isInngestFunction(fn))
    throw new Error('embedded runner: expected a function created by inngest.createFunction');
  const opts = fn.opts as unknown as Record<string, unknown>;
  const id = fn.id();

  for (const option of UNSUPPORTED_OPTIONS) {
    if (opts[option] !== undefined) {
      throw new Error(`function "${id}": option "${option}" is not supported by the embedded runner`);
    }
  }

  const rawTriggers = (
    Array.isArray(opts.triggers) ? opts.triggers : opts.triggers ? [opts.triggers] : []
  ) as RawTrigger[];
  const events: EventTrigger[] = [];
  const crons: CronTrigger[] = [];
  for (const raw of rawTriggers) {
    if (typeof raw.cron === 'string') crons.push({ expression: raw.cron, schedule: parseCron(raw.cron) });
    else events.push(eventTrigger(raw, id));
  }

  const handler = privateHandler(fn, 'fn');
  if (!handler) throw new Error(`function "${id}": handler not found (inngest SDK layout changed?)`);

  const definition: FunctionDefinition = {
    id,
    name: fn.name,
    events,
    crons,
    concurrency: concurrencyRules(opts.concurrency, id),
    retries: typeof opts.retries === 'number' ? opts.retries : DEFAULT_RETRIES,
    handler,
  };
  if (typeof opts.idempotency === 'string') definition.idempotency = compileExpression(opts.idempotency);
  const onFailure = privateHandler(fn, 'onFailureFn');
  if (onFailure) definition.onFailure = onFailure;
  return definition;
}
