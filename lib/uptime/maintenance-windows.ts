import { and, asc, count, desc, eq, gt, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { Principal } from '@/lib/auth/principal';
import type { Db } from '@/lib/db/client';
import { decodeCursor, encodeCursor } from '@/lib/db/cursor';
import {
  type MaintenanceWindow,
  maintenanceWindowMonitors,
  maintenanceWindows,
  type Site,
  uptimeMonitors,
} from '@/lib/db/schema';
import { ConflictError, InvalidError, NotFoundError } from '@/lib/errors';
import { announceWindow } from '@/lib/notify/subscribers';
import { getVisibleSite } from '@/lib/sites/access';
import {
  MAX_OPEN_WINDOWS,
  MAX_WINDOW_LEAD_MS,
  MAX_WINDOW_MS,
  MAX_WINDOWS_LIST,
  WINDOW_START_GRACE_MS,
} from './limits';
import { windowMonitorIds } from './maintenance';

/*
 * A site's maintenance windows (issue 26 item 3): POST, GET (list, one), PATCH, DELETE under
 * /v1/sites/{id}/maintenance-windows. What a window does to rounds and uptime is ./maintenance.ts.
 *
 * Time rules, since a window takes time out of the uptime figures: a window cannot begin in the
 * past (a start up to WINDOW_START_GRACE_MS ago starts now), so it never excuses downtime already
 * measured; it ends after it starts, within MAX_WINDOW_MS, and begins within MAX_WINDOW_LEAD_MS.
 * Once begun, its start is fixed and only its end moves (to now at the earliest: "end it now");
 * once over, it is history and can only be deleted.
 */

export const WINDOW_NOT_FOUND = 'maintenance window not found';

export type WindowState = 'upcoming' | 'active' | 'past';

export interface MaintenanceWindowInput {
  title: string;
  /** Epoch milliseconds. */
  startsAt: number;
  endsAt: number;
  /** The monitors it covers, of the window's site; omitted: every monitor of the site, later ones too. */
  monitorIds?: string[] | undefined;
}
export type MaintenanceWindowEdit = Partial<MaintenanceWindowInput>;

export function windowState(w: Pick<MaintenanceWindow, 'starts_at' | 'ends_at'>, now: number): WindowState {
  if (w.ends_at <= now) return 'past';
  return w.starts_at <= now ? 'active' : 'upcoming';
}

/** Spec: MaintenanceWindow (lib/api/schemas/maintenance.ts proves the shapes equal). */
export function maintenanceWindowView(w: MaintenanceWindow, monitorIds: string[], now: number) {
  return {
    id: w.id,
    siteId: w.site_id,
    title: w.title,
    startsAt: w.starts_at,
    endsAt: w.ends_at,
    state: windowState(w, now),
    allMonitors: w.all_monitors === 1,
    monitorIds,
    createdAt: w.created_at,
    updatedAt: w.updated_at,
  };
}
export type MaintenanceWindowView = ReturnType<typeof maintenanceWindowView>;

/** The listed ids as stored (lowercase), each a monitor of `site`; any other is 404 naming it. */
async function monitorsOfSite(db: Db, site: Site, ids: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
  const rows = await db
    .select({ id: uptimeMonitors.id })
    .from(uptimeMonitors)
    .where(
      and(
        eq(uptimeMonitors.tenant_id, site.tenant_id),
        eq(uptimeMonitors.site_id, site.id),
        inArray(uptimeMonitors.id, wanted),
      ),
    );
  const found = new Set(rows.map((r) => r.id));
  const missing = wanted.find((id) => !found.has(id));
  if (missing) throw new NotFoundError(`monitor not found: ${missing} is not a monitor of this site`);
  return wanted;
}

/** Each window's covered monitors: its list, or every monitor of the site now (oldest first). */
async function coveredMonitorIds(
  db: Db,
  site: Site,
  windows: readonly MaintenanceWindow[],
): Promise<Map<string, string[]>> {
  const byWindow = new Map<string, string[]>(windows.map((w) => [w.id, []]));
  const listed = windows.filter((w) => w.all_monitors === 0).map((w) => w.id);
  if (listed.length > 0) {
    const rows = await db
      .select({ window: maintenanceWindowMonitors.window_id, monitor: maintenanceWindowMonitors.monitor_id })
      .from(maintenanceWindowMonitors)
      .innerJoin(uptimeMonitors, eq(uptimeMonitors.id, maintenanceWindowMonitors.monitor_id))
      .where(
        and(
          eq(maintenanceWindowMonitors.tenant_id, site.tenant_id),
          inArray(maintenanceWindowMonitors.window_id, listed),
        ),
      )
      .orderBy(asc(uptimeMonitors.created_at), asc(uptimeMonitors.id));
    for (const row of rows) byWindow.get(row.window)?.push(row.monitor);
  }
  if (windows.some((w) => w.all_monitors === 1)) {
    const all = (
      await db
        .select({ id: uptimeMonitors.id })
        .from(uptimeMonitors)
        .where(and(eq(uptimeMonitors.tenant_id, site.tenant_id), eq(uptimeMonitors.site_id, site.id)))
        .orderBy(asc(uptimeMonitors.created_at), asc(uptimeMonitors.id))
    ).map((r) => r.id);
    for (const w of windows) if (w.all_monitors === 1) byWindow.set(w.id, [...all]);
  }
  return byWindow;
}

async function viewsOf(db: Db, site: Site, windows: MaintenanceWindow[], now: number) {
  const monitors = await coveredMonitorIds(db, site, windows);
  return windows.map((w) => maintenanceWindowView(w, monitors.get(w.id) ?? [], now));
}

/**
 * The window's times after the rules above: `before` is the stored window when editing. A start
 * within the grace starts now, and an active window's end within it ends now.
 */
function checkedTimes(
  startsAt: number,
  endsAt: number,
  now: number,
  before?: MaintenanceWindow,
): { startsAt: number; endsAt: number } {
  const begun = before !== undefined && before.starts_at <= now;
  let start = startsAt;
  if (begun) {
    if (startsAt !== before.starts_at)
      throw new InvalidError('startsAt', 'cannot change once the window has begun; change endsAt to end it');
  } else {
    if (startsAt < now - WINDOW_START_GRACE_MS)
      throw new InvalidError(
        'startsAt',
        'must not be in the past: a window cannot excuse downtime already measured',
      );
    if (startsAt > now + MAX_WINDOW_LEAD_MS)
      throw new InvalidError('startsAt', 'must be within a year from now');
    start = Math.max(startsAt, now);
  }
  let end = endsAt;
  if (begun) {
    if (endsAt < now - WINDOW_START_GRACE_MS)
      throw new InvalidError(
        'endsAt',
        'must not be in the past: to end the window now, send the current time',
      );
    end = Math.max(endsAt, now);
  }
  if (end <= start) throw new InvalidError('endsAt', 'must be after startsAt');
  if (end - start > MAX_WINDOW_MS)
    throw new InvalidError(
      'endsAt',
      'must be at most 7 days after startsAt (pause the monitor for longer work)',
    );
  return { startsAt: start, endsAt: end };
}

async function replaceMonitors(db: Db, window: MaintenanceWindow, monitorIds: readonly string[]) {
  await db.delete(maintenanceWindowMonitors).where(eq(maintenanceWindowMonitors.window_id, window.id));
  if (monitorIds.length === 0) return;
  await db.insert(maintenanceWindowMonitors).values(
    monitorIds.map((monitorId) => ({
      window_id: window.id,
      monitor_id: monitorId,
      tenant_id: window.tenant_id,
    })),
  );
}

// Advisory lock namespace for "maintenance windows of one site" (the open-window cap under concurrent creations).
const WINDOW_LOCK = 7_419_103;

/** POST /v1/sites/{id}/maintenance-windows (the route requires 'manage'). */
export async function createMaintenanceWindow(
  db: Db,
  principal: Principal,
  siteId: string,
  input: MaintenanceWindowInput,
  now = Date.now(),
): Promise<MaintenanceWindowView> {
  const site = await getVisibleSite(db, principal, siteId);
  const times = checkedTimes(input.startsAt, input.endsAt, now);
  const monitorIds = input.monitorIds ? await monitorsOfSite(db, site, input.monitorIds) : null;
  const window = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${WINDOW_LOCK}, hashtext(${site.id}))`);
    const [open] = await tx
      .select({ n: count() })
      .from(maintenanceWindows)
      .where(
        and(
          eq(maintenanceWindows.tenant_id, site.tenant_id),
          eq(maintenanceWindows.site_id, site.id),
          gt(maintenanceWindows.ends_at, now),
        ),
      );
    if ((open?.n ?? 0) >= MAX_OPEN_WINDOWS)
      throw new ConflictError(
        `the site has ${MAX_OPEN_WINDOWS} maintenance windows scheduled or under way already; delete one first`,
      );
    const [inserted] = await tx
      .insert(maintenanceWindows)
      .values({
        tenant_id: site.tenant_id,
        site_id: site.id,
        title: input.title,
        starts_at: times.startsAt,
        ends_at: times.endsAt,
        all_monitors: monitorIds ? 0 : 1,
        created_at: now,
        updated_at: now,
      })
      .returning();
    if (!inserted) throw new Error('maintenance window insert returned no row');
    if (monitorIds) await replaceMonitors(tx, inserted, monitorIds);
    // Announced to the subscribers of the status pages listing a covered monitor, queued with it.
    await announce(tx, inserted, inserted.starts_at <= now ? 'started' : 'scheduled', now);
    return inserted;
  });
  const [view] = await viewsOf(db, site, [window], now);
  return view!;
}

async function findWindow(
  db: Db,
  principal: Principal,
  siteId: string,
  windowId: string,
): Promise<{ site: Site; window: MaintenanceWindow }> {
  const site = await getVisibleSite(db, principal, siteId);
  const [window] = await db
    .select()
    .from(maintenanceWindows)
    .where(
      and(
        eq(maintenanceWindows.tenant_id, site.tenant_id),
        eq(maintenanceWindows.site_id, site.id),
        eq(maintenanceWindows.id, windowId),
      ),
    );
  if (!window) throw new NotFoundError(WINDOW_NOT_FOUND);
  return { site, window };
}

/** GET .../maintenance-windows/{windowId}. */
export async function getMaintenanceWindow(
  db: Db,
  principal: Principal,
  { siteId, windowId }: { siteId: string; windowId: string },
  now = Date.now(),
): Promise<MaintenanceWindowView> {
  const { site, window } = await findWindow(db, principal, siteId, windowId);
  const [view] = await viewsOf(db, site, [window], now);
  return view!;
}

type Cursor = [number, string];
const isCursor = (key: unknown[]): key is Cursor =>
  key.length === 2 && typeof key[0] === 'number' && typeof key[1] === 'string';

/**
 * GET /v1/sites/{id}/maintenance-windows?state=&limit=&cursor=: upcoming and active windows soonest
 * first (what comes next), past ones and the unfiltered list latest first; keyset-paginated on
 * (startsAt, id).
 */
export async function listMaintenanceWindows(
  db: Db,
  principal: Principal,
  siteId: string,
  query: { state?: WindowState | undefined; limit?: number | undefined; cursor?: string | undefined },
  now = Date.now(),
): Promise<{ maintenanceWindows: MaintenanceWindowView[]; nextCursor: string | null }> {
  const site = await getVisibleSite(db, principal, siteId);
  const limit = query.limit ?? MAX_WINDOWS_LIST;
  const after = query.cursor ? decodeCursor(query.cursor, isCursor) : null;
  const ascending = query.state === 'upcoming' || query.state === 'active';
  const byState: Record<WindowState, SQL | undefined> = {
    upcoming: gt(maintenanceWindows.starts_at, now),
    active: and(lte(maintenanceWindows.starts_at, now), gt(maintenanceWindows.ends_at, now)),
    past: lte(maintenanceWindows.ends_at, now),
  };
  const beyond = after
    ? ascending
      ? sql`(${maintenanceWindows.starts_at}, ${maintenanceWindows.id}) > (${after[0]}::bigint, ${after[1]}::uuid)`
      : sql`(${maintenanceWindows.starts_at}, ${maintenanceWindows.id}) < (${after[0]}::bigint, ${after[1]}::uuid)`
    : undefined;
  const order = ascending
    ? [asc(maintenanceWindows.starts_at), asc(maintenanceWindows.id)]
    : [desc(maintenanceWindows.starts_at), desc(maintenanceWindows.id)];
  const rows = await db
    .select()
    .from(maintenanceWindows)
    .where(
      and(
        eq(maintenanceWindows.tenant_id, site.tenant_id),
        eq(maintenanceWindows.site_id, site.id),
        query.state ? byState[query.state] : undefined,
        beyond,
      ),
    )
    .orderBy(...order)
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    maintenanceWindows: await viewsOf(db, site, page, now),
    nextCursor: rows.length > limit && last ? encodeCursor([last.starts_at, last.id]) : null,
  };
}

/**
 * PATCH .../maintenance-windows/{windowId} (the route requires 'manage'): omitted fields keep their
 * value; `monitorIds` replaces the list, `null` covers every monitor of the site. A window that is
 * over is 409; one under way keeps its start (the time rules above).
 */
export async function updateMaintenanceWindow(
  db: Db,
  principal: Principal,
  { siteId, windowId }: { siteId: string; windowId: string },
  edit: Omit<MaintenanceWindowEdit, 'monitorIds'> & { monitorIds?: string[] | null | undefined },
  now = Date.now(),
): Promise<MaintenanceWindowView> {
  const { site, window: before } = await findWindow(db, principal, siteId, windowId);
  if (windowState(before, now) === 'past')
    throw new ConflictError('the maintenance window is over: it can be deleted, not changed');
  const times =
    edit.startsAt !== undefined || edit.endsAt !== undefined
      ? checkedTimes(edit.startsAt ?? before.starts_at, edit.endsAt ?? before.ends_at, now, before)
      : null;
  const monitorIds = edit.monitorIds ? await monitorsOfSite(db, site, edit.monitorIds) : edit.monitorIds;
  const window = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(maintenanceWindows)
      .set({
        title: edit.title,
        starts_at: times?.startsAt,
        ends_at: times?.endsAt,
        all_monitors: monitorIds === undefined ? undefined : monitorIds === null ? 1 : 0,
        updated_at: now,
      })
      .where(and(eq(maintenanceWindows.tenant_id, site.tenant_id), eq(maintenanceWindows.id, before.id)))
      .returning();
    if (!updated) throw new NotFoundError(WINDOW_NOT_FOUND);
    if (monitorIds !== undefined) await replaceMonitors(tx, updated, monitorIds ?? []);
    // Subscribers were told the times: new times are news (a title or monitors alone are not).
    if (updated.starts_at !== before.starts_at || updated.ends_at !== before.ends_at)
      await announce(tx, updated, 'rescheduled', now);
    return updated;
  });
  const [view] = await viewsOf(db, site, [window], now);
  return view!;
}

/**
 * DELETE .../maintenance-windows/{windowId} (the route requires 'manage'). An upcoming window is
 * cancelled; one under way ends at once (failing monitors open their incident on the next round);
 * a past one leaves the history, its time counted again like any other.
 */
export async function deleteMaintenanceWindow(
  db: Db,
  principal: Principal,
  { siteId, windowId }: { siteId: string; windowId: string },
  now = Date.now(),
): Promise<{ deleted: true }> {
  const { site, window } = await findWindow(db, principal, siteId, windowId);
  await db.transaction(async (tx) => {
    // Told before its monitors' list goes with it: one not begun is cancelled, one under way ends.
    const state = windowState(window, now);
    if (state !== 'past') await announce(tx, window, state === 'upcoming' ? 'cancelled' : 'ended', now);
    await tx
      .delete(maintenanceWindows)
      .where(and(eq(maintenanceWindows.tenant_id, site.tenant_id), eq(maintenanceWindows.id, window.id)));
  });
  return { deleted: true };
}

/** A window's news for the subscribers of the status pages listing a monitor it covers. */
async function announce(
  db: Db,
  window: MaintenanceWindow,
  event: Parameters<typeof announceWindow>[2],
  now: number,
): Promise<void> {
  await announceWindow(db, { window, monitorIds: await windowMonitorIds(db, window) }, event, now);
}

/** How far back a window's start is still announced: a job that missed minutes catches up this far. */
const START_LOOKBACK_MS = 15 * 60_000;

/**
 * Maintenance windows that began in the last START_LOOKBACK_MS and are still under way: announced
 * as started to the subscribers of the pages listing a covered monitor. Run by the delivery job each
 * time it runs (every minute at least); each (page, window, start) is queued once, whatever the runs,
 * and a window created already under way was announced as started when it was created.
 */
export async function queueMaintenanceStarts(db: Db, now: number): Promise<number> {
  const w = maintenanceWindows;
  const begun = await db
    .select()
    .from(w)
    .where(and(lte(w.starts_at, now), gt(w.starts_at, now - START_LOOKBACK_MS), gt(w.ends_at, now)));
  for (const window of begun) await announce(db, window, 'started', now);
  return begun.length;
}
