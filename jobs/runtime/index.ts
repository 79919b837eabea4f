import { randomUUID } from 'node:crypto';
import type { InngestFunction } from 'inngest';
import { inngest } from '@/jobs/client';
import { type SitewatchEvent, validateSitewatchEvent } from '@/jobs/events';
import { config } from '@/lib/config';
import { EmbeddedRunner, type EmbeddedRunnerOptions } from './embedded';

/**
 * The one door to background work. Jobs call `sendEvent` (the domain reaches it only through the
 * interfaces `jobs` implements, such as `jobs/crawl-events.ts`); which runtime receives the event is
 * decided here:
 *   - an embedded runner started in this process (`startJobRuntime`) takes it in-process;
 *   - otherwise, with Inngest configured (config().inngestHosted), it goes to Inngest;
 *   - otherwise nobody would run it: it is dropped with a warning. That is the case in unit and
 *     integration tests that do not start a runner, and is safe because every job's state lives
 *     in Postgres, where a later boot resumes it.
 */

export { createFunction } from './definition';
export { EmbeddedRunner, type EmbeddedRunnerOptions, type ReceivedEvent, type RunOutcome } from './embedded';

/** Work to do when an embedded runner starts, typically re-sending events for interrupted runs. */
export type BootHook = (ctx: { sendEvent: typeof sendEvent }) => Promise<void> | void;

interface RuntimeState {
  runner?: EmbeddedRunner;
  starting?: Promise<EmbeddedRunner | undefined>;
  bootHooks: BootHook[];
  warnedDropped: boolean;
}

// Next may evaluate instrumentation (and this module) more than once per process; the state lives
// on globalThis so there is only ever one runner.
const STATE = Symbol.for('sitewatch.jobs.runtime');

function state(): RuntimeState {
  const holder = globalThis as typeof globalThis & { [STATE]?: RuntimeState };
  holder[STATE] ??= { bootHooks: [], warnedDropped: false };
  return holder[STATE];
}

/**
 * Sends one or more declared events (jobs/events.ts). Data is validated against the event's schema
 * once, in every runtime (the embedded runner does it as it accepts them). Resolves when the event
 * is accepted, not when its functions finish.
 */
export async function sendEvent(events: SitewatchEvent | SitewatchEvent[]): Promise<{ ids: string[] }> {
  const list = [events].flat();
  const current = state();
  if (current.runner) return current.runner.send(list);
  for (const event of list) await validateSitewatchEvent(event);
  if (config().inngestHosted) {
    const { ids } = await inngest.send(list.map(({ name, data, id, ts }) => ({ name, data, id, ts })));
    return { ids };
  }
  if (!current.warnedDropped) {
    current.warnedDropped = true;
    console.warn(
      `jobs: no embedded runner is running and Inngest is not configured; dropping ${list.map((e) => e.name).join(', ')} (further drops are not logged)`,
    );
  }
  return { ids: list.map((e) => e.id ?? randomUUID()) };
}

export interface StartJobRuntimeOptions {
  functions: readonly InngestFunction.Any[];
  /** Start even when config().embeddedRunner is false (tests that exercise jobs end to end). */
  force?: boolean;
  runner?: Omit<EmbeddedRunnerOptions, 'validateEvent'>;
}

/**
 * Starts the embedded runner when config().embeddedRunner is true (or `force`), then runs the boot
 * hooks. Idempotent: later calls return the runner started by the first. Resolves to undefined
 * when no runner is wanted (Inngest runs the functions instead).
 */
export function startJobRuntime(options: StartJobRuntimeOptions): Promise<EmbeddedRunner | undefined> {
  const current = state();
  current.starting ??= (async () => {
    if (!options.force && !config().embeddedRunner) return undefined;
    const runner = new EmbeddedRunner(options.functions, {
      ...options.runner,
      validateEvent: validateSitewatchEvent,
    });
    runner.start();
    current.runner = runner;
    for (const hook of current.bootHooks) await runBootHook(hook);
    return runner;
  })();
  return current.starting;
}

/**
 * Registers work to run when the embedded runner starts. If it has started already, the hook runs
 * now and the returned promise settles when it is done; otherwise it resolves at once and the hook
 * runs inside `startJobRuntime`. Hosted mode has no boot: resumption there relies on Inngest's
 * retries (and on a scheduled sweep where the domain needs one).
 */
export async function onBoot(hook: BootHook): Promise<void> {
  const current = state();
  current.bootHooks.push(hook);
  if (current.runner) await runBootHook(hook);
}

async function runBootHook(hook: BootHook): Promise<void> {
  try {
    await hook({ sendEvent });
  } catch (error) {
    // One failing hook must not keep the others (or the server) from starting.
    console.error('jobs: boot hook failed:', error);
  }
}

/** The runner started in this process, if any. */
export function activeRunner(): EmbeddedRunner | undefined {
  return state().runner;
}

/** Resolves when the embedded runner has nothing running or queued (immediately without one). */
export async function jobsIdle(): Promise<void> {
  await state().runner?.idle();
}

/**
 * Stops the embedded runner after its in-flight work and forgets it, so a later
 * `startJobRuntime` starts afresh. Boot hooks stay registered.
 */
export async function stopJobRuntime(): Promise<void> {
  const current = state();
  const runner = current.runner ?? (await current.starting);
  current.runner = undefined;
  current.starting = undefined;
  await runner?.stop();
}
