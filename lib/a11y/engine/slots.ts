/**
 * The render slots of one browser: how many pages render in it at once, whatever the number of
 * passes, and which tenant's page goes next.
 *
 * Why a bound per browser and not only per pass: each pass renders up to `DEFAULT_RENDER_CONCURRENCY`
 * pages at once, and the embedded runner runs one pass per tenant at once (RENDER_PASSES_PER_TENANT),
 * so 20 tenants' passes put 80 pages in one Chromium on two cores. Measured (npm run bench:tenants,
 * and 19 passes of 10 pages started together on the development machine): most pages then ran out
 * of their time limit before their context even opened ("the browser did not open a page within
 * 30 s") or while axe ran, all calm, and a hostile page's endless loop beside them tipped the rest.
 * Pages beyond the slots wait their turn off the clock instead (the page's time limit starts once it
 * has a slot), so each page gets the browser it was sized for.
 *
 * Which page next: the waiting tenant that holds the fewest slots, the longest waiting among equals
 * (max-min fairness). A tenant alone uses every slot; once another tenant waits, the next slot freed
 * is theirs, so a tenant's pages, however many or however hostile, hold at most the slots it had and
 * each for at most one page's time limit, while every other tenant keeps its share.
 *
 * One per browser holder (per worker process: its browser is per process too); hosted, each function
 * instance has its own browser and its own slots.
 */

/** Pages rendering at once in one browser, across passes: the pass's own default, on two cores. */
export const RENDER_SLOTS_PER_BROWSER = 4;

interface Waiter {
  tenant: string;
  grant: (release: () => void) => void;
}

export class RenderSlots {
  private readonly held = new Map<string, number>();
  private readonly waiting: Waiter[] = [];
  private inUse = 0;

  constructor(readonly size: number = RENDER_SLOTS_PER_BROWSER) {}

  /** Resolves with the slot's release once `tenant` may render one page. */
  acquire(tenant: string): Promise<() => void> {
    return new Promise((grant) => {
      this.waiting.push({ tenant, grant });
      this.dispatch();
    });
  }

  /** Slots in use by `tenant` (tests and figures). */
  heldBy(tenant: string): number {
    return this.held.get(tenant) ?? 0;
  }

  private dispatch(): void {
    while (this.inUse < this.size && this.waiting.length > 0) {
      // Fewest slots held first, then the oldest request (`waiting` is in request order).
      let best = 0;
      for (let i = 1; i < this.waiting.length; i++) {
        if (
          this.heldBy((this.waiting[i] as Waiter).tenant) < this.heldBy((this.waiting[best] as Waiter).tenant)
        )
          best = i;
      }
      const [waiter] = this.waiting.splice(best, 1) as [Waiter];
      this.inUse += 1;
      this.held.set(waiter.tenant, this.heldBy(waiter.tenant) + 1);
      let released = false;
      waiter.grant(() => {
        if (released) return;
        released = true;
        this.inUse -= 1;
        const left = this.heldBy(waiter.tenant) - 1;
        if (left > 0) this.held.set(waiter.tenant, left);
        else this.held.delete(waiter.tenant);
        this.dispatch();
      });
    }
  }
}

const slots = new WeakMap<object, RenderSlots>();

/** The render slots of a worker's browser holder. */
export function renderSlotsOf(browsers: object): RenderSlots {
  let found = slots.get(browsers);
  if (!found) {
    found = new RenderSlots();
    slots.set(browsers, found);
  }
  return found;
}
