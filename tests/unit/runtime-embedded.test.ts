import { eventType, NonRetriableError, type StandardSchemaV1, StepError } from 'inngest';
import { afterEach, describe, expect, it } from 'vitest';
import { inngest } from '@/jobs/client';
import { crawlRequested, validateSitewatchEvent } from '@/jobs/events';
import { createFunction } from '@/jobs/runtime/definition';
import { EmbeddedRunner, type EmbeddedRunnerOptions } from '@/jobs/runtime/embedded';

const quiet = { info() {}, warn() {}, error() {}, debug() {} };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let runners: EmbeddedRunner[] = [];
function startRunner(
  functions: ConstructorParameters<typeof EmbeddedRunner>[0],
  options: EmbeddedRunnerOptions = {},
) {
  const runner = new EmbeddedRunner(functions, { logger: quiet, retryDelay: () => 5, ...options });
  runner.start();
  runners.push(runner);
  return runner;
}

afterEach(async () => {
  await Promise.all(runners.map((r) => r.stop()));
  runners = [];
});

describe('event dispatch', () => {
  it('runs every function triggered by an event with the event as Inngest delivers it', async () => {
    const seen: { fn: string; name: string; data: unknown; id: string | undefined; events: number }[] = [];
    const first = createFunction(
      { id: 'dispatch-first', triggers: [{ event: 'test/ping' }] },
      async ({ event, events }) => {
        seen.push({ fn: 'first', name: event.name, data: event.data, id: event.id, events: events.length });
      },
    );
    const second = createFunction(
      { id: 'dispatch-second', triggers: [{ event: 'test/other' }, { event: 'test/ping' }] },
      async ({ event }) => {
        seen.push({ fn: 'second', name: event.name, data: event.data, id: event.id, events: 1 });
      },
    );
    const unrelated = createFunction(
      { id: 'dispatch-unrelated', triggers: [{ event: 'test/nothing' }] },
      async () => {
        seen.push({ fn: 'unrelated', name: '', data: null, id: undefined, events: 0 });
      },
    );
    const runner = startRunner([first, second, unrelated]);

    const { ids } = await runner.send({
      name: 'test/ping',
      data: { when: new Date('2025-01-01T00:00:00Z') },
    });
    await runner.idle();

    expect(ids).toHaveLength(1);
    expect(seen.map((s) => s.fn).sort()).toEqual(['first', 'second']);
    for (const s of seen) {
      expect(s).toMatchObject({ name: 'test/ping', id: ids[0], events: 1 });
      // Event data arrives as JSON, as it would from Inngest.
      expect(s.data).toEqual({ when: '2025-01-01T00:00:00.000Z' });
    }
  });

  it('starts nothing for an event id seen before, like Inngest deduplication', async () => {
    let runs = 0;
    const fn = createFunction({ id: 'dispatch-dedupe', triggers: [{ event: 'test/dedupe' }] }, async () => {
      runs += 1;
    });
    const runner = startRunner([fn]);
    await runner.send({ name: 'test/dedupe', id: 'same', data: {} });
    await runner.send({ name: 'test/dedupe', id: 'same', data: {} });
    await runner.send({ name: 'test/dedupe', id: 'other', data: {} });
    await runner.idle();
    expect(runs).toBe(2);
  });

  it('validates each event once, against its declaration, and types the handler', async () => {
    const sites: string[] = [];
    const fn = createFunction({ id: 'dispatch-typed', triggers: [crawlRequested] }, async ({ event }) => {
      // `event.data` is typed from the zod schema; this line would not compile otherwise.
      const siteId: string = event.data.siteId;
      sites.push(siteId);
    });
    let validations = 0;
    const runner = startRunner([fn], {
      validateEvent: (event) => {
        validations += 1;
        return validateSitewatchEvent(event);
      },
    });
    await expect(
      runner.send({ name: 'crawl/requested', data: { siteId: 's1', tenantId: 't1' } }),
    ).rejects.toThrow(/invalid "crawl\/requested" event/);
    await runner.send(crawlRequested.create({ siteId: 's1', tenantId: 't1', runId: 'r1', chainA11y: false }));
    await runner.send(crawlRequested.create({ siteId: 's2', tenantId: 't1', runId: 'r2', chainA11y: true }));
    await runner.idle();
    expect(sites.sort()).toEqual(['s1', 's2']);
    expect(validations).toBe(3);
  });

  it('checks a trigger schema only through validateEvent, so each event is validated once', async () => {
    let checks = 0;
    const schema: StandardSchemaV1<Record<string, unknown>> = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: (value) => {
          checks += 1;
          return { value: value as Record<string, unknown> };
        },
      },
    };
    const counted = eventType('test/counted', { schema });
    const fn = createFunction({ id: 'dispatch-counted', triggers: [counted] }, async () => {});
    const runner = startRunner([fn], {
      validateEvent: async (event) => {
        await counted.schema['~standard'].validate(event.data);
      },
    });
    await runner.send({ name: 'test/counted', data: {} });
    await runner.idle();
    expect(checks).toBe(1);
  });

  it('refuses options whose behaviour it does not reproduce', () => {
    const throttled = createFunction(
      { id: 'dispatch-throttled', throttle: { limit: 1, period: '1m' }, triggers: [{ event: 'test/x' }] },
      async () => {},
    );
    expect(() => new EmbeddedRunner([throttled])).toThrow(
      /"dispatch-throttled": option "throttle" is not supported/,
    );
    const oddKey = createFunction(
      {
        id: 'dispatch-odd-key',
        concurrency: { limit: 1, key: 'event.data.list[0]' },
        triggers: [{ event: 'test/x' }],
      },
      async () => {},
    );
    expect(() => new EmbeddedRunner([oddKey])).toThrow(/cannot evaluate expression "event.data.list\[0\]"/);
  });

  it('refuses features no function uses, and functions it cannot read through the public API', () => {
    const refused = (options: Parameters<typeof createFunction>[0]) => () =>
      new EmbeddedRunner([createFunction(options, async () => {})]);
    const on = [{ event: 'test/x' }];
    expect(refused({ id: 'r-if', triggers: [{ event: 'test/x', if: 'event.data.n == 1' }] })).toThrow(
      /"r-if": a trigger "if" filter is not supported/,
    );
    expect(refused({ id: 'r-idem', idempotency: 'event.data.n', triggers: on })).toThrow(
      /"r-idem": option "idempotency" is not supported/,
    );
    expect(refused({ id: 'r-fail', onFailure: async () => {}, triggers: on })).toThrow(
      /"r-fail": option "onFailure" is not supported/,
    );
    expect(
      refused({
        id: 'r-scope',
        concurrency: { limit: 1, scope: 'account', key: 'event.data.n' },
        triggers: on,
      }),
    ).toThrow(/"r-scope": concurrency scope "account" is not supported/);
    expect(refused({ id: 'r-cron', triggers: [{ cron: '61 * * * *' }] })).toThrow(
      /"r-cron": cron "61 \* \* \* \*"/,
    );
    // Made by the SDK alone: its handler is private, so the runner would have to read SDK internals.
    const bare = inngest.createFunction({ id: 'r-bare', triggers: on }, async () => {});
    expect(() => new EmbeddedRunner([bare])).toThrow(
      /"r-bare": create it with createFunction from @\/jobs\/runtime/,
    );
  });
});

describe('steps', () => {
  it('memoises step.run by id within a run, keeps loop occurrences apart, and passes results through JSON', async () => {
    const calls: string[] = [];
    let attempts = 0;
    let result: unknown;
    const fn = createFunction(
      { id: 'steps-memo', retries: 1, triggers: [{ event: 'test/memo' }] },
      async ({ step, attempt }) => {
        attempts += 1;
        const values: number[] = [];
        for (let i = 0; i < 3; i++) {
          values.push(
            await step.run('batch', () => {
              calls.push(`batch ${i}`);
              return i * 10;
            }),
          );
        }
        const when = await step.run('when', () => {
          calls.push('when');
          return new Date('2025-02-03T04:05:06Z');
        });
        const nothing = await step.run('nothing', () => {
          calls.push('nothing');
        });
        // Fails after the steps on the first attempt: the retry must replay them, not run them again.
        if (attempt === 0) throw new Error('first attempt fails after its steps');
        result = { values, when, nothing };
      },
    );
    const runner = startRunner([fn]);
    await runner.send({ name: 'test/memo', data: {} });
    await runner.idle();

    expect(attempts).toBe(2);
    expect(calls).toEqual(['batch 0', 'batch 1', 'batch 2', 'when', 'nothing']);
    expect(result).toEqual({ values: [0, 10, 20], when: '2025-02-03T04:05:06.000Z', nothing: null });
  });

  it('step.sendEvent dispatches in-process to the next function, once per run', async () => {
    const chain: string[] = [];
    let attempt0Failed = false;
    const first = createFunction(
      { id: 'steps-chain-first', triggers: [{ event: 'test/chain.start' }] },
      async ({ event, step }) => {
        chain.push(`first ${event.data.n}`);
        const sent = await step.sendEvent('continue', {
          name: 'test/chain.next',
          data: { n: Number(event.data.n) + 1 },
        });
        chain.push(`sent ${sent.ids.length}`);
        if (!attempt0Failed) {
          attempt0Failed = true;
          throw new Error('retry after sending; the event must not be sent twice');
        }
      },
    );
    const second = createFunction(
      { id: 'steps-chain-second', triggers: [{ event: 'test/chain.next' }] },
      async ({ event }) => {
        chain.push(`second ${event.data.n}`);
      },
    );
    const runner = startRunner([first, second]);
    await runner.send({ name: 'test/chain.start', data: { n: 1 } });
    await runner.idle();

    expect(chain.filter((c) => c.startsWith('second'))).toEqual(['second 2']);
    expect(chain.filter((c) => c.startsWith('first'))).toEqual(['first 1', 'first 1']);
  });

  it('step.sleep really waits, and accepts time strings and milliseconds', async () => {
    let elapsed = 0;
    const fn = createFunction(
      { id: 'steps-sleep', triggers: [{ event: 'test/sleep' }] },
      async ({ step }) => {
        const started = performance.now();
        await step.sleep('short', 60);
        await step.sleep('string', '0.05s');
        elapsed = performance.now() - started;
      },
    );
    const runner = startRunner([fn]);
    await runner.send({ name: 'test/sleep', data: {} });
    await runner.idle();
    expect(elapsed).toBeGreaterThanOrEqual(100);
  });

  it('fails a run at once on a malformed sleep duration', async () => {
    const outcomes: unknown[] = [];
    let attempts = 0;
    const fn = createFunction(
      { id: 'steps-bad-sleep', triggers: [{ event: 'test/bad-sleep' }] },
      async ({ step }) => {
        attempts += 1;
        await step.sleep('never', 'soon');
      },
    );
    const runner = startRunner([fn], {
      onRunFinished: (o) => outcomes.push(o.status === 'failed' ? String(o.error) : o.status),
    });
    await runner.send({ name: 'test/bad-sleep', data: {} });
    await runner.idle();
    expect(attempts).toBe(1);
    expect(outcomes).toEqual([expect.stringMatching(/step\.sleep duration must be a positive/)]);
  });

  it('step.waitForEvent fails the run with a clear message and no retries', async () => {
    const errors: string[] = [];
    let attempts = 0;
    const fn = createFunction(
      { id: 'steps-wait', retries: 3, triggers: [{ event: 'test/wait' }] },
      async ({ step }) => {
        attempts += 1;
        await step.waitForEvent('approval', { event: 'test/approved', timeout: '1h' });
      },
    );
    const runner = startRunner([fn], {
      onRunFinished: (o) => {
        if (o.status === 'failed') errors.push((o.error as Error).message);
      },
    });
    await runner.send({ name: 'test/wait', data: {} });
    await runner.idle();
    expect(attempts).toBe(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/step\.waitForEvent is not supported by the embedded runner/);
  });
});

describe('retries', () => {
  it('retries a failing step in place up to the function retries', async () => {
    let stepCalls = 0;
    let handlerRuns = 0;
    let value: unknown;
    const fn = createFunction(
      { id: 'retries-step', retries: 2, triggers: [{ event: 'test/flaky' }] },
      async ({ step }) => {
        handlerRuns += 1;
        value = await step.run('flaky', () => {
          stepCalls += 1;
          if (stepCalls < 3) throw new Error(`flake ${stepCalls}`);
          return 'ok';
        });
      },
    );
    const runner = startRunner([fn]);
    await runner.send({ name: 'test/flaky', data: {} });
    await runner.idle();
    expect(stepCalls).toBe(3);
    expect(handlerRuns).toBe(1);
    expect(value).toBe('ok');
  });

  it('hands a StepError to the handler once a step has used its retries', async () => {
    let caught: unknown;
    let stepCalls = 0;
    const fn = createFunction(
      { id: 'retries-exhausted-step', retries: 1, triggers: [{ event: 'test/broken' }] },
      async ({ step }) => {
        try {
          await step.run('broken', () => {
            stepCalls += 1;
            throw new TypeError('always broken');
          });
        } catch (error) {
          caught = error;
        }
      },
    );
    const runner = startRunner([fn]);
    await runner.send({ name: 'test/broken', data: {} });
    await runner.idle();
    expect(stepCalls).toBe(2);
    expect(caught).toBeInstanceOf(StepError);
    expect((caught as StepError).stepId).toBe('broken');
    expect((caught as StepError).message).toBe('always broken');
  });

  it('re-executes a failing handler up to its retries, then reports the final error', async () => {
    const attempts: number[] = [];
    const failures: { message: string; name: string; data: unknown }[] = [];
    const fn = createFunction(
      { id: 'retries-handler', retries: 2, triggers: [{ event: 'test/doomed' }] },
      async ({ attempt, maxAttempts }) => {
        attempts.push(attempt);
        throw new Error(`attempt ${attempt + 1} of ${maxAttempts} failed`);
      },
    );
    const runner = startRunner([fn], {
      onRunFinished: (o) => {
        if (o.status === 'failed')
          failures.push({ message: (o.error as Error).message, name: o.event.name, data: o.event.data });
      },
    });
    await runner.send({ name: 'test/doomed', data: { site: 'x' } });
    await runner.idle();
    expect(attempts).toEqual([0, 1, 2]);
    expect(failures).toEqual([
      { message: 'attempt 3 of 3 failed', name: 'test/doomed', data: { site: 'x' } },
    ]);
  });

  it('does not retry a NonRetriableError, and uses the configured delay between attempts', async () => {
    const delays: number[] = [];
    let nonRetriableRuns = 0;
    const stops = createFunction(
      { id: 'retries-non-retriable', triggers: [{ event: 'test/stop' }] },
      async () => {
        nonRetriableRuns += 1;
        throw new NonRetriableError('give up');
      },
    );
    let flakyRuns = 0;
    const flaky = createFunction(
      { id: 'retries-delay', retries: 3, triggers: [{ event: 'test/delay' }] },
      async () => {
        flakyRuns += 1;
        if (flakyRuns < 4) throw new Error('again');
      },
    );
    const runner = startRunner([stops, flaky], {
      retryDelay: (attempt) => {
        delays.push(attempt);
        return 1;
      },
    });
    await runner.send([
      { name: 'test/stop', data: {} },
      { name: 'test/delay', data: {} },
    ]);
    await runner.idle();
    expect(nonRetriableRuns).toBe(1);
    expect(flakyRuns).toBe(4);
    expect(delays).toEqual([1, 2, 3]);
  });
});

describe('concurrency', () => {
  it('runs one at a time per key and different keys in parallel, queueing FIFO without dropping', async () => {
    const log: string[] = [];
    const started = new Set<string>();
    const fn = createFunction(
      {
        id: 'concurrency-keyed',
        concurrency: { limit: 1, key: 'event.data.siteId' },
        triggers: [{ event: 'test/work' }],
      },
      async ({ event, step }) => {
        const label = `${event.data.siteId}${event.data.n}`;
        log.push(`start ${label}`);
        started.add(label);
        await step.run('work', async () => {
          // The first run of site a holds its slot until site b has started (or a deadline passes):
          // b can only start meanwhile if different keys really run in parallel.
          if (label === 'a1') {
            const deadline = Date.now() + 2000;
            while (!started.has('b1') && Date.now() < deadline) await pause(5);
          } else {
            await pause(10);
          }
        });
        log.push(`end ${label}`);
      },
    );
    const runner = startRunner([fn]);
    await runner.send([
      { name: 'test/work', data: { siteId: 'a', n: 1 } },
      { name: 'test/work', data: { siteId: 'a', n: 2 } },
      { name: 'test/work', data: { siteId: 'b', n: 1 } },
      { name: 'test/work', data: { siteId: 'a', n: 3 } },
    ]);
    await runner.idle();

    const index = (entry: string) => log.indexOf(entry);
    expect(log).toHaveLength(8);
    // Different keys overlap: b1 started while a1 was still running.
    expect(index('start b1')).toBeLessThan(index('end a1'));
    // Same key never overlaps, and runs in the order sent.
    expect(index('start a2')).toBeGreaterThan(index('end a1'));
    expect(index('start a3')).toBeGreaterThan(index('end a2'));
  });

  it('caps a function without a key at its limit', async () => {
    let running = 0;
    let peak = 0;
    let finished = 0;
    const fn = createFunction(
      { id: 'concurrency-limit', concurrency: 2, triggers: [{ event: 'test/capped' }] },
      async () => {
        running += 1;
        peak = Math.max(peak, running);
        await pause(15);
        running -= 1;
        finished += 1;
      },
    );
    const runner = startRunner([fn]);
    await runner.send(Array.from({ length: 6 }, (_, n) => ({ name: 'test/capped', data: { n } })));
    await runner.idle();
    expect(finished).toBe(6);
    expect(peak).toBe(2);
  });

  it('honours two rules at once (per tenant and per run): a tenant at its limit waits, another starts', async () => {
    const running = new Map<string, number>();
    const peak = new Map<string, number>();
    const order: string[] = [];
    const active = new Set<string>();
    let overlapSameRun = false;
    const fn = createFunction(
      {
        id: 'concurrency-two-rules',
        concurrency: [
          { key: 'event.data.tenantId', limit: 2 },
          { key: 'event.data.runId', limit: 1 },
        ],
        triggers: [{ event: 'test/tenant-work' }],
      },
      async ({ event }) => {
        const { tenantId, runId } = event.data as { tenantId: string; runId: string };
        if (active.has(runId)) overlapSameRun = true;
        active.add(runId);
        order.push(`start ${runId}`);
        running.set(tenantId, (running.get(tenantId) ?? 0) + 1);
        peak.set(tenantId, Math.max(peak.get(tenantId) ?? 0, running.get(tenantId) ?? 0));
        await pause(30);
        running.set(tenantId, (running.get(tenantId) ?? 1) - 1);
        active.delete(runId);
      },
    );
    const runner = startRunner([fn]);
    await runner.send([
      ...['a1', 'a2', 'a3', 'a4', 'a1'].map((runId) => ({
        name: 'test/tenant-work',
        data: { tenantId: 'a', runId },
      })),
      { name: 'test/tenant-work', data: { tenantId: 'b', runId: 'b1' } },
    ]);
    await runner.idle();
    expect(peak.get('a')).toBe(2);
    expect(overlapSameRun).toBe(false);
    // Tenant b's run, sent last, started with a's first two, ahead of a's queued ones.
    expect(order.indexOf('start b1')).toBe(2);
  });
});

describe('idle and stop', () => {
  it('idle() waits for chained work; stop() waits for in-flight runs and then refuses events', async () => {
    const done: string[] = [];
    const slow = createFunction(
      { id: 'lifecycle-slow', triggers: [{ event: 'test/slow' }] },
      async ({ step }) => {
        await step.sleep('nap', 80);
        done.push('slow');
      },
    );
    const runner = startRunner([slow]);
    await runner.idle(); // nothing to wait for
    void runner.send({ name: 'test/slow', data: {} }); // not awaited: idle() must still see it
    await runner.idle();
    expect(done).toEqual(['slow']);

    await runner.send({ name: 'test/slow', data: {} });
    await runner.stop();
    expect(done).toEqual(['slow', 'slow']);
    await expect(runner.send({ name: 'test/slow', data: {} })).rejects.toThrow(/stopped/);
  });

  it('refuses two functions with the same id', () => {
    const a = createFunction({ id: 'lifecycle-dup', triggers: [{ event: 'test/a' }] }, async () => {});
    const b = createFunction({ id: 'lifecycle-dup', triggers: [{ event: 'test/b' }] }, async () => {});
    expect(() => new EmbeddedRunner([a, b])).toThrow(/share the id "lifecycle-dup"/);
  });
});
