/**
 * Time as the embedded runner sees it. Production uses the system clock; tests inject one they can
 * advance by hand, so cron firing is tested without waiting for real minute boundaries.
 */
export interface Clock {
  now(): number;
  /**
   * Calls `callback` after `delayMs`. A `background` timer (the cron tick) must not keep an
   * otherwise finished process alive; sleeps and retry delays are work in flight and do.
   */
  setTimer(callback: () => void, delayMs: number, options?: { background?: boolean }): unknown;
  clearTimer(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer: (callback, delayMs, options) => {
    const timer = setTimeout(callback, delayMs);
    if (options?.background) timer.unref?.();
    return timer;
  },
  clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
