import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Inngest, NonRetriableError } from 'inngest';
import { serve } from 'inngest/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallInfo, InngestExecutor, sleepMs } from '../support/inngest-executor';

/**
 * The local executor (tests/support/inngest-executor.ts) against the `inngest` SDK's own serve
 * handler over real HTTP, with functions made for the protocol's cases: what the hosted test
 * (tests/hosted/inngest-path.test.ts) relies on is held here in seconds, without a build.
 */

const signingKey = `signkey-test-${randomBytes(32).toString('hex')}`;
const eventKey = randomBytes(8).toString('hex');
let executor: InngestExecutor;
let server: http.Server;
let serveUrl = '';

const attemptsSeen: number[] = [];
let flaky = 0;
let inFlight = 0;
let mostInFlight = 0;
/** Called as the `hold` step starts: its call is then in flight, mid-step. */
let onHold: () => void = () => {};
const caught: string[] = [];
let alwaysRan = 0;

beforeAll(async () => {
  executor = new InngestExecutor({ signingKey, eventKey, retryDelayMs: () => 20, maxSleepMs: 50 });
  await executor.start();
  const client = new Inngest({ id: 'protocol', signingKey, eventKey, baseUrl: executor.url, isDev: false });
  const fns = [
    client.createFunction(
      { id: 'steps', retries: 2, triggers: [{ event: 'test/steps' }] },
      async ({ event, step, attempt }) => {
        const a = await step.run('first', () => (event.data as { n: number }).n + 1);
        const b = await step.run('flaky', () => {
          attemptsSeen.push(attempt);
          if (flaky-- > 0) throw new Error('not yet');
          return a * 10;
        });
        await step.sleep('nap', '10m');
        const [c, d] = await Promise.all([step.run('left', () => 'l'), step.run('right', () => 'r')]);
        await step.sendEvent('tell', { name: 'test/told', data: { b } });
        return { a, b, c, d };
      },
    ),
    client.createFunction(
      { id: 'told', triggers: [{ event: 'test/told' }] },
      async ({ event }) => event.data,
    ),
    client.createFunction(
      { id: 'failing', retries: 1, triggers: [{ event: 'test/failing' }] },
      async ({ step }) => {
        try {
          await step.run('always', () => {
            alwaysRan++;
            throw new Error('broken for good');
          });
        } catch (error) {
          caught.push((error as Error).message);
        }
        await step.run('never-retried', () => {
          throw new NonRetriableError('stop here');
        });
      },
    ),
    client.createFunction(
      {
        id: 'one-at-a-time',
        concurrency: [{ limit: 1, key: 'event.data.key' }],
        triggers: [{ event: 'test/serial' }],
      },
      async ({ step }) =>
        step.run('hold', async () => {
          onHold();
          inFlight++;
          mostInFlight = Math.max(mostInFlight, inFlight);
          await new Promise((resolve) => setTimeout(resolve, 100));
          inFlight--;
        }),
    ),
    client.createFunction(
      { id: 'top-level', retries: 1, triggers: [{ event: 'test/top' }] },
      async ({ attempt }) => {
        if (attempt === 0) throw new Error('outside any step');
        return { attempt };
      },
    ),
    client.createFunction({ id: 'ticking', triggers: [{ cron: '*/5 * * * *' }] }, async ({ event }) => ({
      name: event.name,
      ts: event.ts,
    })),
  ];
  server = http.createServer(serve({ client, functions: fns }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serveUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/inngest`;
  const put = await fetch(serveUrl, { method: 'PUT' });
  expect(put.status).toBe(200);
});

afterAll(async () => {
  await executor.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const send = async (events: { name: string; data: Record<string, unknown>; id?: string }[]) => {
  const response = await fetch(`${executor.url}/e/${eventKey}`, {
    method: 'POST',
    body: JSON.stringify(events),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { ids: string[] }).ids;
};

describe('the local Inngest executor', () => {
  it('takes the registration signed with the signing key and reads each function', () => {
    expect(executor.registrations).toEqual([{ authorized: true, functionCount: 6 }]);
    expect(executor.fn('steps')).toMatchObject({ retries: 2, events: ['test/steps'] });
    expect(executor.fn('one-at-a-time').concurrency).toEqual([{ limit: 1, key: 'event.data.key' }]);
    expect(executor.fn('ticking').crons).toEqual(['*/5 * * * *']);
  });

  it('refuses events without the event key', async () => {
    const response = await fetch(`${executor.url}/e/wrong`, { method: 'POST', body: '[]' });
    expect(response.status).toBe(401);
  });

  it('memoizes steps, retries a failed one in place, cuts sleeps, runs parallel steps and sends events', async () => {
    flaky = 1;
    attemptsSeen.length = 0;
    await send([{ name: 'test/steps', data: { n: 1 } }]);
    const run = await executor.waitForRun((r) => r.fnId === 'protocol-steps');
    expect(run.status, executor.describe(run)).toBe('completed');
    expect(run.output).toEqual({ a: 2, b: 20, c: 'l', d: 'r' });
    // The flaky step ran twice, the second time as attempt 1; every other step once.
    expect(attemptsSeen).toEqual([0, 1]);
    expect(run.stepNames).toEqual(['first', 'flaky', 'nap', 'left', 'right', 'tell']);
    const told = await executor.waitForRun((r) => r.fnId === 'protocol-told');
    expect(told.output).toEqual({ b: 20 });
  });

  it('hands a step that used its retries to the handler, and stops at a non-retriable error', async () => {
    await send([{ name: 'test/failing', data: {} }]);
    const run = await executor.waitForRun((r) => r.fnId === 'protocol-failing');
    // Run once and retried once (retries: 1); the handler, replayed on every call, catches it.
    expect(alwaysRan).toBe(2);
    expect(new Set(caught)).toEqual(new Set(['broken for good']));
    expect(run.status).toBe('failed');
    expect(run.error).toContain('stop here');
    expect(run.stepNames).toEqual(['always(failed)', 'never-retried(failed)']);
  });

  it('drops an event id seen before', async () => {
    const [first] = await send([{ name: 'test/told', data: { once: true }, id: 'same' }]);
    const [second] = await send([{ name: 'test/told', data: { once: true }, id: 'same' }]);
    expect(second).toBe(first);
    await executor.idle();
    expect(executor.runsOf('told').filter((r) => r.event.id === 'same')).toHaveLength(1);
  });

  it('holds runs beyond a concurrency limit per key', async () => {
    await send([
      { name: 'test/serial', data: { key: 'a' } },
      { name: 'test/serial', data: { key: 'a' } },
      { name: 'test/serial', data: { key: 'a' } },
    ]);
    await executor.idle();
    expect(executor.runsOf('one-at-a-time').map((r) => r.status)).toEqual([
      'completed',
      'completed',
      'completed',
    ]);
    expect(mostInFlight).toBe(1);
  });

  it('retries a call dropped mid-step', async () => {
    const holding = new Promise<void>((resolve) => {
      onHold = resolve;
    });
    const dropped = executor.interrupt(({ run }) => run.fnId === 'protocol-one-at-a-time', holding);
    await send([{ name: 'test/serial', data: { key: 'b' } }]);
    const calls = await dropped;
    expect(calls).toHaveLength(1);
    const run = await (calls[0] as CallInfo).run.done;
    expect(run.status).toBe('completed');
    expect(run.calls.map((c) => [c.attempt, c.status])).toEqual([
      [0, 'dropped'],
      [1, 206],
      [0, 200],
    ]);
  });

  it('retries a function that failed outside its steps', async () => {
    await send([{ name: 'test/top', data: {} }]);
    const run = await executor.waitForRun((r) => r.fnId === 'protocol-top-level');
    expect(run.status).toBe('completed');
    expect(run.output).toEqual({ attempt: 1 });
    expect(run.calls.map((c) => [c.attempt, c.status])).toEqual([
      [0, 500],
      [1, 200],
    ]);
  });

  it('fires a cron on demand with the scheduled time', async () => {
    const run = await executor.fireCron('ticking', 1_700_000_000_000).done;
    expect(run.output).toEqual({ name: 'inngest/scheduled.timer', ts: 1_700_000_000_000 });
  });

  it('reads the SDK sleep durations', () => {
    expect(sleepMs('10m')).toBe(600_000);
    expect(sleepMs('1h30m')).toBe(5_400_000);
    expect(sleepMs('1500ms')).toBe(1_500);
    expect(sleepMs(new Date(10_000).toISOString(), 4_000)).toBe(6_000);
    expect(() => sleepMs('soon')).toThrow('cannot read the sleep duration');
  });
});
