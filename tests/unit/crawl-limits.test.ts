import { describe, expect, it } from 'vitest';
import { HostLimiter } from '@/lib/crawl/engine/host-limiter';
import { AdaptiveWindow, isBackoffSignal } from '@/lib/crawl/engine/window';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('HostLimiter', () => {
  it('runs at most maxPerHost tasks per host, first come first served', async () => {
    const limiter = new HostLimiter(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = gates.map((gate, i) =>
      limiter.run('Example.com', async () => {
        started.push(i);
        await gate.promise;
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(limiter.active('example.com')).toBe(2);
    expect(limiter.waiting('example.com')).toBe(2);

    gates[1]?.resolve();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[0]?.resolve();
    gates[2]?.resolve();
    gates[3]?.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(started).toEqual([0, 1, 2, 3]);
    expect(limiter.active('example.com')).toBe(0);
  });

  it('keeps hosts independent', async () => {
    const limiter = new HostLimiter(1);
    const gate = deferred();
    const slow = limiter.run('a.com', () => gate.promise);
    let otherRan = false;
    await limiter.run('b.com', async () => {
      otherRan = true;
    });
    expect(otherRan).toBe(true);
    expect(limiter.waiting('a.com')).toBe(0);
    gate.resolve();
    await slow;
  });

  it('frees the slot when a task fails, and ignores a double release', async () => {
    const limiter = new HostLimiter(1);
    await expect(limiter.run('a.com', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const release = await limiter.acquire('a.com');
    release();
    release();
    expect(limiter.active('a.com')).toBe(0);
    const again = await limiter.acquire('a.com');
    expect(limiter.active('a.com')).toBe(1);
    again();
  });

  it('rejects a nonsensical limit', () => {
    expect(() => new HostLimiter(0)).toThrow(RangeError);
  });
});

describe('AdaptiveWindow', () => {
  it('starts at the minimum and doubles per window while healthy (slow start), up to max', () => {
    const window = new AdaptiveWindow({ max: 100 });
    expect(window.current).toBe(2);
    for (let i = 0; i < 2; i++) window.onSuccess();
    expect(window.current).toBe(4);
    for (let i = 0; i < 4; i++) window.onSuccess();
    expect(window.current).toBe(8);
    for (let i = 0; i < 500; i++) window.onSuccess();
    expect(window.current).toBe(100);
  });

  it('halves on backoff, once per window of in-flight responses, never below min', () => {
    const window = new AdaptiveWindow({ max: 200, initial: 64 });
    window.onBackoff();
    expect(window.current).toBe(32);
    // The other 63 requests that were in flight report the same overload.
    for (let i = 0; i < 63; i++) window.onBackoff();
    expect(window.current).toBe(32);
    window.onBackoff();
    expect(window.current).toBe(16);
    for (let round = 0; round < 10; round++) {
      for (let i = 0; i < 64; i++) window.onBackoff();
    }
    expect(window.current).toBe(2);
  });

  it('grows additively after the first backoff', () => {
    const window = new AdaptiveWindow({ max: 100, initial: 20 });
    window.onBackoff();
    expect(window.current).toBe(10);
    for (let i = 0; i < 9; i++) window.onSuccess();
    expect(window.current).toBe(10);
    window.onSuccess();
    expect(window.current).toBe(11);
    for (let i = 0; i < 11; i++) window.onSuccess();
    expect(window.current).toBe(12);
  });

  it('respects its bounds', () => {
    expect(new AdaptiveWindow({ max: 5, initial: 50 }).current).toBe(5);
    expect(new AdaptiveWindow({ max: 5, min: 3 }).current).toBe(3);
    expect(() => new AdaptiveWindow({ max: 1, min: 2 })).toThrow(RangeError);
  });

  it('recognises overload signals', () => {
    expect(isBackoffSignal({ status: 429 })).toBe(true);
    expect(isBackoffSignal({ status: 503 })).toBe(true);
    expect(isBackoffSignal({ errorCode: 'timeout' })).toBe(true);
    expect(isBackoffSignal({ status: 500 })).toBe(false);
    expect(isBackoffSignal({ errorCode: 'refused' })).toBe(false);
  });
});
