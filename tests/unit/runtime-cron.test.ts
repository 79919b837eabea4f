import { afterEach, describe, expect, it } from 'vitest';
import { inngest } from '@/jobs/client';
import type { Clock } from '@/jobs/runtime/clock';
import { parseCron } from '@/jobs/runtime/cron';
import { CRON_EVENT, EmbeddedRunner } from '@/jobs/runtime/embedded';

const at = (iso: string) => new Date(iso);

describe('parseCron', () => {
  it('matches every minute with * * * * *', () => {
    const every = parseCron('* * * * *');
    expect(every.matches(at('2025-03-04T00:00:00Z'))).toBe(true);
    expect(every.matches(at('2025-03-04T17:43:59Z'))).toBe(true);
  });

  it('handles steps, ranges, lists and stepped ranges', () => {
    const fives = parseCron('*/5 * * * *');
    expect(fives.matches(at('2025-03-04T10:05:00Z'))).toBe(true);
    expect(fives.matches(at('2025-03-04T10:07:00Z'))).toBe(false);

    const office = parseCron('0 9-17 * * 1-5');
    expect(office.matches(at('2025-03-04T09:00:00Z'))).toBe(true); // Tuesday
    expect(office.matches(at('2025-03-04T18:00:00Z'))).toBe(false);
    expect(office.matches(at('2025-03-08T09:00:00Z'))).toBe(false); // Saturday

    const list = parseCron('1,15,30 * * * *');
    expect([0, 1, 14, 15, 30, 31].map((m) => list.matches(new Date(Date.UTC(2025, 0, 1, 3, m))))).toEqual([
      false,
      true,
      false,
      true,
      true,
      false,
    ]);

    const steppedRange = parseCron('10-40/10 * * * *');
    expect(
      [10, 20, 30, 40, 50].map((m) => steppedRange.matches(new Date(Date.UTC(2025, 0, 1, 3, m)))),
    ).toEqual([true, true, true, true, false]);

    const fromEvery = parseCron('7/15 * * * *');
    expect([7, 22, 37, 52, 0].map((m) => fromEvery.matches(new Date(Date.UTC(2025, 0, 1, 3, m))))).toEqual([
      true,
      true,
      true,
      true,
      false,
    ]);
  });

  it('reads month and weekday names and treats weekday 7 as Sunday', () => {
    const janMondays = parseCron('30 6 * jan MON');
    expect(janMondays.matches(at('2025-01-06T06:30:00Z'))).toBe(true);
    expect(janMondays.matches(at('2025-02-03T06:30:00Z'))).toBe(false);
    const sundays = parseCron('0 0 * * 7');
    expect(sundays.matches(at('2025-01-05T00:00:00Z'))).toBe(true);
  });

  it('ORs day-of-month and day-of-week when both are restricted', () => {
    const firstOrFriday = parseCron('0 12 1 * 5');
    expect(firstOrFriday.matches(at('2025-01-01T12:00:00Z'))).toBe(true); // the 1st, a Wednesday
    expect(firstOrFriday.matches(at('2025-01-03T12:00:00Z'))).toBe(true); // a Friday
    expect(firstOrFriday.matches(at('2025-01-02T12:00:00Z'))).toBe(false);
  });

  it('expands macros', () => {
    expect(parseCron('@hourly').matches(at('2025-01-02T05:00:00Z'))).toBe(true);
    expect(parseCron('@hourly').matches(at('2025-01-02T05:01:00Z'))).toBe(false);
    expect(parseCron('@daily').matches(at('2025-01-02T00:00:00Z'))).toBe(true);
  });

  it('evaluates a TZ= prefix in that zone, UTC otherwise', () => {
    const paris9 = parseCron('TZ=Europe/Paris 0 9 * * *');
    expect(paris9.timezone).toBe('Europe/Paris');
    expect(paris9.matches(at('2025-01-15T08:00:00Z'))).toBe(true); // CET, UTC+1
    expect(paris9.matches(at('2025-07-15T07:00:00Z'))).toBe(true); // CEST, UTC+2
    expect(paris9.matches(at('2025-07-15T08:00:00Z'))).toBe(false);
    expect(parseCron('0 9 * * *').matches(at('2025-01-15T09:00:00Z'))).toBe(true);
  });

  it('rejects malformed expressions with the expression in the message', () => {
    expect(() => parseCron('* * * *')).toThrow(/"\* \* \* \*".*5 fields/);
    expect(() => parseCron('60 * * * *')).toThrow(/minute value "60"/);
    expect(() => parseCron('*/0 * * * *')).toThrow(/bad step/);
    expect(() => parseCron('5-1 * * * *')).toThrow(/backwards/);
    expect(() => parseCron('TZ=Not/AZone * * * * *')).toThrow(/Not\/AZone/);
  });
});

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
    const everyFive = inngest.createFunction(
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
    const mondayEleven = inngest.createFunction(
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
    const fn = inngest.createFunction(
      { id: 'cron-test-stop', triggers: [{ cron: '* * * * *' }] },
      async () => {},
    );
    const clock = new ManualClock(Date.parse('2025-01-06T10:00:00Z'));
    const local = new EmbeddedRunner([fn], { clock, logger: quiet });
    local.start();
    expect(clock.pendingTimers).toBe(1);
    await local.stop();
    expect(clock.pendingTimers).toBe(0);
  });
});
