import { parseUrl } from '@/lib/net/url';

/**
 * At most `maxPerHost` tasks at once against any one host, so a page full of links to one external
 * site does not hammer it (and get us rate-limited). Waiters are served first come, first served.
 */
export const DEFAULT_MAX_PER_HOST = 4;

/** The host a URL's checks count against (the URL itself when it does not parse). */
export function hostOf(url: string): string {
  return parseUrl(url)?.host ?? url;
}

interface HostSlots {
  active: number;
  waiters: (() => void)[];
}

export class HostLimiter {
  private readonly hosts = new Map<string, HostSlots>();

  constructor(readonly maxPerHost = DEFAULT_MAX_PER_HOST) {
    if (!Number.isInteger(maxPerHost) || maxPerHost < 1)
      throw new RangeError('maxPerHost must be a positive integer');
  }

  /** Runs `task` once a slot for `host` is free, and frees it however the task ends. */
  async run<T>(host: string, task: () => Promise<T>): Promise<T> {
    const release = await this.acquire(host);
    try {
      return await task();
    } finally {
      release();
    }
  }

  /** Resolves with a release function once a slot is held; calling it more than once is harmless. */
  acquire(host: string): Promise<() => void> {
    const key = host.toLowerCase();
    let slots = this.hosts.get(key);
    if (!slots) {
      slots = { active: 0, waiters: [] };
      this.hosts.set(key, slots);
    }
    const held = slots;
    const release = this.releaser(key, held);
    if (held.active < this.maxPerHost) {
      held.active++;
      return Promise.resolve(release);
    }
    return new Promise((resolve) => held.waiters.push(() => resolve(release)));
  }

  /** Tasks running against `host` now. */
  active(host: string): number {
    return this.hosts.get(host.toLowerCase())?.active ?? 0;
  }

  /** Tasks queued for `host`. */
  waiting(host: string): number {
    return this.hosts.get(host.toLowerCase())?.waiters.length ?? 0;
  }

  private releaser(key: string, slots: HostSlots): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = slots.waiters.shift();
      if (next) {
        // The slot passes straight to the next waiter: `active` is unchanged.
        next();
        return;
      }
      slots.active--;
      if (slots.active === 0) this.hosts.delete(key);
    };
  }
}
