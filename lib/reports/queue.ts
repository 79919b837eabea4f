import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, sql } from 'drizzle-orm';
import { config } from '@/lib/config';
import type { Db } from '@/lib/db/client';
import { queryRows } from '@/lib/db/rows';
import { reportPrints } from '@/lib/db/schema';
import { BusyError } from '@/lib/errors';

/**
 * The server-wide print queue of monthly reports (issue 23 item 6). A print is a Chromium launch and
 * one to five seconds of CPU, and any organization can ask for one per site and month, so prints are
 * bounded for the whole service, not per process: the queue is `report_prints`, read and written
 * under one advisory lock, so every server process and hosted function instance shares it.
 *
 * - At most `REPORT_PRINTS_MAX` rows are `printing` at once, and at most one per organization, so
 *   one organization never holds more than one of the slots.
 * - At most `REPORT_PRINT_QUEUE_MAX` rows are `waiting`; a request that finds it full is turned
 *   away at once (BusyError, 429 with Retry-After), as is an organization's request beyond
 *   `PRINTS_PER_ORGANIZATION` rows of its own (printing or waiting): one organization cannot fill
 *   the queue either.
 * - A free slot goes to the oldest waiting request among the organizations not printing: every
 *   organization waiting gets a turn before any organization gets its second.
 * - A waiting request renews its row as it polls; one that waited `PRINT_WAIT_MS` without a turn
 *   leaves and is 429. A row whose process died stops being renewed and runs out (`until`): after
 *   `WAIT_LEASE_MS` for a waiting row, `PRINT_LEASE_MS` for a printing one.
 */

/** An organization's rows at most, printing or waiting. */
export const PRINTS_PER_ORGANIZATION = 2;
/** How long a request waits for its turn before it is turned away. */
export const PRINT_WAIT_MS = 15_000;
/** What a turned-away request is told to wait: about two prints. */
export const PRINT_RETRY_AFTER_MS = 5_000;
/** A print longer than this has died with its process; its slot is free again. */
export const PRINT_LEASE_MS = 60_000;
/** A waiting row not renewed for this long belongs to a process that died. */
export const WAIT_LEASE_MS = 10_000;
const POLL_MS = 250;
/** Serialises the queue's reads and writes across processes (any constant unique among the app's locks). */
const PRINT_QUEUE_LOCK = 0x5717_0003;

type Turn = 'printing' | 'waiting';

/**
 * One look at the queue for request `id` of `tenantId`: joins it when `queuedAt` is new (or its row
 * ran out while the process stalled), else renews its row, and takes a slot when its turn has come.
 * Throws BusyError when a new request finds no place.
 */
async function look(db: Db, tenantId: string, id: string, queuedAt: number, joining: boolean): Promise<Turn> {
  const { REPORT_PRINTS_MAX, REPORT_PRINT_QUEUE_MAX } = config();
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${PRINT_QUEUE_LOCK}::bigint)`);
    const now = Date.now();
    await tx.delete(reportPrints).where(sql`${reportPrints.until} < ${now}`);
    if (joining) {
      const [counts] = await queryRows<{ waiting: number; mine: number }>(
        tx,
        sql`select count(*) filter (where state = 'waiting')::int as waiting,
                   count(*) filter (where tenant_id = ${tenantId})::int as mine
            from report_prints`,
      );
      if (counts!.mine >= PRINTS_PER_ORGANIZATION) {
        throw new BusyError(
          `this organization already has ${counts!.mine} monthly reports printing or waiting to print; try again in a few seconds`,
          PRINT_RETRY_AFTER_MS,
        );
      }
      if (counts!.waiting >= REPORT_PRINT_QUEUE_MAX) {
        throw new BusyError(
          `the monthly report print queue is full (${counts!.waiting} reports waiting); try again in a few seconds`,
          PRINT_RETRY_AFTER_MS,
        );
      }
    }
    await tx
      .insert(reportPrints)
      .values({ id, tenant_id: tenantId, state: 'waiting', queued_at: queuedAt, until: now + WAIT_LEASE_MS })
      .onConflictDoUpdate({ target: reportPrints.id, set: { until: now + WAIT_LEASE_MS } });
    const [turn] = await queryRows<{ turn: number; printing: number }>(
      tx,
      sql`with printing as (select tenant_id from report_prints where state = 'printing'),
          heads as (
            select distinct on (tenant_id) id, queued_at from report_prints
            where state = 'waiting' and tenant_id not in (select tenant_id from printing)
            order by tenant_id, queued_at, id
          ),
          ranked as (select id, row_number() over (order by queued_at, id)::int as turn from heads)
          select turn, (select count(*) from printing)::int as printing from ranked where id = ${id}`,
    );
    if (!turn || turn.turn + turn.printing > REPORT_PRINTS_MAX) return 'waiting';
    await tx
      .update(reportPrints)
      .set({ state: 'printing', until: now + PRINT_LEASE_MS })
      .where(eq(reportPrints.id, id));
    return 'printing';
  });
}

async function leave(db: Db, tenantId: string, id: string): Promise<void> {
  await db.delete(reportPrints).where(and(eq(reportPrints.tenant_id, tenantId), eq(reportPrints.id, id)));
}

/**
 * Runs `print` for `tenantId` in its turn of the queue. While it waits, `ready` is asked first on
 * every look: a result that appeared meanwhile (the same report printed by another request of the
 * organization) is answered without printing, and the request leaves the queue.
 */
export async function printInTurn<T>(
  db: Db,
  tenantId: string,
  work: { print: () => Promise<T>; ready: () => Promise<T | null> },
): Promise<T> {
  const id = crypto.randomUUID();
  const queuedAt = Date.now();
  const giveUpAt = queuedAt + PRINT_WAIT_MS;
  let joining = true;
  try {
    for (;;) {
      if (!joining) {
        const ready = await work.ready();
        if (ready !== null) return ready;
      }
      const turn = await look(db, tenantId, id, queuedAt, joining);
      joining = false;
      if (turn === 'printing') return await work.print();
      if (Date.now() >= giveUpAt) {
        throw new BusyError(
          `no turn to print came within ${PRINT_WAIT_MS / 1000} s (the monthly report print queue is busy); try again in a few seconds`,
          PRINT_RETRY_AFTER_MS,
        );
      }
      await sleep(POLL_MS);
    }
  } finally {
    if (!joining) await leave(db, tenantId, id);
  }
}
