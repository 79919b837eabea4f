import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '@/jobs/runtime/clock';
import { createFunction } from '@/jobs/runtime/definition';
import { CRON_EVENT, EmbeddedRunner } from '@/jobs/runtime/embedded';

/** A clock that only moves when told, firing due timers in order. */
class ManualClock implements Clock {
  private timers: { at: number; callback: () => void; handle: number }[] = [];
  private nextHandle = 1;
  constructor(private time: number) {}
  now() {
    return this.time;
  }
  setTimer(callback: () => void, delayMs: number) {
    const handle = this.nextHandle++;
    this.timers.push({ at: this.time + delayMs, callback, handle });
    return handle;
  }
  clearTimer(handle: unknown) {
    this.timers = this.timers.filter((t) => t.handle !== handle);
  }
  get pendingTimers() {
    return this.timers.length;
  }
  advanceTo(iso: string) {
    const target = Date.parse(iso);
    for (;;) {
      const due = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = due.at;
      due.callback();
    }
    this.time = target;
  }
}

const quiet = { info() {}, warn() {}, error() {}, debug() {} };

describe('embedded cron scheduling', () => {
  let runner: EmbeddedRunner | undefined;
  afterEach(async () => {
    await runner?.stop();
    runner = undefined;
  });

  it('fires functions at minute boundaries that match their schedule, once per minute', async () => {
    const fired: { fn: string; name: string; cron: unknown; ts: number }[] = [];
    const everyFive = createFunction(
      { id: 'cron-test-every-five', triggers: [{ cron: '*/5 * * * *' }] },
      async ({ event }) => {
        fired.push({
          fn: 'five',
          name: event.name,
          cron: 'cron' in event.data ? event.data.cron : undefined,
          ts: event.ts ?? 0,
        });
      },
    );
    const mondayEleven = createFunction(
      { id: 'cron-test-monday', triggers: { cron: '0 11 * * MON' } },
      async ({ event }) => {
        fired.push({
          fn: 'monday',
          name: event.name,
          cron: 'cron' in event.data ? event.data.cron : undefined,
          ts: event.ts ?? 0,
        });
      },
    );

    // Monday 2025-01-06, half a minute past 10:00: the 10:00 slot has already begun, so it is not due.
    const clock = new ManualClock(Date.parse('2025-01-06T10:00:30Z'));
    runner = new EmbeddedRunner([everyFive, mondayEleven], { clock, logger: quiet });
    runner.start();

    clock.advanceTo('2025-01-06T10:04:59Z');
    await runner.idle();
    expect(fired).toEqual([]);

    clock.advanceTo('2025-01-06T10:05:00Z');
    await runner.idle();
    expect(fired).toEqual([
      { fn: 'five', name: CRON_EVENT, cron: '*/5 * * * *', ts: Date.parse('2025-01-06T10:05:00Z') },
    ]);

    clock.advanceTo('2025-01-06T11:00:00Z');
    await runner.idle();
    const fns = fired.map((f) => `${f.fn}@${new Date(f.ts).toISOString().slice(11, 16)}`);
    expect(fns).toEqual([
      'five@10:05',
      'five@10:10',
      'five@10:15',
      'five@10:20',
      'five@10:25',
      'five@10:30',
      'five@10:35',
      'five@10:40',
      'five@10:45',
      'five@10:50',
      'five@10:55',
      'five@11:00',
      'monday@11:00',
    ]);
  });

  it('stop() clears the scheduler timer', async () => {
    const fn = createFunction({ id: 'cron-test-stop', triggers: [{ cron: '* * * * *' }] }, async () => {});
    const clock = new ManualClock(Date.parse('2025-01-06T10:00:00Z'));
    const local = new EmbeddedRunner([fn], { clock, logger: quiet });
    local.start();
    expect(clock.pendingTimers).toBe(1);
    await local.stop();
    expect(clock.pendingTimers).toBe(0);
  });
});
