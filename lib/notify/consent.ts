import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import { config } from '@/lib/config';
import { signToken, verifyToken } from '@/lib/crypto/secrets';
import type { Db } from '@/lib/db/client';
import {
  notificationAddresses,
  notificationConfirmationSends,
  notificationSettings,
  notificationUnsubscribes,
  uptimeMonitors,
} from '@/lib/db/schema';
import { addressConfirmationMessage } from '@/lib/email/templates';
import { MailDeliveryError, sendMail } from '@/lib/email/transport';
import { BusyError, ConflictError, DeliveryError, NotFoundError } from '@/lib/errors';
import { NetError } from '@/lib/net';
import { memberAddressesAmong, normalizeAddress } from '@/lib/orgs/addresses';
import { mailOrganizationName, organizationName } from '@/lib/orgs/name';
import {
  KIND_TOPIC,
  type MailTopic,
  type NotificationKind,
  RECIPIENT_LISTS,
  type SubscriberKind,
  TOPIC_NAMES,
} from './kinds';

/**
 * Mail that protects its sender. Anyone who signs up owns an organization and could make Sitewatch
 * mail any address with words of their choosing (the organization's name), from the operator's
 * domain. So:
 *
 * - An address outside the organization (not a member's sign-in address) receives nothing until it
 *   confirmed. Saving it in a list of the notification settings or a monitor's alert emails sends
 *   one confirmation mail; its link opens a page that confirms with a button (a POST: link scanners
 *   prefetch GETs). The token is 32 random bytes, stored only as its SHA-256, valid 72 hours.
 *   Confirmation mails are limited per address and organization, per organization and per address
 *   across organizations (CONFIRMATION_LIMITS).
 * - Every notification mail carries a one-click unsubscribe (RFC 8058) for its topic: a signed
 *   token naming the address's row and the topic, so nothing secret is stored. Unsubscribing stops
 *   that topic for that address in that organization; an owner or admin may subscribe it again,
 *   which for an outside address asks it to confirm again.
 * - Member addresses need no confirmation, and carry the unsubscribe too.
 *
 * Delivery asks `mailConsent` right before each mail: an address that has not confirmed, or that
 * unsubscribed, is not sent to, and the delivery says why.
 */

export const CONFIRMATION_TTL_MS = 72 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Confirmation mails, counted over the last 24 hours (sends older than two days are deleted). */
export const CONFIRMATION_LIMITS = {
  /** The same address, from the same organization: one at a time... */
  addressCooldownMs: 10 * 60 * 1000,
  /** ...and at most this many a day. */
  perAddressAndOrganization: 3,
  /** One organization, to all the addresses it names. */
  perOrganization: 30,
  /** One address, from every organization together: no one is flooded by many sign-ups. */
  perAddress: 5,
} as const;

/** How a confirmation token is stored: its SHA-256, never the token. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A confirmation link's token has the shape our links carry (32 random bytes, base64url); anything else is no link,
 * answered without a query. Shared by every double opt-in: alert addresses and status page subscribers.
 */
export const isConfirmToken = (token: string) => /^[A-Za-z0-9_-]{20,100}$/.test(token);

export type ConfirmationState = 'pending' | 'confirmed' | 'expired';

/** Where a double opt-in stands: confirmed, pending until its link expires, or expired. */
export function confirmationState(
  row: { confirmed_at: number | null; confirm_expires_at: number | null },
  now: number,
): ConfirmationState {
  if (row.confirmed_at !== null) return 'confirmed';
  return row.confirm_expires_at !== null && row.confirm_expires_at > now ? 'pending' : 'expired';
}

type AddressRow = typeof notificationAddresses.$inferSelect;

export type AddressStatus = 'member' | 'confirmed' | 'pending' | 'expired';

/** One address as the notification settings show it (`addresses` in GET /v1/notifications). */
export interface AddressState {
  email: string;
  /** member: a member's sign-in address (no confirmation needed); pending/expired: not confirmed yet. */
  status: AddressStatus;
  confirmationSentAt: number | null;
  confirmationExpiresAt: number | null;
  /** Why the last confirmation mail did not go out, if it did not. */
  confirmationError: string | null;
  confirmedAt: number | null;
  unsubscribed: { topic: MailTopic; at: number }[];
}

// ---- confirmation ----------------------------------------------------------------------------------

/**
 * After a list or a monitor was saved with these addresses: each one outside the organization that
 * has no confirmation under way (never asked, or the last link expired) is sent one. Never throws
 * for a mail that could not go out: the address stays pending and its state says why.
 */
export async function requestConfirmations(
  db: Db,
  tenantId: string,
  addresses: readonly string[],
  now = Date.now(),
): Promise<void> {
  const wanted = [...new Set(addresses.map(normalizeAddress))];
  if (wanted.length === 0) return;
  const members = await memberAddressesAmong(db, tenantId, wanted);
  const outside = wanted.filter((a) => !members.has(a));
  if (outside.length === 0) return;
  await db
    .insert(notificationAddresses)
    .values(outside.map((address) => ({ tenant_id: tenantId, address, created_at: now })))
    .onConflictDoNothing();
  const rows = await db
    .select()
    .from(notificationAddresses)
    .where(
      and(
        eq(notificationAddresses.tenant_id, tenantId),
        inArray(notificationAddresses.address, outside),
        sql`${notificationAddresses.confirmed_at} is null`,
      ),
    );
  const due = rows.filter((r) => r.confirm_expires_at === null || r.confirm_expires_at <= now);
  for (const row of due) await sendConfirmation(db, row, now);
}

/**
 * Who asks an address to confirm: an organization's lists (`statusPageId` null), or one of its status
 * pages for a visitor who subscribed (lib/statuspages/subscribers.ts). Each has its own limits; the
 * limit per address counts every sender's mails together.
 */
export interface ConfirmationSender {
  tenantId: string;
  statusPageId: string | null;
}

/** A sender's limits over the last 24 hours (CONFIRMATION_LIMITS for an organization's lists). */
export interface SenderLimits {
  /** The same address, from the same sender: one at a time... */
  addressCooldownMs: number;
  /** ...and at most this many a day. */
  perAddressAndSender: number;
  /** One sender, to all the addresses it names. */
  perSender: number;
  /** One address, from every sender together. */
  perAddress: number;
}

const ORGANIZATION_LIMITS: SenderLimits = {
  addressCooldownMs: CONFIRMATION_LIMITS.addressCooldownMs,
  perAddressAndSender: CONFIRMATION_LIMITS.perAddressAndOrganization,
  perSender: CONFIRMATION_LIMITS.perOrganization,
  perAddress: CONFIRMATION_LIMITS.perAddress,
};

/** How long until another confirmation may go to this address from this sender; 0: now. */
async function confirmationWait(
  db: Db,
  sender: ConfirmationSender,
  address: string,
  limits: SenderLimits,
  now: number,
): Promise<number> {
  const since = now - DAY_MS;
  const s = notificationConfirmationSends;
  const ofSender =
    sender.statusPageId === null
      ? sql`(${s.tenant_id} = ${sender.tenantId} and ${s.status_page_id} is null)`
      : sql`${s.status_page_id} = ${sender.statusPageId}`;
  const sends = await db
    .select({
      status_page_id: s.status_page_id,
      tenant_id: s.tenant_id,
      address: s.address,
      sent_at: s.sent_at,
    })
    .from(s)
    .where(and(gt(s.sent_at, since), sql`(${ofSender} or ${s.address} = ${address})`))
    .orderBy(s.sent_at);
  const mine = (r: (typeof sends)[number]) =>
    sender.statusPageId === null
      ? r.tenant_id === sender.tenantId && r.status_page_id === null
      : r.status_page_id === sender.statusPageId;
  const ofSenderRows = sends.filter(mine);
  const same = ofSenderRows.filter((r) => r.address === address);
  const toAddress = sends.filter((r) => r.address === address);
  // Each limit frees a place when its oldest counted send turns a day old.
  const waits = [0];
  const last = same.at(-1);
  if (last) waits.push(last.sent_at + limits.addressCooldownMs - now);
  for (const [list, cap] of [
    [same, limits.perAddressAndSender],
    [ofSenderRows, limits.perSender],
    [toAddress, limits.perAddress],
  ] as const) {
    if (list.length >= cap) waits.push(list[list.length - cap]!.sent_at + DAY_MS - now);
  }
  return Math.max(...waits);
}

/**
 * Takes a place for one confirmation mail within the sender's limits, or says how long until one is
 * free. The limits are checked and the send counted under a per-sender lock, so two requests at once
 * cannot both take the last place; `taken` (the new token's hash written) runs in that transaction,
 * and the mail goes out after it. Resolves to 0 when the place was taken, else the wait in ms.
 */
export async function takeConfirmationPlace(
  db: Db,
  sender: ConfirmationSender,
  address: string,
  limits: SenderLimits,
  now: number,
  taken: (tx: Db) => Promise<unknown>,
): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(${CONFIRMATION_LOCK}, hashtext(${sender.statusPageId ?? sender.tenantId}))`,
    );
    const waitMs = await confirmationWait(tx, sender, address, limits, now);
    if (waitMs > 0) return waitMs;
    await tx
      .delete(notificationConfirmationSends)
      .where(lt(notificationConfirmationSends.sent_at, now - 2 * DAY_MS));
    await tx.insert(notificationConfirmationSends).values({
      tenant_id: sender.tenantId,
      status_page_id: sender.statusPageId,
      address,
      sent_at: now,
    });
    await taken(tx);
    return 0;
  });
}

type SendResult = { ok: true } | { ok: false; error: string; retryAfterMs: number | null };

/**
 * Sends one confirmation mail with a new link (the previous link stops working). The limits are
 * checked and the send counted under a per-organization lock, so two saves at once cannot both take
 * the last place; the mail goes out after that transaction.
 */
async function sendConfirmation(db: Db, row: AddressRow, now: number): Promise<SendResult> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = now + CONFIRMATION_TTL_MS;
  const wait = await takeConfirmationPlace(
    db,
    { tenantId: row.tenant_id, statusPageId: null },
    row.address,
    ORGANIZATION_LIMITS,
    now,
    (tx) =>
      tx
        .update(notificationAddresses)
        .set({
          confirm_token_hash: hashToken(token),
          confirm_sent_at: now,
          confirm_expires_at: expiresAt,
          confirm_error: null,
        })
        .where(eq(notificationAddresses.id, row.id)),
  );
  if (wait > 0) {
    const error = `confirmation mail not sent: the limit of confirmation mails was reached; it can be sent again after ${new Date(now + wait).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    await recordError(db, row.id, error);
    return { ok: false, error, retryAfterMs: wait };
  }
  const c = config();
  try {
    await sendMail(
      db,
      addressConfirmationMessage({
        to: row.address,
        organizationName: mailOrganizationName(await organizationName(db, row.tenant_id)),
        confirmUrl: `${c.appUrl}/confirm/${token}`,
        expiresAt,
      }),
    );
    return { ok: true };
  } catch (error) {
    if (!(error instanceof MailDeliveryError) && !(error instanceof NetError)) throw error;
    const reason = error instanceof NetError ? `mail provider unreachable: ${error.detail}` : error.message;
    const message = `confirmation mail not sent: ${reason}`;
    // The link that did not go out is withdrawn, so the next save or a resend tries again.
    await db
      .update(notificationAddresses)
      .set({ confirm_token_hash: null, confirm_expires_at: null, confirm_error: message })
      .where(eq(notificationAddresses.id, row.id));
    return { ok: false, error: message, retryAfterMs: null };
  }
}

// Advisory lock namespace for "confirmation mail limits of one tenant" (two-int form).
const CONFIRMATION_LOCK = 7_419_102;

const recordError = (db: Db, id: string, error: string) =>
  db.update(notificationAddresses).set({ confirm_error: error }).where(eq(notificationAddresses.id, id));

async function addressRow(db: Db, tenantId: string, address: string): Promise<AddressRow | undefined> {
  const [row] = await db
    .select()
    .from(notificationAddresses)
    .where(
      and(
        eq(notificationAddresses.tenant_id, tenantId),
        eq(notificationAddresses.address, normalizeAddress(address)),
      ),
    )
    .limit(1);
  return row;
}

const NOT_NAMED = 'no notification list or monitor of this organization names this address';

/**
 * POST /v1/notifications/confirmations: another confirmation mail to an outside address that has not
 * confirmed (a new link; the previous one stops working). 429 within the limits' wait, 502 when the
 * mail provider refused it.
 */
export async function resendConfirmation(
  db: Db,
  { tenantId, email }: { tenantId: string; email: string },
  now = Date.now(),
): Promise<{ address: AddressState }> {
  const address = normalizeAddress(email);
  if ((await memberAddressesAmong(db, tenantId, [address])).size > 0) {
    throw new ConflictError(`${address} is a member's address: it needs no confirmation`);
  }
  if (!(await namedAddresses(db, tenantId)).has(address)) throw new NotFoundError(NOT_NAMED);
  const row = await addressRow(db, tenantId, address);
  if (!row) throw new NotFoundError(NOT_NAMED);
  if (row.confirmed_at !== null) throw new ConflictError(`${address} has already confirmed`);
  const sent = await sendConfirmation(db, row, now);
  if (!sent.ok) {
    if (sent.retryAfterMs !== null) throw new BusyError(sent.error, sent.retryAfterMs);
    throw new DeliveryError(sent.error);
  }
  return { address: await addressStateOf(db, tenantId, address, now) };
}

export interface ConfirmationPreview {
  email: string;
  organizationName: string;
  state: ConfirmationState;
  expiresAt: number | null;
}

async function rowByToken(db: Db, token: string): Promise<AddressRow | undefined> {
  if (!isConfirmToken(token)) return undefined;
  const [row] = await db
    .select()
    .from(notificationAddresses)
    .where(eq(notificationAddresses.confirm_token_hash, hashToken(token)))
    .limit(1);
  return row;
}

/** What the confirmation page shows before its button is pressed (reads only); null: no such link. */
export async function confirmationPreview(
  db: Db,
  token: string,
  now = Date.now(),
): Promise<ConfirmationPreview | null> {
  const row = await rowByToken(db, token);
  if (!row) return null;
  return {
    email: row.address,
    organizationName: mailOrganizationName(await organizationName(db, row.tenant_id)),
    state: confirmationState(row, now),
    expiresAt: row.confirm_expires_at,
  };
}

const UNKNOWN_LINK = 'this confirmation link is not valid: it may have been replaced by a newer one';

export interface Confirmed {
  email: string;
  organizationName: string;
  confirmed: true;
}

/** POST /v1/confirm/{token}: the address confirms; pressing twice answers the same. */
export async function confirmAddress(db: Db, token: string, now = Date.now()): Promise<Confirmed> {
  const row = await rowByToken(db, token);
  if (!row) throw new NotFoundError(UNKNOWN_LINK);
  const state = confirmationState(row, now);
  if (state === 'expired') {
    throw new ConflictError(
      'this confirmation link has expired: ask the organization that added this address to send a new one',
    );
  }
  if (state === 'pending') {
    await db
      .update(notificationAddresses)
      .set({ confirmed_at: now, confirm_expires_at: null, confirm_error: null })
      .where(and(eq(notificationAddresses.id, row.id), sql`${notificationAddresses.confirmed_at} is null`));
  }
  return {
    email: row.address,
    organizationName: mailOrganizationName(await organizationName(db, row.tenant_id)),
    confirmed: true,
  };
}

// ---- unsubscribe -----------------------------------------------------------------------------------

const UNSUBSCRIBE_PURPOSE = 'notification unsubscribe';

/** The token of one (address, topic) unsubscribe link: signed, naming the row, never stored. */
export function unsubscribeToken(addressId: string, topic: MailTopic): string {
  return signToken(UNSUBSCRIBE_PURPOSE, { a: addressId, t: topic });
}

/**
 * The URL mail carries in List-Unsubscribe and its footer: the unsubscribe page. A GET shows what it
 * stops and a button; a POST (a mail client's one-click, or the button) unsubscribes (proxy.ts sends
 * it to POST /v1/unsubscribe/{token}).
 */
export const unsubscribeUrl = (token: string) => `${config().appUrl}/unsubscribe/${token}`;

function readUnsubscribeToken(token: string): { addressId: string; topic: MailTopic } | null {
  if (token.length > 400) return null;
  const payload = verifyToken(UNSUBSCRIBE_PURPOSE, token) as { a?: unknown; t?: unknown } | null;
  if (!payload || typeof payload.a !== 'string' || typeof payload.t !== 'string') return null;
  if (!(payload.t in TOPIC_NAMES)) return null;
  return { addressId: payload.a, topic: payload.t as MailTopic };
}

export interface UnsubscribePreview {
  email: string;
  organizationName: string;
  topic: MailTopic;
  /** "uptime alerts" */
  topicName: string;
  unsubscribed: boolean;
}

export interface Unsubscribed extends Omit<UnsubscribePreview, 'unsubscribed'> {
  unsubscribed: true;
}

async function unsubscribeTarget(db: Db, token: string) {
  const read = readUnsubscribeToken(token);
  if (!read) return null;
  const [row] = await db
    .select()
    .from(notificationAddresses)
    .where(eq(notificationAddresses.id, read.addressId))
    .limit(1);
  return row ? { row, topic: read.topic } : null;
}

async function isUnsubscribed(db: Db, addressId: string, topic: MailTopic): Promise<boolean> {
  const [found] = await db
    .select({ topic: notificationUnsubscribes.topic })
    .from(notificationUnsubscribes)
    .where(and(eq(notificationUnsubscribes.address_id, addressId), eq(notificationUnsubscribes.topic, topic)))
    .limit(1);
  return found !== undefined;
}

/** What the unsubscribe page shows before its button is pressed (reads only); null: no such link. */
export async function unsubscribePreview(db: Db, token: string): Promise<UnsubscribePreview | null> {
  const target = await unsubscribeTarget(db, token);
  if (!target) return null;
  return {
    email: target.row.address,
    organizationName: mailOrganizationName(await organizationName(db, target.row.tenant_id)),
    topic: target.topic,
    topicName: TOPIC_NAMES[target.topic],
    unsubscribed: await isUnsubscribed(db, target.row.id, target.topic),
  };
}

/**
 * POST /v1/unsubscribe/{token} (RFC 8058 one-click, no session: the signed token is the credential):
 * that organization sends this address no more mail of the topic. Pressing twice answers the same.
 */
export async function unsubscribe(db: Db, token: string, now = Date.now()): Promise<Unsubscribed> {
  const target = await unsubscribeTarget(db, token);
  if (!target) throw new NotFoundError('this unsubscribe link is not valid');
  await db
    .insert(notificationUnsubscribes)
    .values({
      address_id: target.row.id,
      tenant_id: target.row.tenant_id,
      topic: target.topic,
      created_at: now,
    })
    .onConflictDoNothing();
  return {
    email: target.row.address,
    organizationName: mailOrganizationName(await organizationName(db, target.row.tenant_id)),
    topic: target.topic,
    topicName: TOPIC_NAMES[target.topic],
    unsubscribed: true,
  };
}

/**
 * POST /v1/notifications/resubscribe: an owner or admin takes an unsubscribe back. A member's
 * address receives the topic again at once; an outside address must confirm again first (a new
 * confirmation mail goes out, within the limits), so an organization cannot undo a stranger's "stop".
 */
export async function resubscribe(
  db: Db,
  { tenantId, email }: { tenantId: string; email: string },
  topic: MailTopic,
  now = Date.now(),
): Promise<{ address: AddressState }> {
  const address = normalizeAddress(email);
  const row = await addressRow(db, tenantId, address);
  const removed = row
    ? await db
        .delete(notificationUnsubscribes)
        .where(
          and(
            eq(notificationUnsubscribes.tenant_id, tenantId),
            eq(notificationUnsubscribes.address_id, row.id),
            eq(notificationUnsubscribes.topic, topic),
          ),
        )
        .returning({ topic: notificationUnsubscribes.topic })
    : [];
  if (!row || removed.length === 0) {
    throw new NotFoundError(`${address} is not unsubscribed from ${TOPIC_NAMES[topic]} of this organization`);
  }
  const member = (await memberAddressesAmong(db, tenantId, [address])).size > 0;
  if (!member) {
    const [reset] = await db
      .update(notificationAddresses)
      .set({ confirmed_at: null, confirm_token_hash: null, confirm_expires_at: null })
      .where(eq(notificationAddresses.id, row.id))
      .returning();
    if (reset) await sendConfirmation(db, reset, now);
  }
  return { address: await addressStateOf(db, tenantId, address, now) };
}

// ---- delivery --------------------------------------------------------------------------------------

export type MailConsent =
  | { unsubscribeUrl: string; topic: MailTopic }
  | { refused: string; reason: 'unconfirmed' | 'unsubscribed' };

/**
 * Whether one mail of this kind may go to this address for this organization, asked right before it
 * is sent: a member's address may, an outside one once it confirmed; neither once it unsubscribed
 * from the kind's topic or from everything. Answers the unsubscribe link the mail carries, or why it
 * is not sent.
 */
export async function mailConsent(
  db: Db,
  { tenantId, email }: { tenantId: string; email: string },
  kind: Exclude<NotificationKind, SubscriberKind> | 'test',
  now = Date.now(),
): Promise<MailConsent> {
  const address = normalizeAddress(email);
  const member = (await memberAddressesAmong(db, tenantId, [address])).size > 0;
  // A member's row is made at their first mail: its id is what their unsubscribe links name.
  if (member) {
    await db
      .insert(notificationAddresses)
      .values({ tenant_id: tenantId, address, created_at: now })
      .onConflictDoNothing();
  }
  const row = await addressRow(db, tenantId, address);
  if (!row || (!member && row.confirmed_at === null)) {
    return {
      refused: `not sent: ${address} is not a member and has not confirmed that it wants mail from this organization`,
      reason: 'unconfirmed',
    };
  }
  const topic = KIND_TOPIC[kind];
  const stopped = await db
    .select({ topic: notificationUnsubscribes.topic, at: notificationUnsubscribes.created_at })
    .from(notificationUnsubscribes)
    .where(
      and(
        eq(notificationUnsubscribes.address_id, row.id),
        inArray(notificationUnsubscribes.topic, [...new Set<MailTopic>([topic, 'all'])]),
      ),
    )
    .limit(1);
  const stop = stopped[0];
  if (stop) {
    return {
      refused: `not sent: ${address} unsubscribed from ${TOPIC_NAMES[stop.topic as MailTopic]} on ${new Date(stop.at).toISOString().slice(0, 10)}`,
      reason: 'unsubscribed',
    };
  }
  return { unsubscribeUrl: unsubscribeUrl(unsubscribeToken(row.id, topic)), topic };
}

// ---- the settings' view ----------------------------------------------------------------------------

/** Every address the organization's lists (org defaults and site overrides) and monitors name. */
async function namedAddresses(db: Db, tenantId: string): Promise<Set<string>> {
  const [scopes, monitors] = await Promise.all([
    db
      .select({ settings: notificationSettings.settings })
      .from(notificationSettings)
      .where(eq(notificationSettings.tenant_id, tenantId)),
    db
      .select({ alert_emails: uptimeMonitors.alert_emails })
      .from(uptimeMonitors)
      .where(and(eq(uptimeMonitors.tenant_id, tenantId), isNotNull(uptimeMonitors.alert_emails))),
  ]);
  const named = new Set<string>();
  for (const { settings } of scopes) {
    const stored = (settings ?? {}) as Record<string, unknown>;
    for (const list of RECIPIENT_LISTS) {
      const recipients = stored[list];
      if (!Array.isArray(recipients)) continue;
      for (const r of recipients as { kind?: unknown; email?: unknown }[])
        if (r?.kind === 'email' && typeof r.email === 'string') named.add(normalizeAddress(r.email));
    }
  }
  for (const { alert_emails } of monitors) for (const e of alert_emails ?? []) named.add(normalizeAddress(e));
  return named;
}

/**
 * `addresses` of GET /v1/notifications: every outside address the lists and monitors name, with its
 * confirmation, and every address (members' too) that unsubscribed from something. Sorted by address.
 */
export async function addressStates(db: Db, tenantId: string, now = Date.now()): Promise<AddressState[]> {
  const named = await namedAddresses(db, tenantId);
  const [rows, stops] = await Promise.all([
    db.select().from(notificationAddresses).where(eq(notificationAddresses.tenant_id, tenantId)),
    db
      .select()
      .from(notificationUnsubscribes)
      .where(eq(notificationUnsubscribes.tenant_id, tenantId))
      .orderBy(notificationUnsubscribes.created_at),
  ]);
  const byAddress = new Map(rows.map((r) => [r.address, r]));
  const stopsOf = new Map<string, { topic: MailTopic; at: number }[]>();
  for (const s of stops) {
    const list = stopsOf.get(s.address_id) ?? [];
    list.push({ topic: s.topic as MailTopic, at: s.created_at });
    stopsOf.set(s.address_id, list);
  }
  const shown = new Set(named);
  for (const r of rows) if (stopsOf.has(r.id)) shown.add(r.address);
  const members = await memberAddressesAmong(db, tenantId, [...shown]);
  const states: AddressState[] = [];
  for (const address of [...shown].sort()) {
    const row = byAddress.get(address);
    const member = members.has(address);
    // A member named by address who never unsubscribed is just a member: nothing to show.
    if (member && !(row && stopsOf.has(row.id))) continue;
    states.push(stateFrom(address, row, member, row ? (stopsOf.get(row.id) ?? []) : [], now));
  }
  return states;
}

function stateFrom(
  email: string,
  row: AddressRow | undefined,
  member: boolean,
  unsubscribed: { topic: MailTopic; at: number }[],
  now: number,
): AddressState {
  const status: AddressStatus = member
    ? 'member'
    : row?.confirmed_at != null
      ? 'confirmed'
      : row?.confirm_expires_at != null && row.confirm_expires_at > now
        ? 'pending'
        : row?.confirm_sent_at != null && row.confirm_error === null
          ? 'expired'
          : 'pending';
  return {
    email,
    status,
    confirmationSentAt: member ? null : (row?.confirm_sent_at ?? null),
    confirmationExpiresAt: member || status !== 'pending' ? null : (row?.confirm_expires_at ?? null),
    confirmationError: member || status === 'confirmed' ? null : (row?.confirm_error ?? null),
    confirmedAt: member ? null : (row?.confirmed_at ?? null),
    unsubscribed,
  };
}

async function addressStateOf(db: Db, tenantId: string, address: string, now: number): Promise<AddressState> {
  const row = await addressRow(db, tenantId, address);
  const member = (await memberAddressesAmong(db, tenantId, [address])).size > 0;
  const stops = row
    ? await db
        .select()
        .from(notificationUnsubscribes)
        .where(eq(notificationUnsubscribes.address_id, row.id))
        .orderBy(notificationUnsubscribes.created_at)
    : [];
  return stateFrom(
    address,
    row,
    member,
    stops.map((s) => ({ topic: s.topic as MailTopic, at: s.created_at })),
    now,
  );
}
