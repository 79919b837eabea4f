import { lt, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { apiRateSlots } from '@/lib/db/schema';

/**
 * A request budget shared by every process through Postgres: time is cut into slots, and a request
 * takes one unit of its slot with a single atomic upsert (`used + 1 ... returning used`); a full
 * slot sends the caller to wait for the next one. The CrUX API allows 150 queries a minute per
 * Google Cloud project; CRUX_PACE spends at most 20 per 10 s slot, so any 60 s (which overlaps at
 * most 7 slots) sees at most 140.
 */
export interface Pace {
  api: string;
  perSlot: number;
  slotMs: number;
}

export const CRUX_PACE: Pace = { api: 'crux', perSlot: 20, slotMs: 10_000 };

/** A caller that waited this long for a slot gives up (the job retries later). */
const MAX_WAIT_MS = 10 * 60_000;

export interface PaceClock {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

const realClock: PaceClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Takes one request of the budget, waiting for a slot with room. */
export async function takeSlot(db: Db, pace: Pace, clock: PaceClock = realClock): Promise<void> {
  const startedAt = clock.now();
  for (;;) {
    const now = clock.now();
    const slotStart = Math.floor(now / pace.slotMs) * pace.slotMs;
    const [row] = await db
      .insert(apiRateSlots)
      .values({ api: pace.api, slot_start: slotStart, used: 1 })
      .onConflictDoUpdate({
        target: [apiRateSlots.api, apiRateSlots.slot_start],
        set: { used: sql`${apiRateSlots.used} + 1` },
        setWhere: sql`${apiRateSlots.used} < ${pace.perSlot}`,
      })
      .returning({ used: apiRateSlots.used });
    if (row) return;
    if (now - startedAt > MAX_WAIT_MS) {
      throw new Error(`${pace.api}: no request slot free for ${Math.round(MAX_WAIT_MS / 60_000)} minutes`);
    }
    // Spread the waiters over the next slot's first second rather than all at its first millisecond.
    await clock.sleep(slotStart + pace.slotMs - now + Math.floor(Math.random() * 1000));
  }
}

/** Drops slots older than an hour (run by the scheduler). */
export async function pruneSlots(db: Db, now: number): Promise<void> {
  await db.delete(apiRateSlots).where(lt(apiRateSlots.slot_start, now - 3_600_000));
}
