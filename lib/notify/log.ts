import { and, asc, desc, eq, inArray, lt, notInArray, or, type SQL, sql } from 'drizzle-orm';
import { openWebhookUrl } from '@/lib/crypto/webhook-urls';
import type { Db } from '@/lib/db/client';
import { decodeCursor, encodeCursor } from '@/lib/db/cursor';
import {
  notificationAttempts,
  notificationDeliveries,
  notificationOutbox,
  notificationReceivers,
  sites,
  users,
} from '@/lib/db/schema';
import { type AlertedReceiver, DELIVERY_STATES, type EventAlerts } from './alerted';
import { type CircuitState, circuitState } from './breaker';
import { type OrganizationKind, SUBSCRIBER_KINDS } from './kinds';
import { MAX_DELIVERY_ATTEMPTS } from './retry';
import { elideUrlPath, type WebhookKind } from './webhook';

/**
 * GET /v1/notifications/deliveries: what was sent to whom, newest first, a page at a time. Receivers
 * are shown as the member (name and address) or the address typed in the settings; webhook URLs show
 * their origin only, since the path of a Slack, Discord or Teams webhook is its credential.
 */

export const DEFAULT_DELIVERIES_PAGE = 50;
export const MAX_DELIVERIES_PAGE = 100;
export { DELIVERY_STATES };
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export type DeliveryReceiver =
  | { type: 'member'; userId: string; name: string | null; email: string }
  | { type: 'email'; email: string }
  | { type: 'webhook'; kind: WebhookKind; url: string };

export interface DeliveryAttempt {
  attempt: number;
  startedAt: number;
  finishedAt: number | null;
  outcome: 'sent' | 'failed' | 'interrupted' | 'cancelled' | null;
  status: number | null;
  detail: string | null;
}

/** A webhook receiver's circuit breaker and lane as the log and the settings show them (./breaker.ts). */
export interface ReceiverHealthView {
  circuit: CircuitState;
  consecutiveFailures: number;
  /** When the circuit opened (it stays so through half-open probes that fail); null when closed. */
  openedAt: number | null;
  /** When an open circuit lets its next delivery through; null when closed. */
  retryAt: number | null;
  /** On the slow lane: its last send timed out or was slow. */
  slow: boolean;
  lastFailure: string | null;
  lastFailureAt: number | null;
  lastSuccessAt: number | null;
}

type ReceiverRow = typeof notificationReceivers.$inferSelect;

export function healthView(row: ReceiverRow, now: number): ReceiverHealthView {
  return {
    circuit: circuitState({ openUntil: row.open_until }, now),
    consecutiveFailures: row.consecutive_failures,
    openedAt: row.open_until === null ? null : row.opened_at,
    retryAt: row.open_until,
    slow: row.slow === 1,
    lastFailure: row.last_failure,
    lastFailureAt: row.last_failure_at,
    lastSuccessAt: row.last_success_at,
  };
}

export interface DeliveryLogEntry {
  id: string;
  eventId: string;
  kind: OrganizationKind;
  siteId: string | null;
  hostname: string | null;
  receiver: DeliveryReceiver;
  /** The webhook receiver's circuit and lane now; null for email and for a webhook not yet sent to. */
  receiverHealth: ReceiverHealthView | null;
  state: DeliveryState;
  attempts: number;
  maxAttempts: number;
  outcome: string | null;
  lastStatus: number | null;
  nextAttemptAt: number | null;
  createdAt: number;
  sentAt: number | null;
  history: DeliveryAttempt[];
}

export interface DeliveryPage {
  deliveries: DeliveryLogEntry[];
  nextCursor: string | null;
}

export interface DeliveryQuery {
  siteId?: string;
  kind?: OrganizationKind;
  state?: DeliveryState;
  limit?: number;
  cursor?: string;
}

const isKey = (key: unknown[]): key is [number, string] =>
  key.length === 2 &&
  Number.isSafeInteger(key[0]) &&
  typeof key[1] === 'string' &&
  /^[0-9a-f-]{36}$/.test(key[1]);

export async function listDeliveries(
  db: Db,
  tenantId: string,
  query: DeliveryQuery,
  now = Date.now(),
): Promise<DeliveryPage> {
  const limit = query.limit ?? DEFAULT_DELIVERIES_PAGE;
  const d = notificationDeliveries;
  // A status page subscriber's deliveries are not the organization's to read (their address).
  const conditions: (SQL | undefined)[] = [
    eq(d.tenant_id, tenantId),
    notInArray(d.kind, [...SUBSCRIBER_KINDS]),
  ];
  if (query.siteId) conditions.push(eq(d.site_id, query.siteId));
  if (query.kind) conditions.push(eq(d.kind, query.kind));
  if (query.state) conditions.push(eq(d.state, query.state));
  if (query.cursor) {
    const [createdAt, id] = decodeCursor(query.cursor, isKey);
    conditions.push(or(lt(d.created_at, createdAt), and(eq(d.created_at, createdAt), lt(d.id, id))));
  }
  const rows = await db
    .select({ delivery: d, hostname: sites.hostname, memberName: users.name, health: notificationReceivers })
    .from(d)
    .leftJoin(sites, and(eq(sites.id, d.site_id), eq(sites.tenant_id, d.tenant_id)))
    .leftJoin(
      notificationReceivers,
      and(
        eq(notificationReceivers.tenant_id, d.tenant_id),
        eq(notificationReceivers.receiver_key, d.receiver_key),
      ),
    )
    .leftJoin(users, eq(users.id, d.member_user_id))
    .where(and(...conditions))
    .orderBy(desc(d.created_at), desc(d.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const ids = page.map((r) => r.delivery.id);
  const attempts = ids.length
    ? await db
        .select()
        .from(notificationAttempts)
        .where(
          and(eq(notificationAttempts.tenant_id, tenantId), inArray(notificationAttempts.delivery_id, ids)),
        )
        .orderBy(asc(notificationAttempts.delivery_id), asc(notificationAttempts.attempt))
    : [];
  const historyOf = new Map<string, DeliveryAttempt[]>();
  for (const a of attempts) {
    const list = historyOf.get(a.delivery_id) ?? [];
    list.push({
      attempt: a.attempt,
      startedAt: a.started_at,
      finishedAt: a.finished_at,
      outcome: a.outcome,
      status: a.status,
      detail: a.detail,
    });
    historyOf.set(a.delivery_id, list);
  }
  const deliveries = page.map(({ delivery, hostname, memberName, health }): DeliveryLogEntry => {
    const receiver: DeliveryReceiver =
      delivery.channel === 'email'
        ? delivery.member_user_id
          ? { type: 'member', userId: delivery.member_user_id, name: memberName, email: delivery.target }
          : { type: 'email', email: delivery.target }
        : {
            type: 'webhook',
            kind: delivery.channel,
            url: elideUrlPath(openWebhookUrl(delivery.target, tenantId) ?? ''),
          };
    return {
      id: delivery.id,
      eventId: delivery.event_id,
      kind: delivery.kind as OrganizationKind,
      siteId: delivery.site_id,
      hostname: hostname ?? null,
      receiver,
      receiverHealth: health && delivery.channel !== 'email' ? healthView(health, now) : null,
      state: delivery.state,
      attempts: delivery.attempts,
      maxAttempts: MAX_DELIVERY_ATTEMPTS,
      outcome: delivery.last_outcome,
      lastStatus: delivery.last_status,
      nextAttemptAt: delivery.state === 'pending' ? delivery.next_attempt_at : null,
      createdAt: delivery.created_at,
      sentAt: delivery.sent_at,
      history: historyOf.get(delivery.id) ?? [],
    };
  });
  const last = page.at(-1)?.delivery;
  return {
    deliveries,
    nextCursor: rows.length > limit && last ? encodeCursor([last.created_at, last.id]) : null,
  };
}

/** One webhook receiver of the organization with its health: GET /v1/notifications/receivers. */
export interface ReceiverHealthEntry {
  kind: WebhookKind;
  /** Origin only: the path of a chat webhook is its credential. */
  url: string;
  health: ReceiverHealthView;
  /** Its deliveries not yet sent (pending or in flight); an open circuit holds them. */
  waiting: number;
}

/**
 * Every webhook the organization's deliveries have been sent to, with its circuit and lane: those
 * needing attention (open, half-open, failing, slow) first, then by when they last failed.
 */
export async function listReceiverHealth(
  db: Db,
  tenantId: string,
  now = Date.now(),
): Promise<{ receivers: ReceiverHealthEntry[] }> {
  const r = notificationReceivers;
  const rows = await db
    .select({
      row: r,
      waiting: sql<number>`(select count(*)::int from notification_deliveries d
        where d.tenant_id = notification_receivers.tenant_id
          and d.receiver_key = notification_receivers.receiver_key
          and d.state in ('pending', 'sending'))`,
    })
    .from(r)
    .where(eq(r.tenant_id, tenantId));
  const attention = (e: ReceiverHealthEntry) =>
    e.health.circuit !== 'closed' ? 0 : e.health.consecutiveFailures > 0 ? 1 : e.health.slow ? 2 : 3;
  const receivers = rows.map(
    ({ row, waiting }): ReceiverHealthEntry => ({
      kind: row.channel,
      url: row.label,
      health: healthView(row, now),
      waiting: Number(waiting),
    }),
  );
  receivers.sort(
    (a, b) =>
      attention(a) - attention(b) ||
      (b.health.lastFailureAt ?? 0) - (a.health.lastFailureAt ?? 0) ||
      a.url.localeCompare(b.url),
  );
  return { receivers };
}

/**
 * Who one event reached, read from its actual deliveries (not from the settings, which may have
 * changed since): the monitor page's "Alerted Ana Lee by email" line. `dedupeKey` names the event
 * as its producer queued it (e.g. lib/uptime/rounds.ts `downAlertKey`).
 */
export async function eventAlerts(
  db: Db,
  { tenantId, dedupeKey }: { tenantId: string; dedupeKey: string },
): Promise<EventAlerts> {
  const o = notificationOutbox;
  const [event] = await db
    .select({ id: o.id, state: o.state })
    .from(o)
    .where(and(eq(o.tenant_id, tenantId), eq(o.dedupe_key, dedupeKey)))
    .limit(1);
  if (!event) return { status: 'missing', receivers: [] };
  if (event.state !== 'dispatched')
    return { status: event.state === 'pending' ? 'queued' : 'failed', receivers: [] };
  const d = notificationDeliveries;
  const rows = await db
    .select({ delivery: d, memberName: users.name })
    .from(d)
    .leftJoin(users, eq(users.id, d.member_user_id))
    .where(and(eq(d.tenant_id, tenantId), eq(d.event_id, event.id)))
    // People first, then typed addresses and webhooks: deliveries of one event are made in the same
    // instant, so creation time and id alone would mix them at random.
    .orderBy(sql`${d.member_user_id} is null`, asc(d.created_at), asc(d.id));
  const receivers = rows.map(({ delivery, memberName }): AlertedReceiver => {
    if (delivery.channel === 'email') {
      return delivery.member_user_id
        ? { type: 'member', name: memberName || delivery.target, channel: 'email', state: delivery.state }
        : { type: 'email', name: delivery.target, channel: 'email', state: delivery.state };
    }
    // The host alone: the path of a chat webhook is its credential.
    const url = openWebhookUrl(delivery.target, tenantId);
    const host = url && URL.canParse(url) ? new URL(url).host : 'a webhook';
    return { type: 'webhook', name: host, channel: delivery.channel, state: delivery.state };
  });
  return { status: 'resolved', receivers };
}
