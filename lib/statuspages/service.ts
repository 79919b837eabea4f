import { and, asc, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { decodeCursor, encodeCursor } from '@/lib/db/cursor';
import { type StatusPage, statusPageMonitors, statusPages, uptimeMonitors } from '@/lib/db/schema';
import { isUniqueViolation } from '@/lib/db/unique';
import { ConflictError, InvalidError, NotFoundError } from '@/lib/errors';
import { MAX_STATUS_PAGES_LIST } from './limits';
import { type StatusPageView, statusPageView } from './resource';
import { subscriberCounts } from './subscribers';

/*
 * An organization's status pages (issue 26 item 1). Every query filters on the tenant; a page of
 * another organization is 'status page not found', like one that never existed. The slug is unique
 * across the service (status_pages_slug_idx): taking one that is in use, by any organization, is 409.
 * The listed monitors must be the organization's own: a foreign or unknown id is a 422 naming it, the
 * same answer for both (a 404 would be about the path, and the path names the page).
 */

export const STATUS_PAGE_NOT_FOUND = 'status page not found';
const SLUG_INDEX = 'status_pages_slug_idx';
const slugTaken = (slug: string) => new ConflictError(`slug: ${slug} is already taken; choose another`);

export interface StatusPageInput {
  slug: string;
  title: string;
  monitorIds: string[];
  description?: string | null;
  published: boolean;
  showA11yScore: boolean;
  showBrokenLinks: boolean;
  showMonitorUrls: boolean;
}
export type StatusPageEdit = Partial<StatusPageInput>;

const bit = (value: boolean): 0 | 1 => (value ? 1 : 0);

/** Refuses any id that is not a monitor of this organization; the ids as stored (lowercase). */
async function ownMonitors(db: Db, tenantId: string, ids: readonly string[]): Promise<string[]> {
  const wanted = ids.map((id) => id.toLowerCase());
  const rows = await db
    .select({ id: uptimeMonitors.id })
    .from(uptimeMonitors)
    .where(and(eq(uptimeMonitors.tenant_id, tenantId), inArray(uptimeMonitors.id, wanted)));
  const owned = new Set(rows.map((r) => r.id));
  const foreign = wanted.find((id) => !owned.has(id));
  if (foreign) throw new InvalidError('monitorIds', `${foreign} is not a monitor of this organization`);
  return wanted;
}

/** Each page's listed monitors, in their order. */
async function monitorIdsOf(
  db: Db,
  tenantId: string,
  pageIds: readonly string[],
): Promise<Map<string, string[]>> {
  const byPage = new Map<string, string[]>(pageIds.map((id) => [id, []]));
  if (pageIds.length === 0) return byPage;
  const rows = await db
    .select({ page: statusPageMonitors.status_page_id, monitor: statusPageMonitors.monitor_id })
    .from(statusPageMonitors)
    .where(
      and(
        eq(statusPageMonitors.tenant_id, tenantId),
        inArray(statusPageMonitors.status_page_id, [...pageIds]),
      ),
    )
    .orderBy(asc(statusPageMonitors.position));
  for (const row of rows) byPage.get(row.page)?.push(row.monitor);
  return byPage;
}

export async function findPage(
  db: Db,
  { tenantId, id }: { tenantId: string; id: string },
): Promise<StatusPage> {
  const [page] = await db
    .select()
    .from(statusPages)
    .where(and(eq(statusPages.tenant_id, tenantId), eq(statusPages.id, id)));
  if (!page) throw new NotFoundError(STATUS_PAGE_NOT_FOUND);
  return page;
}

async function replaceMonitors(db: Db, tenantId: string, pageId: string, monitorIds: readonly string[]) {
  await db.delete(statusPageMonitors).where(eq(statusPageMonitors.status_page_id, pageId));
  await db.insert(statusPageMonitors).values(
    monitorIds.map((monitorId, position) => ({
      status_page_id: pageId,
      monitor_id: monitorId,
      tenant_id: tenantId,
      position,
    })),
  );
}

export async function createStatusPage(
  db: Db,
  tenantId: string,
  input: StatusPageInput,
  now = Date.now(),
): Promise<StatusPageView> {
  const monitorIds = await ownMonitors(db, tenantId, input.monitorIds);
  return db.transaction(async (tx) => {
    // ON CONFLICT rather than a check first: two organizations racing for one slug get one page and one 409.
    const [page] = await tx
      .insert(statusPages)
      .values({
        tenant_id: tenantId,
        slug: input.slug,
        title: input.title,
        description: input.description ?? null,
        published: bit(input.published),
        show_a11y_score: bit(input.showA11yScore),
        show_broken_links: bit(input.showBrokenLinks),
        show_monitor_urls: bit(input.showMonitorUrls),
        created_at: now,
        updated_at: now,
      })
      .onConflictDoNothing({ target: statusPages.slug })
      .returning();
    if (!page) throw slugTaken(input.slug);
    await replaceMonitors(tx, tenantId, page.id, monitorIds);
    return statusPageView(page, monitorIds, 0);
  });
}

type Cursor = [number, string];
const isCursor = (key: unknown[]): key is Cursor =>
  key.length === 2 && typeof key[0] === 'number' && typeof key[1] === 'string';

/** Newest first, keyset-paginated on (created_at, id). */
export async function listStatusPages(
  db: Db,
  tenantId: string,
  query: { limit?: number; cursor?: string },
): Promise<{ statusPages: StatusPageView[]; nextCursor: string | null }> {
  const limit = query.limit ?? MAX_STATUS_PAGES_LIST;
  const after = query.cursor ? decodeCursor(query.cursor, isCursor) : null;
  const rows = await db
    .select()
    .from(statusPages)
    .where(
      and(
        eq(statusPages.tenant_id, tenantId),
        after
          ? or(
              lt(statusPages.created_at, after[0]),
              and(eq(statusPages.created_at, after[0]), sql`${statusPages.id} < ${after[1]}::uuid`),
            )
          : undefined,
      ),
    )
    .orderBy(desc(statusPages.created_at), desc(statusPages.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const monitors = await monitorIdsOf(
    db,
    tenantId,
    page.map((p) => p.id),
  );
  const subscribers = await subscriberCounts(
    db,
    tenantId,
    page.map((p) => p.id),
  );
  const last = page[page.length - 1];
  return {
    statusPages: page.map((p) => statusPageView(p, monitors.get(p.id) ?? [], subscribers.get(p.id) ?? 0)),
    nextCursor: rows.length > limit && last ? encodeCursor([last.created_at, last.id]) : null,
  };
}

export async function getStatusPage(
  db: Db,
  { tenantId, id }: { tenantId: string; id: string },
): Promise<StatusPageView> {
  const page = await findPage(db, { tenantId, id });
  return statusPageView(
    page,
    (await monitorIdsOf(db, tenantId, [page.id])).get(page.id) ?? [],
    (await subscriberCounts(db, tenantId, [page.id])).get(page.id) ?? 0,
  );
}

export async function updateStatusPage(
  db: Db,
  { tenantId, id }: { tenantId: string; id: string },
  edit: StatusPageEdit,
  now = Date.now(),
): Promise<StatusPageView> {
  await findPage(db, { tenantId, id });
  const monitorIds = edit.monitorIds ? await ownMonitors(db, tenantId, edit.monitorIds) : undefined;
  try {
    return await db.transaction(async (tx) => {
      const [page] = await tx
        .update(statusPages)
        .set({
          slug: edit.slug,
          title: edit.title,
          description: edit.description === undefined ? undefined : (edit.description ?? null),
          published: edit.published === undefined ? undefined : bit(edit.published),
          show_a11y_score: edit.showA11yScore === undefined ? undefined : bit(edit.showA11yScore),
          show_broken_links: edit.showBrokenLinks === undefined ? undefined : bit(edit.showBrokenLinks),
          show_monitor_urls: edit.showMonitorUrls === undefined ? undefined : bit(edit.showMonitorUrls),
          // Bumped on every edit: the public page's fingerprint (lib/statuspages/fingerprint.ts) reads it.
          updated_at: now,
        })
        .where(and(eq(statusPages.tenant_id, tenantId), eq(statusPages.id, id)))
        .returning();
      if (!page) throw new NotFoundError(STATUS_PAGE_NOT_FOUND);
      if (monitorIds) await replaceMonitors(tx, tenantId, page.id, monitorIds);
      return statusPageView(
        page,
        monitorIds ?? (await monitorIdsOf(tx, tenantId, [page.id])).get(page.id) ?? [],
        (await subscriberCounts(tx, tenantId, [page.id])).get(page.id) ?? 0,
      );
    });
  } catch (error) {
    if (edit.slug && isUniqueViolation(error, SLUG_INDEX)) throw slugTaken(edit.slug);
    throw error;
  }
}

/** Deleting a page deletes its subscribers with it (status_page_subscribers cascades). */
export async function deleteStatusPage(
  db: Db,
  { tenantId, id }: { tenantId: string; id: string },
): Promise<{ deleted: true }> {
  const deleted = await db
    .delete(statusPages)
    .where(and(eq(statusPages.tenant_id, tenantId), eq(statusPages.id, id)))
    .returning({ id: statusPages.id });
  if (deleted.length === 0) throw new NotFoundError(STATUS_PAGE_NOT_FOUND);
  return { deleted: true };
}

// What a page says of incidents (./incidents.ts), through this one entry for routes.
export { listPageIncidents, openManualIncident, postIncidentUpdate } from './incidents';
// Visitors subscribing by email (./subscribers.ts), for the public routes.
export { confirmationOf, subscribe, unsubscribeOf } from './subscribers';
