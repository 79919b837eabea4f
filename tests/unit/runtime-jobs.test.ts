import { afterEach, describe, expect, it, vi } from 'vitest';
import { inngest } from '@/jobs/client';
import { crawlContinue, crawlFinalize, validateSitewatchEvent } from '@/jobs/events';
import {
  activeRunner,
  createFunction,
  jobsIdle,
  onBoot,
  sendEvent,
  startJobRuntime,
  stopJobRuntime,
} from '@/jobs/runtime';
import { resetConfig } from '@/lib/config';
import { readRequestBody, startServer } from '@/tests/support/http-server';

const quiet = { info() {}, warn() {}, error() {}, debug() {} };

afterEach(async () => {
  await stopJobRuntime();
  resetConfig();
});

describe('validateSitewatchEvent', () => {
  it('accepts declared events with valid data', async () => {
    await expect(
      validateSitewatchEvent({ name: 'crawl/continue', data: { runId: 'r1', tenantId: 't1' } }),
    ).resolves.toBeUndefined();
    await expect(
      validateSitewatchEvent({
        name: 'usage/allowance-reached',
        data: { tenantId: 't', siteId: 's', app: 'crawl', period: '2025-01' },
      }),
    ).resolves.toBeUndefined();
  });

  it('names the field that is wrong, and refuses undeclared events', async () => {
    await expect(
      validateSitewatchEvent({
        name: 'crawl/requested',
        data: { siteId: 's', tenantId: 't', runId: 'r', chainA11y: 'yes' },
      }),
    ).rejects.toThrow(/invalid "crawl\/requested" event: chainA11y:/);
    await expect(validateSitewatchEvent({ name: 'crawl/unknown', data: {} })).rejects.toThrow(
      /unknown event "crawl\/unknown"/,
    );
  });
});

describe('sendEvent and the embedded runtime', () => {
  it('does not start a runner when config().embeddedRunner is false (as in tests)', async () => {
    expect(await startJobRuntime({ functions: [] })).toBeUndefined();
    expect(activeRunner()).toBeUndefined();
  });

  it('drops events when no runtime would run them, after validating them', async () => {
    const { ids } = await sendEvent({ name: 'crawl/finalize', data: { runId: 'r1' }, id: 'fixed-id' });
    expect(ids).toEqual(['fixed-id']);
    // @ts-expect-error runId is required by the declaration; the runtime check catches it too.
    await expect(sendEvent({ name: 'crawl/finalize', data: {} })).rejects.toThrow(
      /invalid "crawl\/finalize" event: runId/,
    );
  });

  it('validates an event once on its way to the embedded runner', async () => {
    const runs: string[] = [];
    const fn = createFunction({ id: 'facade-once', triggers: [crawlContinue] }, async ({ event }) => {
      runs.push(event.data.runId);
    });
    await startJobRuntime({ functions: [fn], force: true, runner: { logger: quiet } });
    // Observes the declared schema's checks (a spy that calls through): sendEvent, the runner and
    // the trigger each used to run it.
    const checks = vi.spyOn(crawlContinue.schema['~standard'], 'validate');
    try {
      await sendEvent({ name: 'crawl/continue', data: { runId: 'once', tenantId: 't1' } });
      await jobsIdle();
      expect(runs).toEqual(['once']);
      expect(checks).toHaveBeenCalledTimes(1);
    } finally {
      checks.mockRestore();
    }
  });

  it('starts once, routes sendEvent and step.sendEvent in-process, and runs boot hooks', async () => {
    const log: string[] = [];
    const continueFn = createFunction(
      { id: 'facade-continue', triggers: [crawlContinue] },
      async ({ event, step }) => {
        log.push(`continue ${event.data.runId}`);
        await step.sendEvent('finalize', { name: 'crawl/finalize', data: { runId: event.data.runId } });
      },
    );
    const finalizeFn = createFunction(
      { id: 'facade-finalize', triggers: [crawlFinalize] },
      async ({ event }) => {
        log.push(`finalize ${event.data.runId}`);
      },
    );

    // Registered before start: runs when the runner starts, like resuming interrupted crawls.
    await onBoot(async ({ sendEvent: send }) => {
      await send({ name: 'crawl/continue', data: { runId: 'interrupted', tenantId: 't1' } });
    });

    const functions = [continueFn, finalizeFn];
    const [first, second] = await Promise.all([
      startJobRuntime({ functions, force: true, runner: { logger: quiet } }),
      startJobRuntime({ functions, force: true, runner: { logger: quiet } }),
    ]);
    expect(first).toBeDefined();
    expect(second).toBe(first);
    expect(activeRunner()).toBe(first);

    await sendEvent({ name: 'crawl/continue', data: { runId: 'fresh', tenantId: 't1' } });
    await jobsIdle();
    expect(log.sort()).toEqual([
      'continue fresh',
      'continue interrupted',
      'finalize fresh',
      'finalize interrupted',
    ]);

    // Registered after start: runs at once.
    await onBoot(async ({ sendEvent: send }) => {
      await send({ name: 'crawl/finalize', data: { runId: 'late' } });
    });
    await jobsIdle();
    expect(log).toContain('finalize late');

    await stopJobRuntime();
    expect(activeRunner()).toBeUndefined();
  });
});

describe('sendEvent in hosted mode', () => {
  it('posts the events to the Inngest event API', async () => {
    const received: unknown[] = [];
    const inngestApi = await startServer('127.0.0.1', {
      'POST /e/test-event-key': async (req, res) => {
        const events = JSON.parse(await readRequestBody(req)) as unknown[];
        received.push(...events);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ ids: events.map((_, i) => `evt-${i}`), status: 200 }));
      },
    });
    const previous = process.env.INNGEST_EVENT_KEY;
    try {
      process.env.INNGEST_EVENT_KEY = 'test-event-key';
      resetConfig();
      inngest.setEnvVars({
        INNGEST_EVENT_KEY: 'test-event-key',
        INNGEST_EVENT_API_BASE_URL: inngestApi.url('/'),
      });

      const { ids } = await sendEvent([
        { name: 'crawl/requested', data: { siteId: 's1', tenantId: 't1', runId: 'r1', chainA11y: true } },
        {
          name: 'usage/allowance-reached',
          data: { tenantId: 't1', siteId: 's1', app: 'crawl', period: '2025-01' },
        },
      ]);
      expect(ids).toEqual(['evt-0', 'evt-1']);
      expect(received).toEqual([
        expect.objectContaining({
          name: 'crawl/requested',
          data: { siteId: 's1', tenantId: 't1', runId: 'r1', chainA11y: true },
        }),
        expect.objectContaining({
          name: 'usage/allowance-reached',
          data: { tenantId: 't1', siteId: 's1', app: 'crawl', period: '2025-01' },
        }),
      ]);
    } finally {
      if (previous === undefined) delete process.env.INNGEST_EVENT_KEY;
      else process.env.INNGEST_EVENT_KEY = previous;
      inngest.setEnvVars({ INNGEST_EVENT_KEY: undefined, INNGEST_EVENT_API_BASE_URL: undefined });
      await inngestApi.close();
    }
  });
});
