import { type EventType, eventType } from 'inngest';
import { z } from 'zod';

/**
 * Every event Sitewatch sends, typed once with v4's `eventType()`.
 *
 * To add an event: declare it below with a zod schema (no transforms; Inngest rejects them) and add it
 * to `sitewatchEvents`. Functions use the declaration itself as a trigger
 * (`triggers: [crawlRequested]`), which types `event.data` in the handler; senders use
 * `sendEvent({ name: 'crawl/requested', data })` from `@/jobs/runtime`, typed by `SitewatchEvent`.
 */

/** A crawl run row was created; the crawl function starts working its frontier. */
export const crawlRequested = eventType('crawl/requested', {
  schema: z.object({
    siteId: z.string().min(1),
    tenantId: z.string().min(1),
    runId: z.string().min(1),
    chainA11y: z.boolean(),
  }),
});

/**
 * The crawl is a loop of bounded steps; a run that has more frontier than one invocation should
 * work re-enters through this event (also sent to resume runs whose leases expired).
 */
export const crawlContinue = eventType('crawl/continue', {
  // The tenant: the crawl function's per-tenant concurrency key (jobs/functions/crawl.ts).
  schema: z.object({ runId: z.string().min(1), tenantId: z.string().min(1) }),
});

/** The frontier is exhausted; summarise the run and fan out follow-up work. */
export const crawlFinalize = eventType('crawl/finalize', {
  schema: z.object({ runId: z.string().min(1) }),
});

/** A tenant used up an app's allowance for the period; notifications react to it. */
export const usageAllowanceReached = eventType('usage/allowance-reached', {
  schema: z.object({
    tenantId: z.string().min(1),
    siteId: z.string().min(1),
    app: z.string().min(1),
    period: z.string().min(1),
  }),
});

/**
 * A run's accessibility render pass is to be worked: a standalone `a11y` run was created, or a crawl
 * was finalized with its pass chained (lib/a11y/runs/pass.ts).
 */
export const a11yRequested = eventType('a11y/requested', {
  schema: z.object({
    siteId: z.string().min(1),
    tenantId: z.string().min(1),
    runId: z.string().min(1),
  }),
});

/** The pass renders in bounded steps; one with more pages than an invocation re-enters here (and resumes). */
export const a11yContinue = eventType('a11y/continue', {
  // The tenant: the render function's per-tenant concurrency key (jobs/functions/a11y.ts).
  schema: z.object({ runId: z.string().min(1), tenantId: z.string().min(1) }),
});

/** Every page of the pass is rendered; store the run's counters and ledger row. */
export const a11yFinalize = eventType('a11y/finalize', {
  schema: z.object({ runId: z.string().min(1) }),
});

/** Sync one site's field data (CrUX) now: from the scheduler's daily slot or a manual request. */
export const fieldDataSyncRequested = eventType('fielddata/sync-requested', {
  schema: z.object({ siteId: z.string().min(1), tenantId: z.string().min(1) }),
});

/** Sync one site's search analytics (Search Console) now: from the scheduler's daily slot. */
export const searchSyncRequested = eventType('search/sync-requested', {
  schema: z.object({ siteId: z.string().min(1), tenantId: z.string().min(1) }),
});

/**
 * Notifications were queued in the outbox (lib/notify/outbox.ts): deliver them now rather than at the
 * delivery job's next minute. Also re-sent by the job itself while a backlog remains.
 */
export const notifyQueued = eventType('notify/queued', {
  schema: z.object({ reason: z.string().min(1) }),
});

export const sitewatchEvents = [
  crawlRequested,
  crawlContinue,
  crawlFinalize,
  a11yRequested,
  a11yContinue,
  a11yFinalize,
  usageAllowanceReached,
  notifyQueued,
  fieldDataSyncRequested,
  searchSyncRequested,
] as const;

type DeclaredEvent = (typeof sitewatchEvents)[number];

export type SitewatchEventName = DeclaredEvent['name'];

/** The payload of one declared event: what `sendEvent` accepts. `id` deduplicates (first one wins). */
export type SitewatchEvent = DeclaredEvent extends infer E
  ? E extends EventType<infer Name, infer _Schema>
    ? { name: Name; data: NonNullable<Parameters<E['create']>[0]>; id?: string; ts?: number }
    : never
  : never;

/** The data of the event called `Name`. */
export type EventData<Name extends SitewatchEventName> = Extract<SitewatchEvent, { name: Name }>['data'];

const byName = new Map<string, DeclaredEvent>(sitewatchEvents.map((e) => [e.name, e]));

/**
 * Checks an outgoing event against its declaration. Both runtimes call this before an event leaves
 * the process, so a malformed event fails where it is sent rather than inside a function later.
 */
export async function validateSitewatchEvent(evt: { name: string; data?: unknown }): Promise<void> {
  const declared = byName.get(evt.name);
  if (!declared) throw new Error(`unknown event "${evt.name}": declare it in jobs/events.ts`);
  const check = await declared.schema['~standard'].validate(evt.data);
  if (check.issues) {
    const detail = check.issues
      .map((issue) =>
        issue.path?.length
          ? `${issue.path.map((p) => (typeof p === 'object' ? p.key : p)).join('.')}: ${issue.message}`
          : issue.message,
      )
      .join('; ');
    throw new Error(`invalid "${evt.name}" event: ${detail}`);
  }
}
