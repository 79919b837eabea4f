import { InngestTestEngine } from '@inngest/test';
import { describe, expect, it } from 'vitest';
import { crawlContinue } from '@/jobs/events';
import { createFunction } from '@/jobs/runtime/definition';
import { EmbeddedRunner, type RunOutcome } from '@/jobs/runtime/embedded';

/**
 * One definition, run by Inngest's own execution engine (through @inngest/test, which drives the
 * SDK's step protocol in-process) and by the embedded runner: both must produce the same result.
 */
const batches = createFunction(
  { id: 'engine-parity', concurrency: { limit: 1, key: 'event.data.runId' }, triggers: [crawlContinue] },
  async ({ event, step }) => {
    const worked: number[] = [];
    for (let batch = 0; batch < 3; batch++) {
      worked.push(await step.run('work-batch', () => (batch + 1) * 10));
    }
    const summary = await step.run('summarise', () => ({
      runId: event.data.runId,
      pages: worked.reduce((a, b) => a + b, 0),
    }));
    return { worked, summary };
  },
);

const event = { name: 'crawl/continue', data: { runId: 'run-7', tenantId: 'tenant-7' } };
const expected = { worked: [10, 20, 30], summary: { runId: 'run-7', pages: 60 } };

describe('a function definition under @inngest/test and the embedded runner', () => {
  it('runs to completion in InngestTestEngine', async () => {
    const engine = new InngestTestEngine({ function: batches, events: [event] });
    const { result, ctx } = await engine.execute();
    expect(result).toEqual(expected);
    expect(ctx.step.run).toHaveBeenCalledWith('summarise', expect.any(Function));
  });

  it('lets InngestTestEngine mock a step', async () => {
    const engine = new InngestTestEngine({ function: batches, events: [event] });
    const { result } = await engine.execute({
      steps: [{ id: 'summarise', handler: () => ({ runId: 'mocked', pages: 0 }) }],
    });
    expect(result).toEqual({ worked: [10, 20, 30], summary: { runId: 'mocked', pages: 0 } });
  });

  it('gives the same result in the embedded runner', async () => {
    const outcomes: RunOutcome[] = [];
    const runner = new EmbeddedRunner([batches], {
      logger: { info() {}, warn() {}, error() {}, debug() {} },
      onRunFinished: (outcome) => outcomes.push(outcome),
    });
    runner.start();
    await runner.send(event);
    await runner.stop();
    expect(outcomes).toEqual([
      expect.objectContaining({ functionId: 'engine-parity', status: 'completed', result: expected }),
    ]);
  });
});
