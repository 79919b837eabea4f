import { and, asc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { config } from '@/lib/config';
import { signToken, verifyToken } from '@/lib/crypto/secrets';
import type { Db } from '@/lib/db/client';
import {
  type MaintenanceWindow,
  type StatusPage,
  statusPageMonitors,
  statusPageSubscribers,
  statusPages,
  uptimeMonitors,
} from '@/lib/db/schema';
import { CONFIRMATION_TTL_MS } from './consent';
import type { StatusIncidentPayload, StatusMaintenancePayload } from './kinds';
import { CAUSES } from './message';
import { enqueueNotification } from './outbox';
import type { Receiver } from './receivers';

/*
 * The notification side of status page subscribers (issue 26 item 4): who receives a page's news,
 * whether a mail may still go, the one-click unsubscribe link, and the producers' one call to queue
 * a page's news. What visitors do (subscribe, confirm, unsubscribe) is lib/statuspages/subscribers.ts.
 *
 * A page's news is an outbox event per page (kind `status-incident` or `status-maintenance`), so it
 * is durable, deduplicated by its key and delivered like any notification: one delivery per
 * confirmed subscriber, claimed round robin across tenants under the per-tenant in-flight caps of
 * ./deliver.ts, so a page with many subscribers sends at its tenant's pace and never holds the
 * workers other organizations' alerts need. Subscribers are resolved when the event is dispatched
 * and asked again right before each mail (`subscriberConsent`): whoever unsubscribed meanwhile, or a
 * page unpublished meanwhile, gets nothing.
 */

const UNSUBSCRIBE_PURPOSE = 'status page unsubscribe';

/** The token of a subscriber's unsubscribe link: signed, naming the row and its page, never stored. */
export function subscriberUnsubscribeToken(subscriberId: string, pageId: string): string {
  return signToken(UNSUBSCRIBE_PURPOSE, { s: subscriberId, p: pageId });
}

/** What a subscriber's unsubscribe token names, or null for anything else (altered, another purpose). */
export function readSubscriberUnsubscribeToken(
  token: string,
): { subscriberId: string; pageId: string } | null {
  if (token.length > 400) return null;
  const payload = verifyToken(UNSUBSCRIBE_PURPOSE, token) as { s?: unknown; p?: unknown } | null;
  if (!payload || typeof payload.s !== 'string' || typeof payload.p !== 'string') return null;
  return { subscriberId: payload.s, pageId: payload.p };
}

/** The unsubscribe page of a subscription, on the page's own public address (no cookie, no script). */
export const subscriberUnsubscribeUrl = (slug: string, token: string) =>
  `${config().appUrl}/status/${encodeURIComponent(slug)}/unsubscribe/${token}`;

/** The confirmed subscribers of one of the tenant's pages, as receivers of its news. */
export async function subscriberReceivers(db: Db, tenantId: string, pageId: unknown): Promise<Receiver[]> {
  if (typeof pageId !== 'string') return [];
  const rows = await db
    .select({ address: statusPageSubscribers.address })
    .from(statusPageSubscribers)
    .where(
      and(
        eq(statusPageSubscribers.tenant_id, tenantId),
        eq(statusPageSubscribers.status_page_id, pageId),
        isNotNull(statusPageSubscribers.confirmed_at),
      ),
    )
    .orderBy(asc(statusPageSubscribers.confirmed_at));
  return rows.map((r) => ({
    channel: 'email' as const,
    key: `email:${r.address}`,
    address: r.address,
    memberUserId: null,
  }));
}

export type SubscriberConsent = { unsubscribeUrl: string; pageTitle: string } | { refused: string };

/** Whether a page's news may still go to this address, asked right before the mail is sent. */
export async function subscriberConsent(
  db: Db,
  { tenantId, pageId, email }: { tenantId: string; pageId: unknown; email: string },
): Promise<SubscriberConsent> {
  if (typeof pageId !== 'string') return { refused: 'not sent: the notification names no status page' };
  const [row] = await db
    .select({
      id: statusPageSubscribers.id,
      slug: statusPages.slug,
      title: statusPages.title,
      published: statusPages.published,
    })
    .from(statusPageSubscribers)
    .innerJoin(statusPages, eq(statusPages.id, statusPageSubscribers.status_page_id))
    .where(
      and(
        eq(statusPageSubscribers.tenant_id, tenantId),
        eq(statusPageSubscribers.status_page_id, pageId),
        eq(statusPageSubscribers.address, email),
        isNotNull(statusPageSubscribers.confirmed_at),
      ),
    )
    .limit(1);
  if (!row) return { refused: 'not sent: no longer subscribed to the status page' };
  if (row.published !== 1) return { refused: 'not sent: the status page is no longer published' };
  return {
    unsubscribeUrl: subscriberUnsubscribeUrl(row.slug, subscriberUnsubscribeToken(row.id, pageId)),
    pageTitle: row.title,
  };
}

/** An address as logs and delivery logs may show it: its first letter and its domain. */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${address[0]}***${address.slice(at)}`;
}

// ---- producers ---------------------------------------------------------------------------------------

interface ListingPage {
  page: StatusPage;
  /** The listed monitors among those asked about, each by its name on the page. */
  names: Map<string, string>;
}

/**
 * The published pages that list any of these monitors and have a confirmed subscriber, with each
 * monitor's name as the page shows it (its name, its URL only where the page shows URLs, else
 * "Service n", as lib/statuspages/public.ts names it).
 */
async function pagesListing(db: Db, tenantId: string, monitorIds: readonly string[]): Promise<ListingPage[]> {
  if (monitorIds.length === 0) return [];
  const rows = await db
    .select({
      page: statusPages,
      monitorId: statusPageMonitors.monitor_id,
      position: statusPageMonitors.position,
      name: uptimeMonitors.name,
      url: uptimeMonitors.url,
    })
    .from(statusPageMonitors)
    .innerJoin(statusPages, eq(statusPages.id, statusPageMonitors.status_page_id))
    .innerJoin(uptimeMonitors, eq(uptimeMonitors.id, statusPageMonitors.monitor_id))
    .where(
      and(
        eq(statusPageMonitors.tenant_id, tenantId),
        eq(statusPages.tenant_id, tenantId),
        eq(statusPages.published, 1),
        inArray(statusPageMonitors.monitor_id, [...monitorIds]),
        sql`exists (select 1 from ${statusPageSubscribers} s where s.status_page_id = ${statusPages.id} and s.confirmed_at is not null)`,
      ),
    )
    .orderBy(asc(statusPageMonitors.position));
  const byPage = new Map<string, ListingPage>();
  for (const r of rows) {
    const entry = byPage.get(r.page.id) ?? { page: r.page, names: new Map<string, string>() };
    const shown = r.name ?? (r.page.show_monitor_urls === 1 ? r.url : null) ?? `Service ${r.position + 1}`;
    entry.names.set(r.monitorId, shown);
    byPage.set(r.page.id, entry);
  }
  return [...byPage.values()];
}

const pageOf = (page: StatusPage) => ({ statusPageId: page.id, pageTitle: page.title, slug: page.slug });

/** A monitor's incident as the page names it: "API: timed out". */
const incidentName = (monitor: string | undefined, cause: string | null) =>
  `${monitor ?? 'A service'}: ${cause ? (CAUSES[cause] ?? cause) : 'outage'}`;

type IncidentNews = Omit<StatusIncidentPayload, 'statusPageId' | 'pageTitle' | 'slug' | 'name'>;

/**
 * A monitor's consensus incident opened or resolved: news for every published page listing it that
 * has subscribers. Called in the transaction that records the incident, so the news is queued with
 * it or not at all; each (page, incident, event) once.
 */
export async function queueMonitorIncidentNews(
  db: Db,
  { tenantId, monitorId, cause }: { tenantId: string; monitorId: string; cause: string | null },
  news: IncidentNews,
  now: number,
): Promise<void> {
  for (const { page, names } of await pagesListing(db, tenantId, [monitorId])) {
    const name = incidentName(names.get(monitorId), cause);
    await enqueueNotification(db, {
      tenantId,
      siteId: null,
      kind: 'status-incident',
      dedupeKey: `status-incident:${page.id}:${news.incidentId}:${news.event}`,
      payload: { ...pageOf(page), ...news, name },
      now,
    });
  }
}

/**
 * News of one page (a manual incident, an update posted on it), when it has subscribers. `name`: a
 * manual incident's title, or a monitor's incident, named as the page names the monitor.
 */
export async function queuePageIncidentNews(
  db: Db,
  page: StatusPage,
  news: IncidentNews & { name: { title: string } | { monitorId: string; cause: string | null } },
  dedupeKey: string,
  now: number,
): Promise<void> {
  if (page.published !== 1) return;
  const { name, ...rest } = news;
  let shown: string;
  if ('title' in name) {
    const [any] = await db
      .select({ id: statusPageSubscribers.id })
      .from(statusPageSubscribers)
      .where(
        and(eq(statusPageSubscribers.status_page_id, page.id), isNotNull(statusPageSubscribers.confirmed_at)),
      )
      .limit(1);
    if (!any) return;
    shown = name.title;
  } else {
    const listing = (await pagesListing(db, page.tenant_id, [name.monitorId])).find(
      (l) => l.page.id === page.id,
    );
    if (!listing) return;
    shown = incidentName(listing.names.get(name.monitorId), name.cause);
  }
  await enqueueNotification(db, {
    tenantId: page.tenant_id,
    siteId: null,
    kind: 'status-incident',
    dedupeKey: `status-incident:${page.id}:${dedupeKey}`,
    payload: { ...pageOf(page), ...rest, name: shown },
    now,
  });
}

/**
 * News of a maintenance window for every published page listing a monitor it covers, naming only
 * those of the page's monitors: scheduled, started, moved, cancelled before it began, or ended
 * early. Queued in the caller's transaction, once per (page, window, event, times). The caller
 * (lib/uptime, which knows windows) names the monitors the window covers.
 */
export async function announceWindow(
  db: Db,
  { window, monitorIds }: { window: MaintenanceWindow; monitorIds: readonly string[] },
  event: StatusMaintenancePayload['event'],
  now: number,
): Promise<void> {
  const news = {
    windowId: window.id,
    event,
    title: window.title,
    startsAt: window.starts_at,
    endsAt: window.ends_at,
  };
  for (const { page, names } of await pagesListing(db, window.tenant_id, monitorIds)) {
    await enqueueNotification(db, {
      tenantId: window.tenant_id,
      siteId: null,
      kind: 'status-maintenance',
      // The times are part of the key: a window moved twice is announced twice, each start once.
      dedupeKey: `status-maintenance:${page.id}:${window.id}:${event}:${window.starts_at}${event === 'rescheduled' ? `-${window.ends_at}` : ''}`,
      payload: { ...pageOf(page), ...news, services: [...names.values()] },
      now,
    });
  }
}

/**
 * Subscriptions never confirmed whose link expired: an address kept for nothing. Deleted by the
 * hourly prune (jobs/functions/notify.ts); a visitor who still wants the mail submits the form again.
 */
export async function pruneUnconfirmedSubscribers(db: Db, now: number): Promise<number> {
  const s = statusPageSubscribers;
  const deleted = await db
    .delete(s)
    .where(
      and(
        isNull(s.confirmed_at),
        lt(s.created_at, now - CONFIRMATION_TTL_MS),
        or(isNull(s.confirm_expires_at), lt(s.confirm_expires_at, now)),
      ),
    )
    .returning({ id: s.id });
  return deleted.length;
}
