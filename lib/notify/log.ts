import { and, asc, desc, eq, inArray, lt, or, type SQL } from 'drizzle-orm';
import { openWebhookUrl } from '@/lib/crypto/webhook-urls';
import type { Db } from '@/lib/db/client';
import { decodeCursor, encodeCursor } from '@/lib/db/cursor';
import { notificationAttempts, notificationDeliveries, sites, users } from '@/lib/db/schema';
import type { NotificationKind } from './kinds';
import { MAX_DELIVERY_ATTEMPTS } from './retry';
import { elideUrlPath, type WebhookKind } from './webhook';

/**
 * GET /v1/notifications/deliveries: what was sent to whom, newest first, a page at a time. Receivers
 * are shown as the member (name and address) or the address typed in the settings; webhook URLs show
 * their origin only, since the path of a Slack, Discord or Teams webhook is its credential.
 */

export const DEFAULT_DELIVERIES_PAGE = 50;
export const MAX_DELIVERIES_PAGE = 100;
export const DELIVERY_STATES = ['pending', 'sending', 'sent', 'failed', 'cancelled'] as const;
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

export interface DeliveryLogEntry {
  id: string;
  eventId: string;
  kind: NotificationKind;
  siteId: string | null;
  hostname: string | null;
  receiver: DeliveryReceiver;
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
  kind?: NotificationKind;
  state?: DeliveryState;
  limit?: number;
  cursor?: string;
}

const isKey = (key: unknown[]): key is [number, string] =>
  key.length === 2 &&
  Number.isSafeInteger(key[0]) &&
  typeof key[1] === 'string' &&
  /^[0-9a-f-]{36}$/.test(key[1]);

export async function listDeliveries(db: Db, tenantId: string, query: DeliveryQuery): Promise<DeliveryPage> {
  const limit = query.limit ?? DEFAULT_DELIVERIES_PAGE;
  const d = notificationDeliveries;
  const conditions: (SQL | undefined)[] = [eq(d.tenant_id, tenantId)];
  if (query.siteId) conditions.push(eq(d.site_id, query.siteId));
  if (query.kind) conditions.push(eq(d.kind, query.kind));
  if (query.state) conditions.push(eq(d.state, query.state));
  if (query.cursor) {
    const [createdAt, id] = decodeCursor(query.cursor, isKey);
    conditions.push(or(lt(d.created_at, createdAt), and(eq(d.created_at, createdAt), lt(d.id, id))));
  }
  const rows = await db
    .select({ delivery: d, hostname: sites.hostname, memberName: users.name })
    .from(d)
    .leftJoin(sites, and(eq(sites.id, d.site_id), eq(sites.tenant_id, d.tenant_id)))
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
  const deliveries = page.map(({ delivery, hostname, memberName }): DeliveryLogEntry => {
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
      kind: delivery.kind as NotificationKind,
      siteId: delivery.site_id,
      hostname: hostname ?? null,
      receiver,
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
