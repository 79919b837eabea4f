import { and, eq, inArray, or } from 'drizzle-orm';
import { webhookUrlDigest } from '@/lib/crypto/webhook-urls';
import type { Db } from '@/lib/db/client';
import { members, users } from '@/lib/db/schema';
import type { KindReceivers, RecipientList, WebhookList } from './kinds';
import { type NotificationSettings, orgSettings, type Recipient, siteOverride } from './settings';
import { readStoredWebhooks } from './stored-webhooks';
import { subscriberReceivers } from './subscribers';
import type { NotificationWebhook } from './webhook';

/**
 * Who receives one event, resolved when the delivery job picks it up (so settings changed a moment
 * ago apply): the org defaults, or the site's override (with the defaults unioned back in when it
 * says `includeOrgDefaults`), plus a monitor's own `alertEmails` / `alertWebhooks` for uptime kinds.
 * `user` recipients become the member's current address; one who is no longer a member receives
 * nothing. Each address and each webhook receives the event once, however many lists name it.
 */

export type Receiver =
  | { channel: 'email'; key: string; address: string; memberUserId: string | null }
  | { channel: NotificationWebhook['kind']; key: string; url: string; memberUserId: null };

/** The settings that apply to a site's events (or to organization-wide ones, `siteId` null). */
export async function effectiveSettings(
  db: Db,
  { tenantId, siteId }: { tenantId: string; siteId: string | null },
): Promise<{ lists: NotificationSettings[] }> {
  const org = await orgSettings(db, tenantId);
  const override = siteId ? await siteOverride(db, { tenantId, siteId }) : null;
  if (!override) return { lists: [org] };
  return { lists: override.includeOrgDefaults ? [override, org] : [override] };
}

const emailKey = (address: string) => `email:${address.trim().toLowerCase()}`;
/** The URL's digest stands in for it: the key is stored in clear, and a chat webhook's URL is its credential. */
const webhookKey = (hook: NotificationWebhook) => `webhook:${hook.kind}:${webhookUrlDigest(hook.url)}`;

/** Members' current addresses by user id; users no longer in the organization are absent. */
async function memberAddresses(
  db: Db,
  tenantId: string,
  query: { userIds?: string[]; admins?: boolean },
): Promise<{ userId: string; email: string }[]> {
  const conditions = [];
  if (query.userIds?.length) conditions.push(inArray(members.userId, query.userIds));
  if (query.admins) conditions.push(inArray(members.role, ['owner', 'admin']));
  if (conditions.length === 0) return [];
  return db
    .select({ userId: members.userId, email: users.email })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(and(eq(members.organizationId, tenantId), or(...conditions)))
    .orderBy(members.createdAt);
}

export async function resolveReceivers(
  db: Db,
  event: { tenantId: string; siteId: string | null; payload: Record<string, unknown> },
  rule: KindReceivers,
): Promise<Receiver[]> {
  // A status page's news goes to its subscribers alone: no list or webhook of the organization.
  if (rule.recipients === 'subscribers')
    return subscriberReceivers(db, event.tenantId, event.payload.statusPageId);
  const { lists } = await effectiveSettings(db, { tenantId: event.tenantId, siteId: event.siteId });
  const recipients: Recipient[] =
    rule.recipients === 'admins' ? [] : lists.flatMap((s) => s[rule.recipients as RecipientList]);
  const webhooks: NotificationWebhook[] = rule.webhooks
    ? lists.flatMap((s) => s[rule.webhooks as WebhookList])
    : [];
  if (rule.monitorTargets) {
    const { alertEmails, alertWebhooks } = event.payload;
    if (Array.isArray(alertEmails))
      for (const email of alertEmails)
        if (typeof email === 'string') recipients.push({ kind: 'email', email });
    // Sealed in the payload as in the monitor they were copied from.
    webhooks.push(...readStoredWebhooks(alertWebhooks, event.tenantId));
  }

  const userIds = [...new Set(recipients.flatMap((r) => (r.kind === 'user' ? [r.userId] : [])))];
  const found = await memberAddresses(db, event.tenantId, { userIds, admins: rule.recipients === 'admins' });
  const addressOf = new Map(found.map((m) => [m.userId, m.email]));

  const receivers = new Map<string, Receiver>();
  const addEmail = (address: string, memberUserId: string | null) => {
    const key = emailKey(address);
    if (!receivers.has(key))
      receivers.set(key, { channel: 'email', key, address: address.trim(), memberUserId });
  };
  if (rule.recipients === 'admins') for (const m of found) addEmail(m.email, m.userId);
  // Members first, so an address that is also typed out is shown as the member it belongs to.
  for (const r of recipients) {
    const address = r.kind === 'user' ? addressOf.get(r.userId) : undefined;
    if (r.kind === 'user' && address) addEmail(address, r.userId);
  }
  for (const r of recipients) if (r.kind === 'email') addEmail(r.email, null);
  for (const hook of webhooks) {
    const key = webhookKey(hook);
    if (!receivers.has(key))
      receivers.set(key, { channel: hook.kind, key, url: hook.url, memberUserId: null });
  }
  return [...receivers.values()];
}
