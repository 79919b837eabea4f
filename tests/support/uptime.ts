import { asc, eq } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { notificationOutbox, uptimeIncidents, uptimeMonitors } from '@/lib/db/schema';

/** The monitor's stored row (it must exist). */
export const monitorRow = async (db: Db, id: string) =>
  (await db.select().from(uptimeMonitors).where(eq(uptimeMonitors.id, id)))[0]!;

/** The monitor's incidents, oldest first. */
export const incidentsOf = (db: Db, id: string) =>
  db
    .select()
    .from(uptimeIncidents)
    .where(eq(uptimeIncidents.monitor_id, id))
    .orderBy(asc(uptimeIncidents.down_at));

/** The outbox's notifications about the monitor, oldest first. */
export const outboxOf = async (db: Db, id: string) =>
  (await db.select().from(notificationOutbox).orderBy(asc(notificationOutbox.created_at))).filter(
    (n) => (n.payload as { monitorId?: string }).monitorId === id,
  );
