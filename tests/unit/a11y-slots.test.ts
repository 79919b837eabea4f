import { describe, expect, it } from 'vitest';
import { RenderSlots } from '@/lib/a11y/engine/slots';

/** Grants in the order they happen: [tenant, release]. */
function recorder(slots: RenderSlots) {
  const granted: [string, () => void][] = [];
  const ask = (tenant: string) =>
    void slots.acquire(tenant).then((release) => granted.push([tenant, release]));
  return { granted, ask };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('render slots (lib/a11y/engine/slots.ts)', () => {
  it('lets a tenant alone use every slot, and gives the next freed slot to a tenant that holds none', async () => {
    const slots = new RenderSlots(4);
    const { granted, ask } = recorder(slots);
    for (let i = 0; i < 8; i++) ask('hostile');
    await tick();
    expect(granted.map(([t]) => t)).toEqual(['hostile', 'hostile', 'hostile', 'hostile']);

    // A calm tenant arrives after the hostile one queued four more pages: it goes first.
    ask('calm');
    ask('calm');
    await tick();
    granted[0]?.[1]();
    await tick();
    expect(granted.map(([t]) => t).slice(4)).toEqual(['calm']);
    expect(slots.heldBy('hostile')).toBe(3);

    // Next freed: the calm tenant holds 1, the hostile 2 (after one more release), so calm again.
    granted[1]?.[1]();
    await tick();
    expect(granted.map(([t]) => t).slice(5)).toEqual(['calm']);
    expect(slots.heldBy('calm')).toBe(2);
    expect(slots.heldBy('hostile')).toBe(2);
  });

  it('shares the slots evenly between tenants that keep them busy, whatever each has queued', async () => {
    const slots = new RenderSlots(4);
    const { granted, ask } = recorder(slots);
    for (let i = 0; i < 20; i++) ask('a');
    for (let i = 0; i < 3; i++) ask('b');
    ask('c');
    await tick();
    // The first four went to `a`, before the others asked.
    let released = 0;
    while (released < 6) {
      granted[released]?.[1]();
      released += 1;
      await tick();
    }
    // Each freed slot goes to a tenant holding the fewest, the earliest request among equals:
    // b and c first (none held), then a (1 each, a asked first) twice, then b twice (its own and
    // c's freed slot: b holds fewer than a).
    const after = granted.slice(4).map(([t]) => t);
    expect(after).toEqual(['b', 'c', 'a', 'a', 'b', 'b']);
    expect([slots.heldBy('a'), slots.heldBy('b'), slots.heldBy('c')]).toEqual([2, 2, 0]);
    // A release twice frees one slot only.
    granted[0]?.[1]();
    await tick();
    expect(granted).toHaveLength(10);
  });
});
