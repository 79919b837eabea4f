import { Inngest } from 'inngest';

/**
 * The one Inngest client. Functions are defined in jobs/functions with `createFunction` from
 * jobs/runtime (this client's `createFunction`, remembered for the embedded runner) and run either on
 * Inngest (hosted) or in the embedded runner; the definitions are the same in both.
 *
 * The SDK reads its own keys (INNGEST_EVENT_KEY, INNGEST_SIGNING_KEY, INNGEST_DEV) from the
 * environment; lib/config declares the same variables to decide which runtime is active. Passing
 * them here would force parsing the configuration at import time, which tests cannot control.
 *
 * Events are typed per event with `eventType()` (see jobs/events.ts) rather than on the client: v4
 * removed client-level schemas.
 */
export const inngest = new Inngest({ id: 'sitewatch' });
